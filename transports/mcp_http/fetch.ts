/**
 * The `fetch` the SDK's Streamable HTTP client transport uses for one `mcp_http` upstream. Every request goes
 * through the shared guarded HTTP client (`src/upstream/http_client.ts`: timeouts, streaming byte cap, same-origin
 * redirects only, closed failure classes) with the upstream's static headers and freshly materialized auth headers.
 *
 * - Failures are thrown as {@link McpWireFailure} with a closed kind and a message that never contains the endpoint,
 *   certificates or remote text.
 * - No standalone GET listen stream: ptc does not consume server-initiated messages, so GET is answered locally
 *   with 405 (which the SDK treats as "no stream offered").
 * - The byte cap is the smaller of the upstream's `max_response_bytes` and the cap of the call in progress
 *   (`call_scope.ts`), enforced while the body streams.
 * - The `server/discover` exchange is shown to the probe tap (for the modern-only diagnostics).
 * @module
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { TransportDeps } from "../../src/upstream/types.ts";
import { guardedFetch } from "../../src/upstream/http_client.ts";
import { McpWireFailure } from "../mcp_common/errors.ts";
import type { ProbeTap } from "../mcp_common/session.ts";
import { currentCallScope } from "../mcp_common/call_scope.ts";
import type { McpHttpConfig } from "./config.ts";
import { connectTimeoutOf } from "../http_common/timeouts.ts";

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function parseMessages(bytes: Uint8Array, contentType: string): unknown[] {
  const text = new TextDecoder().decode(bytes);
  const bodies = contentType.includes("text/event-stream")
    ? text.split(/\r?\n\r?\n/).map((ev) =>
      ev.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n")
    ).filter((d) => d !== "")
    : [text];
  const out: unknown[] = [];
  for (const b of bodies) {
    try {
      const v = JSON.parse(b);
      if (Array.isArray(v)) out.push(...v);
      else out.push(v);
    } catch {
      // not JSON
    }
  }
  return out;
}

function requestMessages(body: unknown): unknown[] {
  if (typeof body !== "string") return [];
  try {
    const v = JSON.parse(body);
    return Array.isArray(v) ? v : [v];
  } catch {
    return [];
  }
}

/**
 * The request headers for one upstream: the SDK's own (`init`), then the static headers, then freshly materialized
 * auth headers. A credential that cannot be resolved throws {@link McpWireFailure} `credential_failed`.
 */
export async function upstreamHeaders(
  config: McpHttpConfig,
  deps: TransportDeps,
  init?: HeadersInit,
): Promise<Headers> {
  const headers = new Headers(init);
  for (const [name, value] of config.staticHeaders) headers.set(name, value);
  if (config.auth.length > 0) {
    let auth: Record<string, string>;
    try {
      auth = await deps.credentials.authHeaders(config.auth);
    } catch (e) {
      const why = e instanceof Error ? deps.redactor.redact(e.message) : "cannot be resolved";
      throw new McpWireFailure("credential_failed", `a credential for auth is unavailable: ${why}`);
    }
    for (const [name, value] of Object.entries(auth)) headers.set(name, value);
  }
  return headers;
}

/** What the HTTP exchanges of one connection attempt answered (for the fallback decision and its message). */
export interface WireTap {
  /** The status of the last POST (Streamable HTTP's initialize / probe, or an SSE message post). */
  postStatus?: number;
  /** The status of the SSE stream's GET. */
  getStatus?: number;
  /** A classified wire failure of the attempt (refused, DNS, TLS, timeout …). */
  failure?: McpWireFailure;
}

/** Build the guarded fetch for one upstream. */
export function makeMcpFetch(
  config: McpHttpConfig,
  deps: TransportDeps,
  tap?: ProbeTap,
  wire?: WireTap,
): FetchLike {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? "GET").toUpperCase();
    if (method === "GET") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const headers = await upstreamHeaders(config, deps, init?.headers);
    const body = typeof init?.body === "string" ? init.body : undefined;
    // Only a body that names server/discover is parsed (once); tool calls go through untouched.
    const sent = tap !== undefined && body?.includes("server/discover") ? requestMessages(body) : [];
    const probing = sent.some((m) => (m as { method?: unknown })?.method === "server/discover");
    if (probing) { for (const m of sent) tap!.sent(m); }
    const result = await guardedFetch(String(input), {
      method,
      headers,
      body,
      timeoutMs: config.requestTimeoutMs,
      connectTimeoutMs: connectTimeoutOf(config.connectTimeoutMs, deps),
      maxResponseBytes: Math.min(config.maxResponseBytes, currentCallScope()?.maxResponseBytes ?? Infinity),
      signal: init?.signal ?? undefined,
      fetch: deps.fetch,
      // a write tool's tools/call never rides a reused connection, which fetch would silently re-send it on
      freshConnection: currentCallScope()?.write === true,
    });
    if (!result.ok) {
      const failure = new McpWireFailure(result.kind, result.message);
      if (wire) wire.failure = failure;
      throw failure;
    }
    if (wire) wire.postStatus = result.status;
    if (probing) {
      const replies = parseMessages(result.bodyBytes, result.headers.get("content-type") ?? "");
      for (const m of replies) tap!.received(m);
      tap!.httpStatus(result.status);
    }
    return new Response(NULL_BODY.has(result.status) ? null : result.bodyBytes as Uint8Array<ArrayBuffer>, {
      status: result.status,
      headers: result.headers,
    });
  };
}
