/**
 * The legacy HTTP+SSE wire (MCP 2024-11-05) for `mcp_http`: the SDK's `SSEClientTransport` over ptc's fetches.
 *
 * - The stream's GET (`makeSseStreamFetch`) carries the static and auth headers, refuses to follow redirects itself
 *   (the SDK follows same-origin ones only), bounds the wait for the response headers by `connect_timeout_ms`, and
 *   passes the body through a per-event byte cap (`max_response_bytes`): one event longer than the cap ends the
 *   stream instead of being buffered. The stream itself has no total timeout — it lives as long as the connection;
 *   each call is bounded by its own timeout.
 * - The message POSTs go through the guarded fetch of `fetch.ts` (timeouts, caps, fresh connections for writes).
 * - A stream that ends or breaks after the handshake closes the transport (the SDK's EventSource would silently
 *   reconnect to a new server session that was never initialized); the upstream then reconnects as a whole.
 * @module
 */
import { type AuthProvider, type FetchLike, SSEClientTransport, SseError } from "@modelcontextprotocol/client";
import type { TransportDeps } from "../../src/upstream/types.ts";
import { classifyFetchError } from "../../src/upstream/http_client.ts";
import { McpWireFailure } from "../mcp_common/errors.ts";
import type { McpHttpConfig } from "./config.ts";
import { makeMcpFetch, upstreamHeaders, type WireTap } from "./fetch.ts";

const LF = 0x0a;
const CR = 0x0d;

/**
 * A stream that passes bytes through unchanged but errors with `response_too_large` as soon as one server-sent event
 * (the bytes between two blank lines) grows past `maxEventBytes`.
 */
export function eventCap(
  maxEventBytes: number,
  onOver?: (failure: McpWireFailure) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let pending = 0;
  let newlines = 0;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        if (byte === CR || byte === LF) {
          // CRLF, LF and CR each end a line; two line ends in a row end the event
          if (!(byte === LF && afterCr)) newlines++;
          afterCr = byte === CR;
          if (newlines >= 2) pending = 0;
          continue;
        }
        afterCr = false;
        newlines = 0;
        if (++pending > maxEventBytes) {
          const failure = new McpWireFailure(
            "response_too_large",
            `a server-sent event exceeded the cap of ${maxEventBytes} bytes`,
          );
          onOver?.(failure);
          controller.error(failure);
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}

/** The fetch of the SSE stream's GET for one upstream (see the module doc). */
export function makeSseStreamFetch(config: McpHttpConfig, deps: TransportDeps, wire: WireTap): FetchLike {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = await upstreamHeaders(config, deps, init?.headers);
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    outer?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.connectTimeoutMs);
    let response: Response;
    try {
      response = await deps.fetch(String(input), {
        method: "GET",
        headers,
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      outer?.removeEventListener("abort", onAbort);
      if (outer?.aborted) throw error;
      const c = classifyFetchError(error, timedOut ? "connect_timeout" : undefined, {
        timeoutMs: config.connectTimeoutMs,
        connectTimeoutMs: config.connectTimeoutMs,
        maxResponseBytes: config.maxResponseBytes,
      });
      wire.failure = new McpWireFailure(c.kind, c.message);
      throw wire.failure;
    } finally {
      clearTimeout(timer);
    }
    wire.getStatus = response.status;
    if (response.status !== 200 || response.body === null) {
      outer?.removeEventListener("abort", onAbort);
      await response.body?.cancel().catch(() => {});
      return new Response(null, { status: response.status, headers: response.headers });
    }
    const capped = response.body.pipeThrough(eventCap(config.maxResponseBytes, (f) => wire.failure ??= f));
    return new Response(capped, {
      status: response.status,
      headers: response.headers,
    });
  };
}

/**
 * A fresh SSE client transport for one connection attempt. `wire` records what the GET and POSTs answered; the
 * transport closes itself when its stream fails after the handshake (see the module doc). `authProvider` (an
 * `oauth2` emitter): the SDK sends its token on the GET and the POSTs and calls its `onUnauthorized` after a 401.
 */
export function makeSseTransport(
  config: McpHttpConfig,
  deps: TransportDeps,
  wire: WireTap,
  authProvider?: AuthProvider,
): SSEClientTransport {
  const transport = new SSEClientTransport(new URL(config.url), {
    fetch: makeMcpFetch(config, deps, undefined, wire),
    eventSourceInit: { fetch: makeSseStreamFetch(config, deps, wire) },
    ...(authProvider ? { authProvider } : {}),
  });
  transport.onerror = (error) => {
    if (error instanceof SseError) void transport.close();
  };
  const start = transport.start.bind(transport);
  transport.start = () => boundedStart(start, transport, config.startTimeoutMs, wire);
  return transport;
}

/**
 * The stream's start — the GET and the wait for its `endpoint` event — within `timeoutMs` (the SDK bounds the
 * handshake's requests, not this wait: a server that answers the GET and then says nothing would hold the start
 * forever). A failure the wire saw (the byte cap, a refused connection) is what the start fails with.
 */
async function boundedStart(
  start: () => Promise<void>,
  transport: SSEClientTransport,
  timeoutMs: number,
  wire: WireTap,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      wire.failure ??= new McpWireFailure("timeout", `no endpoint event on the SSE stream within ${timeoutMs} ms`);
      reject(wire.failure);
    }, timeoutMs);
  });
  try {
    await Promise.race([start(), timeout]);
  } catch (error) {
    await transport.close().catch(() => {});
    throw wire.failure ?? error;
  } finally {
    clearTimeout(timer);
  }
}
