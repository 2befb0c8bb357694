/**
 * Hostile HTTP+SSE servers (a real loopback server that speaks no MCP): an event stream that floods one endless
 * event, and one that answers the GET and then says nothing. Both end the start within its bounds, with a closed code;
 * neither is buffered nor waited for without end.
 * @module
 */
import assert from "node:assert/strict";
import http from "../../../transports/mcp_http/mod.ts";
import { UpstreamStartError } from "../../../src/upstream/types.ts";
import { startUpstream } from "../mcp_common/helpers.ts";

async function hostile(mode: "flood" | "silent", fn: (url: string) => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, (req) => {
    if (req.method === "POST") return new Response("no such endpoint", { status: 404 });
    let stop = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (mode === "silent" || stop) {
          return await new Promise<void>((r) => req.signal.addEventListener("abort", () => r()));
        }
        c.enqueue(new TextEncoder().encode(`data: ${"x".repeat(16 * 1024)}`)); // one event that never ends
        await new Promise((r) => setTimeout(r, 1));
      },
      cancel() {
        stop = true;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    await fn(`http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/sse`);
  } finally {
    ac.abort();
    await server.finished;
  }
}

const config = (url: string) => ({
  transport: "mcp_http",
  url,
  allow_insecure_loopback: true,
  protocol: "sse",
  start_timeout_ms: 1500,
  max_response_bytes: 200_000,
});

Deno.test("sse hostile: one endless event ends the stream at max_response_bytes (response_too_large)", async () => {
  await hostile("flood", async (url) => {
    const err = await startUpstream(http, config(url)).catch((e) => e);
    assert.ok(err instanceof UpstreamStartError, String(err));
    assert.equal(err.code, "response_too_large");
    assert.match(err.message, /a server-sent event exceeded the cap of 200000 bytes/);
  });
});

Deno.test("sse hostile: a stream that never names its endpoint ends the start at start_timeout_ms", async () => {
  await hostile("silent", async (url) => {
    const err = await startUpstream(http, config(url)).catch((e) => e);
    assert.ok(err instanceof UpstreamStartError, String(err));
    assert.equal(err.code, "start_timeout");
    assert.match(err.message, /no endpoint event on the SSE stream within 1500 ms/);
  });
});
