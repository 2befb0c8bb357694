import assert from "node:assert/strict";
import { join } from "node:path";
import { AnswerPool, replayHost } from "../../src/engine/replay.ts";
import { canonicalJson } from "../../src/core/digest.ts";
import { Recorder } from "../../src/engine/recorder.ts";
import { Replayer } from "../../src/engine/replayer.ts";
import { parseEvaluation, parseManifest, programHash, RecordingError } from "../../src/engine/recording_format.ts";
import type { EngineEvalResult } from "../../src/engine/types.ts";
import type { JsonValue } from "../../src/core/json.ts";

const RESULT: EngineEvalResult = { ok: true, status: "ok", printed: "3", json: 3, prints: [], calls: [], elapsedMs: 1 };

Deno.test("canonicalJson: the same value whatever order keys came in", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } }),
    canonicalJson({ a: { c: null, d: [1, { y: 1, z: 0 }] }, b: 1 }),
  );
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
});

Deno.test("AnswerPool: each answer once, identical keys in recorded order, any order across keys", () => {
  const pool = new AnswerPool([["a", 1], ["b", 2], ["a", 3]] as const);
  assert.equal(pool.take("b"), 2);
  assert.equal(pool.take("a"), 1);
  assert.equal(pool.take("a"), 3);
  assert.equal(pool.take("a"), undefined);
  assert.deepEqual(pool.unused(), []);
});

Deno.test("replayHost matches requests whatever their key order", async () => {
  const host = replayHost([{
    request: { name: "call", args: { server: "s", tool: "t", args: { x: 1, y: 2 } } },
    outcome: { kind: "value", value: 7 },
  }]);
  const hit = await host.callTool({ name: "call", args: { args: { y: 2, x: 1 }, tool: "t", server: "s" } });
  assert.deepEqual(hit, { kind: "value", value: 7 });
  const again = await host.callTool({ name: "call", args: { server: "s", tool: "t", args: { x: 1, y: 2 } } });
  assert.equal(again.kind === "raise" && again.reason, "replay_mismatch");
});

Deno.test("the format: another format, another version and a malformed file are refused naming the file", () => {
  assert.throws(
    () => parseManifest(`{"format":"x"}`, "/d/manifest.json"),
    /\/d\/manifest\.json: not a ptc recording file/,
  );
  assert.throws(
    () => parseManifest(`{"format":"ptc-recording","version":3}`, "/d/manifest.json"),
    /version 3 is not supported \(this ptc reads versions 1 and 2/,
  );
  assert.throws(
    () => parseManifest(`{"format":"ptc-recording","version":1,"servers":[]}`, "/d/manifest.json"),
    (e) => e instanceof RecordingError && /\/d\/manifest\.json: malformed recording at \//.test(e.message),
  );
  assert.throws(() => parseEvaluation("[]", "/d/000001-aaaaaaaaaaaa.json", "000001-aaaaaaaaaaaa.json"), /not a ptc/);
});

Deno.test("two recorders on one directory never overwrite each other's evaluations", async () => {
  const dir = join(await Deno.makeTempDir({ prefix: "ptc-rec-unit-" }), "rec");
  try {
    const errors: string[] = [];
    const a = await Recorder.open(dir, (m) => errors.push(m));
    const b = await Recorder.open(dir, (m) => errors.push(m));
    await a.started(undefined);
    await b.started(undefined);
    const [ja, jb] = [await a.begin("(+ 1 2)"), await b.begin("(+ 1 2)")];
    await ja.finish(RESULT);
    await jb.finish(RESULT);
    assert.equal(errors.length, 0, errors.join("\n"));
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
    assert.equal(names.length, 3, `${names}`);
    assert.deepEqual(names.slice(0, 2).map((n) => n.slice(0, 6)), ["000001", "000002"]);
    // a later recorder continues the numbering; the replay reads all of it
    const c = await Recorder.open(dir, (m) => errors.push(m));
    await c.started(undefined);
    await (await c.begin("(+ 2 2)")).finish(RESULT);
    const replay = await Replayer.load(dir, () => {});
    const [h12, h22] = [await programHash("(+ 1 2)"), await programHash("(+ 2 2)")];
    assert.deepEqual(replay.evaluations.map((e) => [e.sequence, e.program_sha256]), [[1, h12], [2, h12], [3, h22]]);
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("a value nested past the depth limit is recorded as the invalid_response the run makes of it", async () => {
  const dir = join(await Deno.makeTempDir({ prefix: "ptc-rec-deep-" }), "rec");
  try {
    let deep: JsonValue = 1;
    for (let i = 0; i < 5_000; i++) deep = [deep];
    const recorder = await Recorder.open(dir, () => {});
    await recorder.started(undefined);
    const journal = await recorder.begin("(tool/call 's/t {})");
    const call = { server: "s", tool: "t", args: {}, effect: "read" as const };
    const live = await journal.intercept(call, () => Promise.resolve({ ok: true, value: deep, valueKind: "json" }));
    assert.equal((live as { ok: boolean }).ok, true, "the run still gets (and refuses) the value itself");
    await journal.finish(RESULT);
    const name = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).find((n) => n !== "manifest.json")!;
    const evaluation = JSON.parse(await Deno.readTextFile(join(dir, name)));
    assert.equal(evaluation.calls[0].result.reason, "invalid_response");
    // and deeply nested arguments in a recording file are refused, naming the file
    evaluation.calls[0].args = { x: deep };
    assert.throws(
      () => parseEvaluation(JSON.stringify(evaluation), join(dir, name), name),
      /malformed recording at \/calls\/0\/args: nested deeper than ptc accepts/,
    );
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("a recording DIR ptc creates, and every file it writes, is readable by its owner only", async () => {
  // A recording holds whole upstream answers (customer data, not only the digests the 0600 audit log holds): with the
  // umask's 0755/0644 another user of the machine could read them.
  const dir = join(await Deno.makeTempDir({ prefix: "ptc-rec-mode-" }), "rec");
  try {
    const r = await Recorder.open(dir, () => {});
    await r.started(undefined);
    await (await r.begin("(+ 1 2)")).finish(RESULT);
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    for await (const e of Deno.readDir(dir)) {
      assert.equal((await Deno.stat(join(dir, e.name))).mode! & 0o777, 0o600, e.name);
    }
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});
