/**
 * The limits a replay accepts bind the recorder too (a recording is always replayable: an evaluation past a limit is
 * not recorded, loudly, and still answers), and a replay holds one evaluation file at a time, not the directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Recorder } from "../../src/engine/recorder.ts";
import { Replayer } from "../../src/engine/replayer.ts";
import {
  evaluationFileName,
  MAX_RECORDING_FILE_BYTES,
  MAX_RECORDING_TOTAL_BYTES,
  programHash,
  RECORDING_LIMITS,
} from "../../src/engine/recording_format.ts";
import type { EngineEvalResult } from "../../src/engine/types.ts";
import type { ToolResult } from "../../src/upstream/types.ts";
import { fillSparse, withRecordingDir } from "./recording_dirs.ts";

const RESULT: EngineEvalResult = { ok: true, status: "ok", printed: "3", json: 3, prints: [], calls: [], elapsedMs: 1 };
const READ = { server: "s", tool: "t", effect: "read" as const };

const withDir = (fn: (dir: string) => Promise<void>) => withRecordingDir("ptc-rec-limits-", fn);

/** One evaluation of `program` whose one read call `{n}` answers `value`. */
async function evaluate(recorder: Recorder, program: string, n: number, value: string): Promise<void> {
  const journal = await recorder.begin(program);
  const answer: ToolResult = { ok: true, value, valueKind: "text" };
  await journal.intercept({ ...READ, args: { n } }, () => Promise.resolve(answer));
  await journal.finish(RESULT);
}

async function evalFiles(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n !== "manifest.json").sort();
}

Deno.test("record: an evaluation whose file would pass the per-file limit is not recorded, said, the next one is", async () => {
  await withDir(async (dir) => {
    const said: string[] = [];
    const recorder = await Recorder.open(dir, (m) => said.push(m), "test", { ...RECORDING_LIMITS, fileBytes: 2_000 });
    await recorder.started(undefined);
    await evaluate(recorder, "(big)", 1, "x".repeat(5_000));
    await evaluate(recorder, "(small)", 2, "y");
    assert.equal(said.length, 1, said.join("\n"));
    assert.match(said[0], /^recording: evaluation 1 was not recorded into .*rec: its file would hold \d+ bytes, more /);
    assert.match(said[0], /than a replay reads in one file \(2000\); it ran and answered as usual/);
    const files = await evalFiles(dir);
    assert.deepEqual(files, [evaluationFileName(2, await programHash("(small)"))]);
    assert.equal((await Replayer.load(dir, () => {})).evaluations.length, 1, "what was written replays");
  });
});

Deno.test("record: at the file-count limit recording stops, said once naming DIR, the limit and a new DIR", async () => {
  await withDir(async (dir) => {
    const said: string[] = [];
    const limits = { ...RECORDING_LIMITS, files: 3 };
    const first = await Recorder.open(dir, (m) => said.push(m), "test", limits);
    await first.started(undefined);
    await evaluate(first, "(a)", 1, "a");
    // a later process adds to the recording: what DIR holds counts
    const recorder = await Recorder.open(dir, (m) => said.push(m), "test", limits);
    await recorder.started(undefined);
    for (const p of ["(b)", "(c)", "(d)", "(e)"]) await evaluate(recorder, p, 1, "v");
    assert.equal(said.length, 1, said.join("\n"));
    assert.equal(
      said[0],
      `recording stopped: ${dir} would pass the limit of 3 evaluation files a replay reads, so evaluation 4 and ` +
        "every later evaluation of this process are not recorded (they still run and answer as usual); to keep " +
        "recording, start again with --record naming a new directory",
    );
    assert.equal((await evalFiles(dir)).length, 3);
  });
});

Deno.test("record: at the replay's total-size limit (what DIR held included) recording stops", async () => {
  await withDir(async (dir) => {
    const said: string[] = [];
    const first = await Recorder.open(dir, (m) => said.push(m));
    await first.started(undefined);
    await evaluate(first, "(a)", 1, "a");
    // Sparse files (no disk used) fill DIR up to 100 bytes below the limit.
    await fillSparse(dir, MAX_RECORDING_TOTAL_BYTES - 100, 2, MAX_RECORDING_FILE_BYTES);
    const recorder = await Recorder.open(dir, (m) => said.push(m));
    await recorder.started(undefined);
    await evaluate(recorder, "(b)", 1, "b");
    await evaluate(recorder, "(c)", 1, "c");
    assert.equal(said.length, 1, said.join("\n"));
    assert.match(
      said[0],
      new RegExp(
        `^recording stopped: ${dir} would pass the limit of ${MAX_RECORDING_TOTAL_BYTES} bytes in all a replay ` +
          `reads \\(it holds ${MAX_RECORDING_TOTAL_BYTES - 100} bytes; evaluation 6 adds \\d+\\)`,
      ),
    );
    assert.equal((await evalFiles(dir)).length, 5, "nothing written past the limit");
  });
});

Deno.test("replay: an evaluation's file is read when its program begins, not held from the start", async () => {
  await withDir(async (dir) => {
    const recorder = await Recorder.open(dir, () => {});
    await recorder.started(undefined);
    await evaluate(recorder, "(a)", 1, "first");
    await evaluate(recorder, "(b)", 2, "second");
    const replay = await Replayer.load(dir, () => {});
    // Changing a file after the start shows it is read again when needed (a held copy would answer "second").
    const file = join(dir, evaluationFileName(2, await programHash("(b)")));
    await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace('"second"', '"edited"'));
    const b = await replay.begin("(b)");
    const answer = await b.intercept({ ...READ, args: { n: 2 } }, () => assert.fail("never performed"));
    assert.deepEqual(answer, { ok: true, value: "edited", valueKind: "text" });
    await Deno.remove(join(dir, evaluationFileName(1, await programHash("(a)"))));
    const a = await replay.begin("(a)");
    const gone = await a.intercept({ ...READ, args: { n: 1 } }, () => assert.fail("never performed"));
    assert.equal((gone as { kind: string; reason: string }).reason, "replay_mismatch");
    assert.match((gone as { message: string }).message, /--replay .*rec: cannot read .*000001-.*: no such file/);
  });
});

Deno.test("replay: a program with no recording of its own answers from a bounded part of the recording's reads", async () => {
  await withDir(async (dir) => {
    const recorder = await Recorder.open(dir, () => {});
    await recorder.started(undefined);
    for (const n of [1, 2, 3]) await evaluate(recorder, `(p${n})`, n, `v${n}`);
    const sizes = await Promise.all(
      [1, 2].map(async (n) => (await Deno.stat(join(dir, evaluationFileName(n, await programHash(`(p${n})`))))).size),
    );
    const notes: string[] = [];
    const replay = await Replayer.load(dir, (m) => notes.push(m), sizes[0] + sizes[1]);
    const j = await replay.begin("(other)");
    const hit = await j.intercept({ ...READ, args: { n: 2 } }, () => assert.fail("never performed"));
    assert.deepEqual(hit, { ok: true, value: "v2", valueKind: "text" });
    const miss = await j.intercept({ ...READ, args: { n: 3 } }, () => assert.fail("never performed"));
    assert.equal((miss as { reason: string }).reason, "replay_mismatch");
    assert.match((miss as { message: string }).message, /only the evaluations up to 2 answer it/);
    assert.match(
      notes.join("\n"),
      /the reads of the evaluations up to 2 \(the 1 later one\(s\) holding reads are left/,
    );
  });
});
