/**
 * Parked sessions of `ptc mcp --http --sessions`: a session idle past `--session-park-ms` gives back its sandbox
 * process (`/metrics` shows none), and its next evaluation sees every earlier definition, closure and `*1` — restored
 * from the recorded answers: the MCP fixture upstream receives no call again.
 */
import assert from "node:assert/strict";
import { connectHttp, spawnHttpServer, startWorld, textOf } from "./mcp_server_helpers.ts";

async function sessionProcesses(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return Number(/^ptc_sandbox_processes\{state="session"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

async function eventually(cond: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

Deno.test("a parked session holds no process and comes back exactly, without repeating a tool call", async () => {
  const world = await startWorld();
  const server = await spawnHttpServer([
    "--upstreams-config",
    world.configPath,
    "--sessions",
    "--session-park-ms",
    "300",
    "--response-profile",
    "structured",
  ]);
  const client = await connectHttp("modern", server.url);
  try {
    const started = await client.callTool({ name: "lisp_session_start", arguments: {} });
    const sid = (started.structuredContent as { session_id: string }).session_id;
    assert.equal(await sessionProcesses(server.origin), 0, "a new session holds no process");
    const run = async (program: string) =>
      textOf(await client.callTool({ name: "lisp_session_eval", arguments: { session_id: sid, program } }));

    assert.equal(
      await run(`(def u (:value (tool/call 'fixture/get-user {:user_id "u1"}))) (:name u)`),
      `"Ada Lovelace"`,
    );
    assert.equal(await run(`(defn greet [x] (str "hi " (:name x))) (def n 41)`), "#'n");
    await run("(inc n)");
    const calls = world.mcp!.requests();
    assert.equal(await sessionProcesses(server.origin), 1, "the session holds its process while in use");
    assert.ok(await eventually(async () => await sessionProcesses(server.origin) === 0), "parked after 300 ms");

    // Restored: a def from a tool answer, a closure, a plain def and the history.
    assert.equal(await run(`[(greet u) n *1]`), `["hi Ada Lovelace" 41 42]`);
    assert.equal(world.mcp!.requests(), calls, "no upstream call was made again");
    // A failed program rolled back and is not part of the history.
    assert.match(await run(`(def gone 1) (+ 1 "a")`), /error/i);
    assert.ok(await eventually(async () => await sessionProcesses(server.origin) === 0));
    assert.equal(await run("n"), "41");
    assert.match(await run("gone"), /^unbound_var: /);
    assert.equal(world.mcp!.requests(), calls);
  } finally {
    await client.close();
    const code = await server.stop();
    await world.close();
    assert.equal(code, 0, server.stderr());
  }
});

Deno.test("past --session-memory-budget-mb, session starts and evaluations are refused with a clear reason", async () => {
  const server = await spawnHttpServer([
    "--sessions",
    "--session-memory-budget-mb",
    "1",
    "--response-profile",
    "structured",
  ]);
  const client = await connectHttp("modern", server.url);
  try {
    const start = () => client.callTool({ name: "lisp_session_start", arguments: {} });
    const sid = ((await start()).structuredContent as { session_id: string }).session_id;
    const run = (program: string, context?: Record<string, unknown>) =>
      client.callTool({ name: "lisp_session_eval", arguments: { session_id: sid, program, context } });
    // The session's history now holds a 600,000-character context (about 1.2 MB): the budget is used up.
    const big = await run("(def s (count data/s))", { s: "x".repeat(600_000) });
    assert.equal(big.isError, undefined, textOf(big));
    const refused = await run("s");
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^memory_budget: the server's sessions hold about 1 MiB, at their budget of 1 MiB/);
    assert.match(textOf(await start()), /^memory_budget: .*--session-memory-budget-mb/);
    const health = await fetch(`${server.origin}/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    // Closing the session gives the budget back.
    await client.callTool({ name: "lisp_session_close", arguments: { session_id: sid } });
    assert.equal((await start()).isError, undefined);
  } finally {
    await client.close();
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});
