/**
 * `ptc eval --record DIR` at the replay's total-size limit: every evaluation still runs and answers, stderr says
 * once that recording stopped (naming DIR, the limit and what to do), and DIR stays a recording a replay reads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno } from "../cli/run_deno.ts";
import { MAX_RECORDING_FILE_BYTES, MAX_RECORDING_TOTAL_BYTES } from "../../src/engine/recording_format.ts";
import { fillSparse } from "../engine/recording_dirs.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

Deno.test("ptc eval --record: past the replay's size limit the evaluations answer and recording stops loudly", async () => {
  const root = await Deno.makeTempDir({ prefix: "ptc-rec-limit-eval-" });
  try {
    const rec = join(root, "rec");
    const first = await runDeno([MAIN, "eval", "--record", rec, "(+ 1 2)"]);
    assert.equal(first.code, 0, first.stderr);
    // Sparse files (no disk used) bring DIR to 50 bytes below what a replay reads in all.
    await fillSparse(rec, MAX_RECORDING_TOTAL_BYTES - 50, 2, MAX_RECORDING_FILE_BYTES);
    const before = (await Array.fromAsync(Deno.readDir(rec))).length;
    const r = await runDeno([MAIN, "eval", "--record", rec, "--jsonl"], { stdin: '"(+ 40 2)"\n"(* 6 7)"\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n").map((l) => JSON.parse(l).value), [42, 42], "both still answer");
    const stops = r.stderr.split("\n").filter((l) => l.includes("recording stopped"));
    assert.equal(stops.length, 1, r.stderr);
    assert.match(
      stops[0],
      new RegExp(
        `^ptc eval: recording stopped: ${rec} would pass the limit of ${MAX_RECORDING_TOTAL_BYTES} bytes in all a ` +
          `replay reads .*; to keep recording, start again with --record naming a new directory$`,
      ),
    );
    assert.equal((await Array.fromAsync(Deno.readDir(rec))).length, before, "nothing written past the limit");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
