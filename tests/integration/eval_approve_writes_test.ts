/**
 * `ptc eval` under write approval has no person to ask: with `--approve-writes`, `$PTC_APPROVE_WRITES` or the
 * config's `approve_writes` a write ends `:approval_unavailable` (`:not_applied`, never sent) unless `--yes` approved
 * the run's writes up front. Counted at the live Observatory's write log.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { withWriteObservatory } from "./write_observatory.ts";
import { runDeno } from "../cli/run_deno.ts";
import { MAIN } from "./ptc_process.ts";

Deno.test("ptc eval --approve-writes refuses writes without --yes; --yes sends them; the config key does the same", async () => {
  await withWriteObservatory(async (observatory, config, dir) => {
    const trace = observatory.dataset.traces[0].id;
    const program =
      `(let [r (tool/call 'observatory/create-trace-annotation {:trace_id "${trace}" :label "needs-review"}` +
      ` {:reason "eval"})] [(:ok r) (:reason r) (:mutation_state r)])`;
    const evalWith = (flags: string[], env: Record<string, string> = {}, cfg = config) =>
      runDeno([MAIN, "eval", "--upstreams-config", cfg, "--allow-writes", ...flags, program], {
        env: { NO_COLOR: "1", ...env },
      });

    for (const [flags, env] of [[["--approve-writes"], {}], [[], { PTC_APPROVE_WRITES: "1" }]] as const) {
      const refused = await evalWith([...flags], env);
      assert.equal(refused.stdout, "[false :approval_unavailable :not_applied]\n", refused.stderr);
      assert.match(refused.stderr, /Writes: observatory\/create-trace-annotation not_applied/);
    }
    assert.equal(observatory.writes().length, 0, "refused writes never reach the service");

    const yes = await evalWith(["--approve-writes", "--yes", "--format", "json"]);
    const out = JSON.parse(yes.stdout);
    assert.deepEqual(out.writes, [
      { server: "observatory", tool: "create-trace-annotation", mutation_state: "applied", approval: "accepted" },
    ]);
    assert.equal(observatory.writes().length, 1, "--yes: exactly one write");

    // The config key alone turns approval on (either switch on means approval is required).
    let text = await Deno.readTextFile(config);
    text = applyEdits(text, modify(text, ["approve_writes"], true, {}));
    const keyed = join(dir, "approve.jsonc");
    await Deno.writeTextFile(keyed, text);
    const byKey = await evalWith([], {}, keyed);
    assert.equal(byKey.stdout, "[false :approval_unavailable :not_applied]\n", byKey.stderr);
    const byKeyYes = await evalWith(["--yes"], {}, keyed);
    assert.equal(byKeyYes.stdout, "[true nil :applied]\n", byKeyYes.stderr);
    assert.equal(observatory.writes().length, 2);
  });
});
