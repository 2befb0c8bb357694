/**
 * A write tool's `tools/call` goes on a connection of its own (`freshConnection`): fetch silently re-sends a request
 * whose reused keep-alive connection closed after the server received it, so a write on a pooled connection could be
 * applied twice. Reads, the handshake and listing keep the pool. A real MCP server over Streamable HTTP on loopback;
 * the fetch the transport is given records whether each request carried its own client.
 */
import assert from "node:assert/strict";
import { startMcpHttpFixture } from "../../../fixtures/mcp/http.ts";
import { registerBuiltins } from "../../../transports/mod.ts";
import { callCtx, makeDeps, startUpstream } from "../mcp_common/helpers.ts";

Deno.test("mcp_http: a write tool's tools/call has a connection of its own; reads and the handshake share the pool", async () => {
  const fx = await startMcpHttpFixture();
  const seen: { method: string; tool?: string; own: boolean }[] = [];
  const deps = {
    ...makeDeps(),
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const messages = [JSON.parse(String(init?.body ?? "null"))].flat() as {
        method?: string;
        params?: { name?: string };
      }[];
      for (const m of messages.filter((x) => x?.method)) {
        seen.push({
          method: m.method!,
          tool: m.params?.name,
          own: (init as { client?: unknown }).client !== undefined,
        });
      }
      return fetch(input, init);
    },
  };
  const upstream = await startUpstream(registerBuiltins().get("mcp_http")!, {
    transport: "mcp_http",
    url: fx.url,
    allow_insecure_loopback: true,
    tools: { echo: { effect: "read" }, delete_item: { effect: "write" } },
  }, deps);
  try {
    const echo = await upstream.call("echo", { text: "hi" }, callCtx({ effect: "read" }));
    const del = await upstream.call("delete-item", { id: "x" }, callCtx({ effect: "write" }));
    assert.equal(echo.ok, true, JSON.stringify(echo));
    assert.equal(del.ok, true, JSON.stringify(del));
    const calls = seen.filter((s) => s.method === "tools/call").map((s) => [s.tool, s.own]);
    assert.deepEqual(calls, [["echo", false], ["delete_item", true]]);
    assert.ok(seen.some((s) => s.method === "tools/list"), JSON.stringify(seen));
    assert.ok(seen.filter((s) => s.method !== "tools/call").every((s) => !s.own), JSON.stringify(seen));
  } finally {
    await upstream.stop();
    await fx.close();
  }
});
