/**
 * A recording directory is input too: what a hostile or broken DIR does to `--record` and `--replay` — a symlink, a
 * FIFO or a device where an evaluation file should be, files too large for memory together, a manifest nested past
 * what the host walks, two processes starting a recording of different catalogs in one empty DIR. Each is a clear
 * RecordingError naming the flag and the file, never a hang, a stack overflow or a file read outside DIR.
 */
import assert from "node:assert/strict";
import { startSettled } from "../upstream/settled.ts";
import { join } from "node:path";
import { Recorder } from "../../src/engine/recorder.ts";
import { Replayer } from "../../src/engine/replayer.ts";
import {
  MAX_RECORDING_FILE_BYTES,
  MAX_RECORDING_TOTAL_BYTES,
  RecordingError,
} from "../../src/engine/recording_format.ts";
import type { EngineEvalResult } from "../../src/engine/types.ts";
import { parseConfigText, type PtcConfig } from "../../src/upstream/config.ts";
import { TransportRegistry } from "../../src/upstream/registry.ts";
import { withRecordingDir } from "./recording_dirs.ts";

const RESULT: EngineEvalResult = { ok: true, status: "ok", printed: "3", json: 3, prints: [], calls: [], elapsedMs: 1 };

const withDir = (fn: (dir: string) => Promise<void>) => withRecordingDir("ptc-rec-hostile-", fn);

/** A recording of one evaluation of `(+ 1 2)` with no upstreams, in `dir`; its evaluation file's name. */
async function record(dir: string): Promise<string> {
  const recorder = await Recorder.open(dir, (m) => assert.fail(m));
  await recorder.started(undefined);
  await (await recorder.begin("(+ 1 2)")).finish(RESULT);
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).find((n) => n !== "manifest.json")!;
}

async function refusal(dir: string): Promise<string> {
  const e = await Replayer.load(dir, () => {}).then(() => undefined, (e) => e);
  assert.ok(e instanceof RecordingError, `expected a RecordingError, got ${e}`);
  return e.message;
}

Deno.test("replay: a symlink, a FIFO or a device in DIR is refused naming it, never followed or read", async () => {
  await withDir(async (dir) => {
    const name = await record(dir);
    const file = join(dir, name);
    const outside = join(dir, "..", "secret.txt");
    await Deno.writeTextFile(outside, "root:x:0:0:the-outside-secret");
    await Deno.remove(file);
    await Deno.symlink(outside, file);
    const linked = await refusal(dir);
    assert.equal(linked, `--replay ${dir}: ${file} is a symbolic link; a recording holds regular files only`);
    assert.ok(!linked.includes("root:x"), "nothing of the file outside DIR is shown");

    await Deno.remove(file);
    await Deno.symlink("/dev/zero", file); // a read that never ends
    assert.match(await refusal(dir), /is a symbolic link/);

    await Deno.remove(file);
    const fifo = await new Deno.Command("mkfifo", { args: [file] }).output(); // a read that waits forever
    assert.equal(fifo.code, 0);
    assert.equal(
      await refusal(dir),
      `--replay ${dir}: ${file} is not a regular file; a recording holds regular files only`,
    );

    await Deno.remove(file);
    await Deno.mkdir(file);
    assert.match(await refusal(dir), /is a directory; a recording holds regular files only/);
  });
});

Deno.test("replay: files that together pass what a replay holds in memory are refused before any is read", async () => {
  await withDir(async (dir) => {
    await record(dir);
    // Sparse files: each under the per-file bound, together over the total; nothing is read (they hold only zeros).
    const count = Math.floor(MAX_RECORDING_TOTAL_BYTES / MAX_RECORDING_FILE_BYTES) + 1;
    for (let i = 2; i <= count + 1; i++) {
      const f = join(dir, `${String(i).padStart(6, "0")}-aaaaaaaaaaaa.json`);
      await Deno.writeTextFile(f, "");
      await Deno.truncate(f, MAX_RECORDING_FILE_BYTES);
    }
    assert.match(
      await refusal(dir),
      /^--replay .*rec: its files hold \d+ bytes, more than a replay reads \(268435456\); replay a smaller recording/,
    );
  });
});

Deno.test("record and replay: a manifest nested deeper than ptc walks is refused naming it, no stack overflow", async () => {
  await withDir(async (dir) => {
    await record(dir);
    const path = join(dir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    manifest.limits = { deep: "@@" };
    await Deno.writeTextFile(path, JSON.stringify(manifest).replace('"@@"', "[".repeat(200_000) + "]".repeat(200_000)));
    const expected = `${path}: malformed recording: nested deeper than ptc accepts (1000)`;
    assert.equal(await refusal(dir), `--replay ${dir}: ${expected}`);
    const recorder = await Recorder.open(dir, () => {}).then(async (r) => await r.started(undefined), (e) => e);
    assert.ok(recorder instanceof RecordingError, `${recorder}`);
    assert.equal(recorder.message, `--record ${dir}: ${expected}`);
  });
});

/** A runtime with no upstreams and `max_tool_calls` calls per evaluation. */
async function runtimeWith(maxToolCalls: number) {
  const config = parseConfigText(JSON.stringify({ upstreams: {}, limits: { max_tool_calls: maxToolCalls } }), "/");
  assert.ok(!Array.isArray(config), JSON.stringify(config));
  return await startSettled(config as PtcConfig, { registry: new TransportRegistry(), log: () => {} });
}

Deno.test("record: two processes starting on one empty DIR with other limits — the second is refused", async () => {
  await withDir(async (dir) => {
    const [ra, rb] = [await runtimeWith(3), await runtimeWith(7)];
    try {
      // Both open DIR while it is empty, so neither sees the other's manifest when it opens.
      const a = await Recorder.open(dir, () => {});
      const b = await Recorder.open(dir, () => {});
      await a.started(ra);
      const e = await b.started(rb).then(() => undefined, (e) => e);
      assert.ok(e instanceof RecordingError, `the second recorder must not replace the first one's manifest: ${e}`);
      assert.match(e.message, /--record .*rec: it holds a recording of another catalog or other limits/);
      const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
      assert.equal(manifest.limits.maxToolCalls, 3);
      // The same catalog and limits: the second one joins the recording.
      const c = await Recorder.open(join(dir, "..", "same"), () => {});
      const d = await Recorder.open(join(dir, "..", "same"), () => {});
      await c.started(ra);
      await d.started(ra);
    } finally {
      await ra.stop();
      await rb.stop();
    }
  });
});
