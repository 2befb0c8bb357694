/**
 * The viewer's sources and model: audit logs read incrementally (appends, rotation, hostile lines counted and
 * skipped, a call line without its eval line never shown), version 1 recordings without timings, the mapping of each
 * source to a run, filters and the peak concurrency of a waterfall.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluationLines, ToolIndex } from "../../src/mcp/audit_lines.ts";
import type { CallRecord, EngineEvalResult } from "../../src/engine/types.ts";
import { CATALOG } from "../mcp/audit_catalog.ts";
import { AuditSource, RecordingSource } from "../../src/view/sources.ts";
import { peakConcurrency, runFromLive, runFromRecording, type ViewCall } from "../../src/view/model.ts";
import { matches } from "../../src/view/pages.ts";
import { evaluationFileName } from "../../src/engine/recording_format.ts";
import { sha256Hex } from "../../src/core/digest.ts";

const call = (over: Partial<CallRecord>): CallRecord => ({
  server: "obs",
  tool: "list",
  args: {},
  status: "ok",
  duration_ms: 4,
  start_ms: 1,
  bytes: 500,
  ...over,
});

const result = (calls: CallRecord[]): EngineEvalResult => ({
  ok: true,
  status: "ok",
  printed: "3",
  json: 3,
  prints: ["hi"],
  elapsedMs: 10,
  calls,
});

async function auditLines(evalId: string, calls: CallRecord[]): Promise<string> {
  const lines = await evaluationLines({
    evalId,
    time: `2026-12-01T00:00:0${evalId.length % 10}.000Z`,
    subject: { face: "http", owner: "token:abc", tool: "lisp_eval" },
    program: "(+ 1 2)",
    elapsedMs: 10,
    result: result(calls),
    answerBytes: 40,
  }, new ToolIndex(CATALOG, { obs: "b".repeat(64) }));
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

Deno.test("audit source: eval and call lines become runs; appends are read, hostile lines skipped, rotation re-read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-audit-" });
  try {
    const file = join(dir, "audit.jsonl");
    await Deno.writeTextFile(
      file,
      await auditLines("e1", [
        call({}),
        call({ tool: "annotate", mutation_state: "applied", start_ms: 2, duration_ms: 8 }),
      ]),
    );
    const source = new AuditSource(file, 0);
    await source.refresh();
    let runs = source.runs();
    assert.equal(runs.length, 1);
    const [run] = runs;
    assert.equal(run.id, "a0-e1");
    assert.equal(run.owner, "token:abc");
    assert.equal(run.upstreamBytes, 1000);
    assert.equal(run.answerBytes, 40);
    assert.deepEqual(run.writes, [{ server: "obs", tool: "annotate", mutation_state: "applied" }]);
    assert.deepEqual(run.calls.map((c) => [c.startMs, c.durationMs, c.effect]), [[1, 4, "read"], [2, 8, "write"]]);
    assert.deepEqual(run.snapshots, { obs: "b".repeat(64) });
    assert.equal(run.program, undefined, "the audit log keeps no program text");
    assert.equal(run.programSha, await sha256Hex("(+ 1 2)"));

    // Appended: a hostile line (not JSON, a JSON array, a very long line, a deep nest), a call line whose eval line
    // never comes, then a second evaluation split across two reads.
    const second = await auditLines("e22", [call({})]);
    await Deno.writeTextFile(
      file,
      "not json\n[1,2]\n" + "x".repeat(200_000) + "\n" + "[".repeat(100_000) + "\n" +
        JSON.stringify({ kind: "call", eval_id: "orphan", server: "obs", tool: "list" }) + "\n" +
        second.slice(0, 40),
      { append: true },
    );
    await source.refresh();
    assert.equal(source.runs().length, 1, "half a line is not a line");
    await Deno.writeTextFile(file, second.slice(40), { append: true });
    await source.refresh();
    runs = source.runs();
    assert.deepEqual(runs.map((r) => r.id), ["a0-e1", "a0-e22"]);
    assert.ok(source.problems.some((p) => /4 line\(s\) are not audit lines/.test(p)), source.problems.join("\n"));

    // Rotated: the file is shorter than what was read, so it is read anew.
    await Deno.writeTextFile(file, await auditLines("e333", []));
    await source.refresh();
    assert.deepEqual(source.runs().map((r) => r.id), ["a0-e333"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit source: a write's approval outcome shows with its mutation state", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-approval-" });
  try {
    const file = join(dir, "audit.jsonl");
    const declined = call({
      tool: "annotate",
      status: "error",
      reason: "declined",
      mutation_state: "not_applied",
      approval: "declined",
    });
    await Deno.writeTextFile(file, await auditLines("e1", [declined]));
    const source = new AuditSource(file, 0);
    await source.refresh();
    assert.deepEqual(source.runs()[0].writes, [
      { server: "obs", tool: "annotate", mutation_state: "not_applied", approval: "declined" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit source: a missing file or a directory is a problem, never a throw", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-audit-" });
  try {
    const missing = new AuditSource(join(dir, "none.jsonl"), 0);
    await missing.refresh();
    assert.match(missing.problems[0], /none\.jsonl: no such file/);
    const folder = new AuditSource(dir, 1);
    await folder.refresh();
    assert.equal(folder.problems.length, 1);
    assert.deepEqual(folder.runs(), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("recording source: a version 1 file shows without timings; a broken file is named, the rest still show", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-rec-" });
  try {
    await Deno.writeTextFile(
      join(dir, "manifest.json"),
      JSON.stringify({
        format: "ptc-recording",
        version: 1,
        ptc_version: "0.0.1",
        created: "2026-01-01T00:00:00.000Z",
        limits: { maxToolCalls: 50, maxWriteCalls: 5 },
        servers: [],
      }),
    );
    const program = "(tool/call 'obs/annotate {})";
    const hash = await sha256Hex(program);
    await Deno.writeTextFile(
      join(dir, evaluationFileName(1, hash)),
      JSON.stringify({
        format: "ptc-recording-evaluation",
        version: 1,
        sequence: 1,
        program_sha256: hash,
        program,
        started: "2026-01-01T00:00:01.000Z",
        outcome: { ok: true, status: "ok", printed: "{}" },
        calls: [{
          server: "obs",
          tool: "annotate",
          args: {},
          effect: "write",
          result: { ok: false, reason: "upstream_error", message: "x", mutation_state: "indeterminate" },
        }],
      }),
    );
    await Deno.writeTextFile(join(dir, evaluationFileName(2, hash)), "{not json");
    const source = new RecordingSource(dir, 3);
    await source.refresh();
    const runs = source.runs();
    assert.equal(runs.length, 1);
    assert.equal(runs[0].id, "r3-1");
    assert.equal(runs[0].calls[0].startMs, undefined);
    assert.equal(runs[0].calls[0].status, "error");
    assert.deepEqual(runs[0].writes, [{ server: "obs", tool: "annotate", mutation_state: "indeterminate" }]);
    assert.equal(runs[0].usage, undefined);
    assert.deepEqual(runs[0].limits, { maxToolCalls: 50, maxWriteCalls: 5 });
    assert.match(source.problems.join("\n"), /000002-[0-9a-f]{12}\.json: not valid JSON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("model: a live run, filters and the peak concurrency of overlapping calls", () => {
  const live = runFromLive({
    seq: 7,
    time: "2026-12-01T10:00:00.000Z",
    face: "stdio",
    owner: "local",
    tool: "lisp_eval",
    program: "(pmap …)",
    result: result([call({ start_ms: 0, duration_ms: 10 }), call({ start_ms: 5, duration_ms: 10 })]),
    answerBytes: 12,
    elapsedMs: 20,
    snapshots: {},
  });
  assert.equal(live.id, "l7");
  assert.equal(live.ok, true);
  assert.deepEqual(live.prints, ["hi"]);
  assert.equal(peakConcurrency(live.calls), 2);
  const f = { page: 1 };
  assert.ok(matches(live, { ...f, upstream: "obs", tool: "obs/list", q: "PMAP" }));
  assert.ok(!matches(live, { ...f, outcome: "error" }));
  assert.ok(!matches(live, { ...f, from: "2026-12-02" }));
  assert.ok(matches(live, { ...f, from: "2026-12-01", to: "2026-12-01T10:01" }));
  const back: ViewCall[] = [
    { server: "s", tool: "t", status: "ok", startMs: 0, durationMs: 5 },
    { server: "s", tool: "t", status: "ok", startMs: 5, durationMs: 5 },
    { server: "s", tool: "t", status: "ok" },
  ];
  assert.equal(peakConcurrency(back), 1, "back-to-back calls are not concurrent; untimed ones are not counted");
  const failed = runFromRecording(
    {
      format: "ptc-recording-evaluation",
      version: 2,
      sequence: 1,
      program_sha256: "0".repeat(64),
      program: "(fail 1)",
      started: "2026-01-01T00:00:00.000Z",
      outcome: { ok: true, status: "failed", printed: "1" },
      calls: [],
    },
    { format: "ptc-recording", version: 2, ptc_version: "x", created: "", limits: {}, servers: [] },
    0,
    "/d",
  );
  assert.equal(failed.ok, false, "(fail v) is not a success");
  assert.equal(failed.outcome, "failed");
});
