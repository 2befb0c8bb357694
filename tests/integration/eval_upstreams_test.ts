import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";

import { MAIN, runPtc as ptc } from "./ptc_process.ts";

Deno.test("ptc eval --upstreams-config: a program calls the Observatory through the example config", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-eval-up-" });
  await Deno.mkdir(join(dir, ".observatory"));
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none" });
  try {
    const config = await writeConcreteConfig(dir, server.url);

    await t.step("tool/call and local aggregation", async () => {
      const program = `(->> (tool/call 'observatory/list-traces {:org-id "acme" :status "error" :limit 50})
                             :value :traces (map :status) distinct)`;
      const r = await ptc(["eval", "--upstreams-config", config, "--format", "json", program]);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(out.value, ["error"]);
      // what the upstream returned against what the answer needs, as ptc mcp's debug ptc_metrics
      assert.equal(out.metrics.upstream_call_count, 1);
      assert.ok(out.metrics.upstream_result_bytes > 5000, JSON.stringify(out.metrics));
      assert.equal(out.metrics.returned_bytes, new TextEncoder().encode('["error"]').length);
      assert.ok(out.metrics.payload_reduction_ratio > 100);
      const local = JSON.parse((await ptc(["eval", "--format", "json", "(+ 1 2)"])).stdout);
      assert.equal(local.metrics, undefined, "no upstream call, no metrics");
    });

    await t.step("world faults are tagged data, not errors", async () => {
      const r = await ptc([
        "eval",
        "--upstreams-config",
        config,
        '(:reason (tool/call \'observatory/get-trace {:trace-id "nope"}))',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), ":not_found");
    });

    await t.step("a call refused for the budget flags the answer on stderr and in the JSON object", async () => {
      const program = "(count (pmap #(tool/call 'observatory/get-trace {:trace-id (str %)}) (range 51)))";
      const r = await ptc(["eval", "--upstreams-config", config, program]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "51");
      assert.match(r.stderr, /warning: budget exhausted — 1 tool call\(s\) refused: tool call budget exhausted/);
      const j = await ptc(["eval", "--upstreams-config", config, "--format", "json", program]);
      assert.deepEqual(JSON.parse(j.stdout).budget_exhausted, [
        "1 tool call(s) refused: tool call budget exhausted: at most 50 calls per run",
      ]);
    });

    await t.step("an unknown tool is refused before anything runs, listing what exists", async () => {
      const r = await ptc(["eval", "--upstreams-config", config, "(tool/call 'observatory/list-trace {})"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /list-traces/);
      assert.ok(!r.stderr.includes(tokens.token), "the token never appears");
    });

    await t.step("exactly the flags `ptc permissions` prints are enough to run from source", async () => {
      const printed = await ptc(["permissions", "--upstreams-config", config]);
      assert.equal(printed.code, 0, printed.stderr);
      const flags = printed.stdout.trim().split(" ");
      // sandbox processes: run permission for exactly this Deno executable, no reads of the sources
      assert.ok(flags.includes(`--allow-run=${Deno.execPath()}`), printed.stdout);
      assert.ok(!flags.some((f) => f.startsWith("--allow-read=") && f.includes("/src/sandbox")), printed.stdout);
      const r = await ptc([
        "eval",
        "--upstreams-config",
        config,
        '(:ok (tool/call \'observatory/get-trace {:trace-id "x"}))',
      ], [
        ...flags,
        `--allow-read=${MAIN}`,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "false");
    });

    await t.step("missing Deno permissions: exit 2 naming the flags, no prompt", async () => {
      const r = await ptc(["eval", "--upstreams-config", config, "1"], [`--allow-read=${dir},${MAIN}`, "--allow-env"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^ptc eval: missing Deno permissions: --allow-net=127\.0\.0\.1:\d+ /);
    });
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
