/**
 * Which HTTP wire an `mcp_http` upstream speaks, following the MCP specification's backwards-compatibility
 * procedure: POST the handshake to `url` as Streamable HTTP; when that answers HTTP 400, 404 or 405, GET `url`
 * expecting the legacy HTTP+SSE transport's event stream (its first event names the message endpoint). `protocol`
 * `"streamable"`/`"2026-07-28"` or `"sse"` pins one wire (config.ts).
 *
 * The wire that worked is remembered for the upstream's reconnects; a remembered wire that stops answering that way
 * is forgotten and the procedure runs again. When no wire answers, the error names every endpoint tried and what it
 * answered, never the URL's query or userinfo.
 * @module
 */
import { type AuthProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { TransportDeps } from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { connectClient, type Connection, ProbeTap } from "../mcp_common/session.ts";
import { publicEndpoint } from "../http_common/endpoint.ts";
import type { McpHttpConfig } from "./config.ts";
import { makeMcpFetch, type WireTap } from "./fetch.ts";
import { makeSseTransport } from "./sse.ts";

/** The two HTTP wires of MCP. */
export type Wire = "streamable" | "sse";

/** A connection and the wire it runs on. */
export interface WireConnection extends Connection {
  wire: Wire;
}

/** Statuses of a Streamable HTTP handshake POST after which the spec says to try the HTTP+SSE GET. */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** One attempt's outcome: the connection, or the error with what the wire answered. */
type Attempt = { conn: WireConnection } | { error: unknown; tap: WireTap };

/**
 * A connector for one upstream that remembers the wire that worked (see the module doc). `authProvider` (an `oauth2`
 * emitter) is handed to whichever wire is tried.
 */
export function makeWireConnector(
  config: McpHttpConfig,
  deps: TransportDeps,
  authProvider?: AuthProvider,
): () => Promise<WireConnection> {
  let learned: Wire | undefined;
  return async () => {
    const order = wireOrder(config, learned);
    const failures: { wire: Wire; error: unknown; tap: WireTap }[] = [];
    for (const wire of order) {
      const attempt = await connectOver(wire, config, deps, authProvider);
      if ("conn" in attempt) {
        learned = wire;
        return attempt.conn;
      }
      failures.push({ wire, ...attempt });
      if (!mayTryNext(wire, attempt)) break;
    }
    learned = undefined;
    throw wireError(config, failures);
  };
}

/** The wires to try, in order. */
export function wireOrder(config: Pick<McpHttpConfig, "wire">, learned?: Wire): Wire[] {
  if (config.wire !== "auto") return [config.wire];
  return learned === "sse" ? ["sse", "streamable"] : ["streamable", "sse"];
}

/** Whether a failed attempt on `wire` lets the next wire be tried. */
function mayTryNext(wire: Wire, attempt: { error: unknown; tap: WireTap }): boolean {
  const tap = attempt.tap;
  if (tap.failure) return false; // refused, DNS, TLS, timeout: the other wire is at the same address
  // the server spoke MCP and said something precise (a protocol refusal, auth): it is not an HTTP+SSE server
  if (attempt.error instanceof UpstreamStartError && attempt.error.code !== "handshake_failed") return false;
  if (wire === "streamable") return tap.postStatus !== undefined && FALLBACK_STATUSES.has(tap.postStatus);
  // a remembered SSE wire that no longer answers with a stream: try Streamable HTTP again
  return tap.getStatus !== 200;
}

async function connectOver(
  wire: Wire,
  config: McpHttpConfig,
  deps: TransportDeps,
  authProvider: AuthProvider | undefined,
): Promise<Attempt> {
  let tap: WireTap = {};
  const url = new URL(config.url);
  try {
    const conn = await connectClient({
      ...config,
      // HTTP+SSE servers predate server/discover: plain initialize
      protocol: wire === "sse" ? "legacy" : config.protocol,
      cacheKey: JSON.stringify(["mcp_http", wire, config.url]),
      makeTransport: () => {
        tap = {};
        const probe = new ProbeTap();
        const transport = wire === "sse"
          ? makeSseTransport(config, deps, tap, authProvider)
          : new StreamableHTTPClientTransport(url, {
            fetch: makeMcpFetch(config, deps, probe, tap),
            ...(authProvider ? { authProvider } : {}),
          });
        return { transport, tap: probe };
      },
    });
    return { conn: { ...conn, wire } };
  } catch (error) {
    return { error, tap };
  }
}

const WIRE_WORDS: Record<Wire, string> = { streamable: "Streamable HTTP (POST)", sse: "HTTP+SSE (GET)" };

/** The start error after every wire tried failed. */
function wireError(config: McpHttpConfig, failures: { wire: Wire; error: unknown; tap: WireTap }[]): unknown {
  const last = failures[failures.length - 1];
  const n = config.upstreamName;
  // a precise refusal (an OAuth login_required, a protocol mismatch) is kept as it is
  const specific = last.error instanceof UpstreamStartError && last.error.code !== "handshake_failed";
  if (specific) return last.error;
  if (last.wire === "sse" && !last.tap.failure) {
    const status = last.tap.getStatus;
    if (status === 401 || status === 403) {
      return new UpstreamStartError(
        status === 401 ? "auth_failed" : "forbidden",
        `upstream ${n}: the server refused the connection (HTTP ${status})`,
        "check the credential bound in `auth`",
      );
    }
  }
  if (last.tap.failure) return last.error;
  const endpoint = String(publicEndpoint({ url: config.url }).url ?? "the configured url");
  const answers = failures.map(({ wire, tap }) => {
    const status = wire === "sse" ? tap.getStatus : tap.postStatus;
    const what = status === undefined
      ? "no answer"
      : wire === "sse" && status === 200
      ? "HTTP 200 but no MCP event stream"
      : `HTTP ${status}`;
    return `${WIRE_WORDS[wire]} answered ${what}`;
  });
  const tried = failures.map((f) => f.wire);
  const hint = tried.length > 1
    ? "check that `url` is the server's MCP endpoint (Streamable HTTP servers often serve /mcp, HTTP+SSE servers /sse)"
    : tried[0] === "sse"
    ? 'check that `url` is the server\'s SSE endpoint (often /sse), or set "protocol": "auto"'
    : "check that `url` is the server's MCP endpoint";
  return new UpstreamStartError(
    "handshake_failed",
    `upstream ${n}: no MCP handshake at ${endpoint}: ${answers.join("; ")}`,
    hint,
  );
}
