/**
 * Graceful shutdown of `ptc mcp`: on SIGTERM an in-flight call finishes and is answered, then the process exits 0 —
 * over HTTP and over stdio, with an MCP stdio upstream configured (its child-process reaper must not cut the
 * shutdown short).
 */
import assert from "node:assert/strict";
import { connectHttp, evalLisp, spawnHttpServer, spawnStdioServer, startWorld, textOf } from "./mcp_server_helpers.ts";

Deno.test("SIGTERM over HTTP: the in-flight call finishes, then exit 0", async () => {
  const world = await startWorld({ stdioUpstream: true });
  const server = await spawnHttpServer(["--upstreams-config", world.configPath, "--max-concurrent-calls", "1"]);
  const c = await connectHttp("auto", server.url);
  try {
    assert.equal(textOf(await evalLisp(c, `(:ok (tool/call 'local/echo {:x 1}))`)), "true");
    const inFlight = evalLisp(c, `(-> (tool/call 'fixture/sleep {:ms 800}) :value :slept)`);
    for (;;) {
      const res = await fetch(`${server.origin}/ready`);
      await res.body?.cancel();
      if (res.status === 503) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    server.child.kill("SIGTERM");
    assert.equal(textOf(await inFlight), "800");
    assert.equal(await server.exited(), 0, server.stderr());
  } finally {
    await c.close().catch(() => {});
    await server.stop();
    await world.close();
  }
});

Deno.test("SIGTERM over stdio: the in-flight call is answered, then exit 0", async () => {
  const world = await startWorld({ stdioUpstream: true });
  const server = spawnStdioServer(["--upstreams-config", world.configPath]);
  const waitFor = async (pred: () => boolean) => {
    while (!pred()) await new Promise((r) => setTimeout(r, 20));
  };
  try {
    await server.initialize({ wait: true });
    const before = world.mcp!.requests();
    await server.call(2, `(-> (tool/call 'fixture/sleep {:ms 800}) :value :slept)`);
    // The fixture saw the upstream call: the program is running.
    await waitFor(() => world.mcp!.requests() > before);
    server.child.kill("SIGTERM");
    const { code, stderr } = await server.finished();
    assert.equal(code, 0, stderr);
    const answer = server.frames().find((f) => f.id === 2);
    assert.ok(answer, "the in-flight call was answered");
    assert.equal(answer.result!.content[0].text, "800");
  } finally {
    await server.dispose();
    await world.close();
  }
});

Deno.test("SIGTERM over HTTP: an open subscriptions/listen stream does not hold the shutdown", async () => {
  const server = await spawnHttpServer([]);
  const res = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
        notifications: { toolsListChanged: true },
      },
    }),
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /notifications\/subscriptions\/acknowledged/);
  const started = performance.now();
  server.child.kill("SIGTERM");
  const drained = (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* cut by the server */ }
  })();
  assert.equal(await server.exited(), 0, server.stderr());
  await drained;
  // Without closing the stream first, shutdown would sit out its whole 5 s grace period.
  assert.ok(performance.now() - started < 4000, "the listen stream was closed by the shutdown, not by the grace timer");
});
