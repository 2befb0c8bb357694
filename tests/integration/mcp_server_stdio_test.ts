/**
 * `ptc mcp` over stdio: the official client in all three eras (the SDK spawns `deno run … main.ts mcp`), the debug
 * profile's call records and payload metrics, and a raw run proving that nothing but JSON-RPC frames reaches stdout
 * (prints, upstream calls, errors, a malformed line, an MCP stdio upstream's child process).
 */
import assert from "node:assert/strict";
import { connectStdio, evalLisp, spawnStdioServer, startWorld, textOf } from "./mcp_server_helpers.ts";

type Structured = Record<string, unknown>;
const sc = (r: unknown) => (r as { structuredContent?: Structured }).structuredContent ?? {};

Deno.test("ptc mcp over stdio with the official client in every era", async (t) => {
  const world = await startWorld();
  try {
    const flags = ["--upstreams-config", world.configPath, "--response-profile", "debug"];
    for (
      const [era, version] of [["legacy", "2025-11-25"], ["auto", "2026-07-28"], ["modern", "2026-07-28"]] as const
    ) {
      await t.step(`${era} (${version})`, async () => {
        const c = await connectStdio(era, flags);
        try {
          assert.equal(c.getNegotiatedProtocolVersion(), version);
          const { tools } = await c.listTools();
          assert.deepEqual(tools.map((x) => x.name), ["lisp_eval"]);
          assert.equal(textOf(await evalLisp(c, '(str "a" "b")')), '"ab"');

          const r = await evalLisp(
            c,
            `(let [t (tool/call 'observatory/list-traces {:org_id "globex" :limit 20})
                   u (tool/call 'fixture/get-user {:user_id "u1"})]
               {:traces (count (:traces (:value t))) :user (:name (:value u))})`,
          );
          assert.equal(textOf(r), '{:traces 20 :user "Ada Lovelace"}');
          const s = sc(r);
          assert.deepEqual(s.value, { traces: 20, user: "Ada Lovelace" });
          const calls = s.upstream_calls as Structured[];
          assert.deepEqual(calls.map((x) => `${x.server}/${x.tool}:${x.status}`).sort(), [
            "fixture/get-user:ok",
            "observatory/list-traces:ok",
          ]);
          const m = s.ptc_metrics as Structured;
          assert.equal(m.upstream_call_count, 2);
          assert.ok((m.upstream_result_bytes as number) > 1000);
          assert.equal(m.returned_bytes, new TextEncoder().encode(textOf(r)).length);
          assert.ok((m.payload_reduction_ratio as number) > 10);
          assert.equal(m.token_estimate_method, "utf8_bytes_div_4");
        } finally {
          await c.close();
        }
      });
    }
  } finally {
    await world.close();
  }
});

Deno.test("on stdio, stdout carries JSON-RPC frames only", async () => {
  const world = await startWorld({ stdioUpstream: true });
  const server = spawnStdioServer([
    "--upstreams-config",
    world.configPath,
    "--response-profile",
    "debug",
    "--max-concurrent-calls",
    "8",
  ]);
  const { call } = server;
  try {
    await server.initialize();
    await server.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await call(3, `(println "hello from the program") 42`);
    await call(4, `(tool/call 'local/echo {:text "via a child process"})`);
    await call(5, `(do (tool/call 'observatory/list-traces {:org_id "acme"}) (tool/call 'local/env {:name "HOME"}))`);
    await call(6, "(undefined-fn 1)");
    await call(7, `(tool/call 'local/listItems {:limit 2})`);
    await server.send("this is not json");
    await call(8, "(+ 40 2)");
    // End of input with calls still running: every one is still answered before the process exits 0.
    await server.closeInput();
    const { code, stderr } = await server.finished();
    assert.equal(code, 0, stderr);
    const frames = server.frames();
    for (const f of frames) assert.equal(f.jsonrpc, "2.0");
    const byId = new Map(frames.filter((f) => f.id !== undefined && f.id !== null).map((f) => [f.id, f]));
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) assert.ok(byId.has(id), `a response for request ${id}`);
    const text = (id: number) => byId.get(id)!.result!.content[0].text;
    assert.equal(text(3), "hello from the program\n\n42", "prints come first, inside the result");
    assert.match(text(4), /via a child process/);
    assert.match(text(6), /undefined-fn/);
    assert.equal(byId.get(6)!.result!.isError, true);
    assert.equal(text(8), "42");
  } finally {
    await server.dispose();
    await world.close();
  }
});
