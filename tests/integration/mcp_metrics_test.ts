/**
 * `GET /metrics` of `ptc mcp --http`: the same door as /mcp (401 without the token, never 429 with it), and in the
 * Prometheus text exposition format the evaluations by outcome, their duration histogram, upstream calls by server
 * and outcome (an MCP fixture upstream: ok and failing calls), sandbox processes, sessions, connections and memory —
 * each counted from what the official SDK client actually did.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectHttp, evalLisp, spawnHttpServer, startWorld } from "./mcp_server_helpers.ts";

/** Parse the exposition text into `name{labels}` → value, checking every sample line's shape. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+]+|NaN|\+Inf)$/.exec(line);
    assert.ok(m, `not an exposition sample line: ${line}`);
    out.set(m[1], Number(m[2]));
  }
  return out;
}

Deno.test("GET /metrics: Prometheus text of evaluations, durations, upstream calls, sandboxes, sessions, memory", async () => {
  const world = await startWorld();
  const token = "M".repeat(20) + crypto.randomUUID().replaceAll("-", "");
  const tokenFile = join(world.dir, "token");
  await Deno.writeTextFile(tokenFile, token);
  const server = await spawnHttpServer([
    "--upstreams-config",
    world.configPath,
    "--http-auth-token-file",
    tokenFile,
    "--sessions",
  ]);
  const client = await connectHttp("modern", server.url, token);
  try {
    const scrape = (headers: Record<string, string>) => fetch(`${server.origin}/metrics`, { headers });
    // The door of /mcp: no token, a wrong token → 401; five failures → 429 for failures, never for the token.
    const none = await scrape({});
    assert.equal(none.status, 401);
    await none.body?.cancel();
    for (let i = 0; i < 5; i++) await (await scrape({ authorization: `Bearer ${"z".repeat(40)}` })).body?.cancel();

    assert.equal((await evalLisp(client, "(+ 1 2)")).isError, undefined);
    assert.equal((await evalLisp(client, "(+ 1 2")).isError, true); // a parse error
    const schema = { type: "string" };
    assert.equal((await evalLisp(client, "42", { output_schema: schema })).isError, true); // validation_error
    await evalLisp(client, `[(tool/call 'fixture/echo {:x 1}) (tool/call 'fixture/fail {})]`);
    const s = await client.callTool({ name: "lisp_session_start", arguments: {} });
    const sid = (JSON.parse((s.content as { text: string }[])[0].text) as { session_id: string }).session_id;
    await client.callTool({ name: "lisp_session_eval", arguments: { session_id: sid, program: "(def x 1)" } });
    await client.callTool({ name: "lisp_session_eval", arguments: { session_id: "nope", program: "1" } });

    const res = await scrape({ authorization: `Bearer ${token}` });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.match(text, /# TYPE ptc_evaluations_total counter/);
    assert.match(text, /# TYPE ptc_evaluation_duration_seconds histogram/);
    const m = samples(text);
    assert.equal(m.get('ptc_evaluations_total{outcome="ok"}'), 3, text);
    assert.equal(m.get('ptc_evaluations_total{outcome="parse_error"}'), 1, text);
    assert.equal(m.get('ptc_evaluations_total{outcome="validation_error"}'), 1, text);
    assert.equal(m.get('ptc_evaluations_total{outcome="unknown_session"}'), 1, text);
    assert.equal(m.get("ptc_evaluation_duration_seconds_count"), 5, "evaluations that ran");
    assert.equal(m.get('ptc_evaluation_duration_seconds_bucket{le="+Inf"}'), 5);
    assert.equal(m.get('ptc_upstream_calls_total{server="fixture",outcome="ok"}'), 1, text);
    const failed = [...m].filter(([k]) => k.startsWith('ptc_upstream_calls_total{server="fixture",outcome="'))
      .filter(([k]) => !k.includes('outcome="ok"'));
    assert.equal(failed.length, 1, text);
    assert.equal(failed[0][1], 1);
    assert.equal(m.get("ptc_sessions_open"), 1);
    assert.equal(m.get('ptc_sandbox_processes{state="session"}'), 1);
    assert.equal(m.get('ptc_sandbox_processes{state="busy"}'), 0);
    assert.equal(m.get('ptc_sandbox_processes{state="idle"}'), 4, "the warm pool (--max-concurrent-calls)");
    assert.equal(m.get("ptc_evaluations_in_flight"), 0);
    assert.ok((m.get("ptc_http_connections_open") ?? 0) >= 1);
    assert.ok((m.get("process_resident_memory_bytes") ?? 0) > 10 * 1024 * 1024);
    assert.ok(!text.includes(token));
  } finally {
    await client.close();
    const code = await server.stop();
    await world.close();
    assert.equal(code, 0, server.stderr());
  }
});
