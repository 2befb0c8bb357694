/**
 * Graceful shutdown of `ptc mcp`: on SIGTERM an in-flight call finishes and is answered, then the process exits 0 —
 * over HTTP and over stdio, with an MCP stdio upstream configured (its child-process reaper must not cut the
 * shutdown short).
 */
import assert from "node:assert/strict";
import { connectHttp, evalLisp, ptcMcpArgs, ROOT, spawnHttpServer, startWorld, textOf } from "./mcp_server_helpers.ts";

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
  const child = new Deno.Command(Deno.execPath(), {
    args: ptcMcpArgs(["--upstreams-config", world.configPath]),
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (m: unknown) => writer.write(new TextEncoder().encode(`${JSON.stringify(m)}\n`));
  const frames: Record<string, unknown>[] = [];
  const reading = (async () => {
    let buf = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        frames.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    }
  })();
  const stderr = new Response(child.stderr).text();
  const waitFor = async (pred: () => boolean) => {
    while (!pred()) await new Promise((r) => setTimeout(r, 20));
  };
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    await waitFor(() => frames.some((f) => f.id === 1));
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const before = world.mcp!.requests();
    await send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "lisp_eval", arguments: { program: `(-> (tool/call 'fixture/sleep {:ms 800}) :value :slept)` } },
    });
    // The fixture saw the upstream call: the program is running.
    await waitFor(() => world.mcp!.requests() > before);
    child.kill("SIGTERM");
    const status = await child.status;
    await reading;
    assert.equal(status.code, 0, await stderr);
    const answer = frames.find((f) => f.id === 2) as { result: { content: { text: string }[] } } | undefined;
    assert.ok(answer, "the in-flight call was answered");
    assert.equal(answer.result.content[0].text, "800");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
    await child.status;
    await writer.close().catch(() => {});
    await reading.catch(() => {});
    await stderr.catch(() => {});
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
