/**
 * The demo's write question, through the sandbox against the live fixture: writes are enabled for it alone (the
 * demo's read-only engine never installs a write tool), the annotation lands on the most expensive failed trace of
 * the week, the write is `:applied`, and the re-run with the same Idempotency-Key creates nothing — the fixture's
 * write log says so. Also `ptc demo` itself prints the write and its mutation state.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DATASET_END } from "../../fixtures/observatory/mod.ts";
import { demoWriteQuestion } from "../../src/cli/demo_questions.ts";
import { startDemoSession } from "../../src/cli/demo_session.ts";
import { runWriteQuestion } from "../../src/cli/demo_write_run.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("e2e demo write: annotate the most expensive failure of the week, once, with writes enabled for it alone", async () => {
  const session = await startDemoSession({ upstreams: ["observatory"], traces: 1500 });
  try {
    const readOnlyTools = session.engine.catalog().find((c) => c.name === "observatory")!.tools.map((t) => t.name);
    assert.ok(!readOnlyTools.includes("create-trace-annotation"), "the other questions' engine cannot write");

    const report = await runWriteQuestion(session, demoWriteQuestion());
    assert.ok(report.ok, JSON.stringify(report.json));
    const weekAgo = DATASET_END - 7 * 86_400_000;
    const expected = session.server.dataset.traces
      .filter((t) => t.status === "error" && Date.parse(t.started_at) >= weekAgo)
      .sort((a, b) => b.cost_usd - a.cost_usd || a.id.localeCompare(b.id))[0];
    const answer = report.json.answer as Record<string, unknown>;
    assert.equal(answer.trace, expected.id);
    assert.equal(answer.annotation, "ann_000001");
    assert.equal(answer.mutation_state, "applied");
    assert.equal(answer.annotations_on_trace, 1);
    const rerun = (report.json.rerun as { answer: Record<string, unknown> }).answer;
    assert.equal(rerun.annotation, "ann_000001", "the same annotation");
    assert.equal(rerun.annotations_on_trace, 1, "nothing duplicated");
    assert.deepEqual(report.json.writes, [
      { tool: "observatory/create-trace-annotation", mutation_state: "applied", status: "ok" },
    ]);
    assert.deepEqual(
      session.server.writes().map((w) => [w.method, w.idempotency_key, w.applied, w.status]),
      [["POST", `review-${expected.id}`, true, 201], ["POST", `review-${expected.id}`, false, 200]],
    );
  } finally {
    await session.close();
  }
});

Deno.test("e2e demo write: `ptc demo` prints the write and its mutation state", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "demo", "--traces", "800"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  assert.match(text, /Flag the most expensive failed trace this week/);
  assert.match(text, /write: observatory\/create-trace-annotation → :mutation_state :applied/);
  assert.match(
    text,
    /re-run, same Idempotency-Key: annotation ann_000001 \(:applied\), 1 annotation\(s\) on the trace/,
  );
  assert.match(text, /the fixture received 2 write request\(s\): 1 applied, 1 answered from the Idempotency-Key/);
});
