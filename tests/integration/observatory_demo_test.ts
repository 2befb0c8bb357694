/**
 * The demo's programs, run through the sandbox against the live fixture: every one succeeds, the answers agree with
 * the dataset computed directly, and the overall payload reduction meets the ≥ 50× target.
 */
import assert from "node:assert/strict";
import { demoQuestions } from "../../src/cli/demo_questions.ts";
import { overall } from "../../src/cli/demo.ts";
import { type ProgramRun, startDemoSession } from "../../src/cli/demo_session.ts";

Deno.test("e2e observatory demo: every question is answered, correctly and compactly", async () => {
  const session = await startDemoSession();
  try {
    const data = session.server.dataset;
    const failing = data.traces.find((t) => t.org_id === "globex" && t.status === "error" && t.step_count >= 5)!;
    const questions = demoQuestions({ externalTraceId: failing.external_trace_id });
    const runs = new Map<string, ProgramRun>();
    for (const q of questions) {
      const r = await session.run(q.program);
      assert.ok(r.result.ok, `${q.id}: ${JSON.stringify(r.result)}`);
      assert.equal(r.result.status, "ok", q.id);
      assert.ok(r.calls.length > 0 && r.calls.every((c) => c.status === "ok" || c.reason === "response_too_large"));
      runs.set(q.id, r);
    }
    const answer = (id: string) => (runs.get(id)!.result as { json: unknown }).json as Record<string, unknown>;

    assert.equal(answer("error-rate-rise").org, "globex", "the planted pattern is found");
    const top = answer("why-failing").top as [[string, string], number][];
    assert.deepEqual(top[0][0], ["rate_limit", "claude-sonnet-4"]);

    const expensive = answer("expensive-failures") as unknown as { trace: string; cost_usd: number }[];
    const expected = data.traces.filter((t) => t.status === "error").sort((a, b) => b.cost_usd - a.cost_usd)
      .slice(0, 5);
    assert.deepEqual(expensive.map((e) => e.trace), expected.map((t) => t.id));

    const perModel = answer("cost-per-model") as Record<string, number>;
    const acme = data.tracesOfOrg("acme");
    for (const [model, cost] of Object.entries(perModel)) {
      const sum = acme.filter((t) => t.model === model).reduce((s, t) => s + t.cost_usd, 0);
      assert.ok(Math.abs(sum - cost) < 1e-4, model);
    }

    const log = answer("log-line-trace");
    assert.equal(log.trace, failing.id);
    assert.equal((log.steps as unknown[]).length, failing.step_count);

    const sum = overall([...runs.values()]);
    assert.ok(sum.ratio !== null && sum.ratio >= 50, `overall reduction ${sum.ratio}`);
  } finally {
    await session.close();
  }
});
