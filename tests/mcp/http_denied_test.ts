/**
 * The HTTP face tells `onDenied` (the audit log's `denied` lines) of every request refused at the door — a Host or
 * Origin refused (403), a missing or wrong token (401), a failure from a client blocked after repeated ones (429) — with the
 * client address, and such a request never reaches the MCP handler.
 */
import assert from "node:assert/strict";
import { createHttpApp } from "../../src/mcp/http.ts";

const TOKEN = "t".repeat(40);

function app() {
  const denials: { status: number; reason: string; client: string }[] = [];
  const { app } = createHttpApp(() => {
    throw new Error("a refused request reached the MCP handler");
  }, {
    hostname: "127.0.0.1",
    port: 7332,
    authTokens: [TOKEN],
    allowedHosts: [],
    allowedOrigins: [],
    maxBodyBytes: 1024,
    saturated: () => false,
    onDenied: (d) => denials.push(d),
  }, { draining: false });
  const post = (headers: Record<string, string>, peer = "192.0.2.7") =>
    app.fetch(new Request("http://127.0.0.1:7332/mcp", { method: "POST", headers, body: "{}" }), { remoteAddr: peer });
  return { denials, post };
}

Deno.test("refused requests are reported with status, reason and client address", async () => {
  const { denials, post } = app();
  assert.equal((await post({ host: "evil.example" })).status, 403);
  assert.equal((await post({ host: "127.0.0.1:7332", origin: "https://evil.example" })).status, 403);
  for (let i = 0; i < 5; i++) {
    assert.equal((await post({ host: "127.0.0.1:7332", authorization: `Bearer wrong-${i}` })).status, 401);
  }
  assert.equal((await post({ host: "127.0.0.1:7332", authorization: "Bearer wrong-again" })).status, 429);
  assert.deepEqual(denials.map((d) => [d.status, d.reason]), [
    [403, "forbidden"],
    [403, "forbidden"],
    ...Array(5).fill([401, "unauthorized"]),
    [429, "rate_limited"],
  ]);
  assert.ok(denials.every((d) => d.client === "192.0.2.7"));
});
