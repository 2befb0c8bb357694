/**
 * The HTTP+SSE pieces on their own: the per-event byte cap of the stream, the `protocol` values that pin a wire,
 * and the order wires are tried in.
 * @module
 */
import assert from "node:assert/strict";
import { eventCap } from "../../../transports/mcp_http/sse.ts";
import { wireOrder } from "../../../transports/mcp_http/protocol.ts";
import http from "../../../transports/mcp_http/mod.ts";
import { makeCtx } from "../mcp_common/helpers.ts";

async function pipe(chunks: string[], cap: number): Promise<string> {
  const enc = new TextEncoder();
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
  return await new Response(source.pipeThrough(eventCap(cap))).text();
}

Deno.test("sse: events under the cap pass through whole, whatever the line endings", async () => {
  const stream = ["event: endpoint\ndata: /m", "essage\n\n", 'data: {"a":1}\r\n\r\n', "data: x\r\rdata: y\n\n"];
  assert.equal(await pipe(stream, 40), stream.join(""));
});

Deno.test("sse: one event over the cap ends the stream with response_too_large", async () => {
  const err = await pipe(["data: ", "x".repeat(30), "\n\n"], 20).catch((e) => e);
  assert.equal(err?.name, "McpWireFailure");
  assert.equal(err.kind, "response_too_large");
  assert.match(err.message, /cap of 20 bytes/);
});

Deno.test("sse: protocol pins a wire; auto tries Streamable HTTP first, a remembered SSE wire first", () => {
  const parse = (protocol?: string) => {
    const raw = { transport: "mcp_http", url: "https://mcp.example.com/sse", ...(protocol ? { protocol } : {}) };
    return http.parseConfig(raw, makeCtx());
  };
  const wireOf = (c: ReturnType<typeof parse>) => Array.isArray(c) ? c : [c.wire, c.protocol];
  assert.deepEqual(wireOf(parse()), ["auto", "auto"]);
  assert.deepEqual(wireOf(parse("sse")), ["sse", "legacy"]);
  assert.deepEqual(wireOf(parse("streamable")), ["streamable", "auto"]);
  assert.deepEqual(wireOf(parse("2026-07-28")), ["streamable", "2026-07-28"]);
  assert.deepEqual(wireOf(parse("legacy")), ["auto", "legacy"]);
  const bad = parse("websocket");
  assert.ok(Array.isArray(bad));
  assert.equal(bad[0].path, "upstreams.fx.protocol");
  assert.match(bad[0].message, /"sse"/);
  assert.deepEqual(wireOrder({ wire: "auto" }), ["streamable", "sse"]);
  assert.deepEqual(wireOrder({ wire: "auto" }, "sse"), ["sse", "streamable"]);
  assert.deepEqual(wireOrder({ wire: "sse" }), ["sse"]);
});
