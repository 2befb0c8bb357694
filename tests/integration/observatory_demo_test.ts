/**
 * The demo's programs, run through the sandbox against the live fixture and the runbooks MCP server (both started
 * from upstreams.example.jsonc): every one succeeds, the answers agree with the dataset and the runbook files read
 * directly, and the overall payload reduction meets the ≥ 50× target.
 */
import assert from "node:assert/strict";
import { DATASET_END } from "../../fixtures/observatory/mod.ts";
import type { TraceSummary } from "../../fixtures/observatory/types.ts";
import { demoQuestions } from "../../src/cli/demo_questions.ts";
import { callsText, overall } from "../../src/cli/demo.ts";
import { type ProgramRun, startDemoSession } from "../../src/cli/demo_session.ts";

const RUNBOOKS = new URL("../../fixtures/observatory/runbooks/", import.meta.url);
const WEEK_AGO = DATASET_END - 7 * 86_400_000;

/** The bullet items of one `## heading` section of a runbook, read straight from the file. */
async function runbookBullets(errorClass: string, heading: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(`${errorClass}.md`, RUNBOOKS));
  const section = text.split(`\n## ${heading}\n`)[1].split("\n## ")[0];
  return section.split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2));
}

/** Failures of an org in the demo's "this week" window, counted per error class (as list-errors sees them). */
function failuresThisWeek(traces: readonly TraceSummary[]): TraceSummary[] {
  return traces.filter((t) => t.status === "error" && Date.parse(t.started_at) >= WEEK_AGO);
}

function countBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

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

    // Through the operator library: one line of program, both upstreams behind it.
    const story = answer("library-step-story") as { trace_id: string; runbook: { mitigation: string[] } };
    const newest = data.tracesOfOrg("acme").filter((t) => t.status === "error")
      .sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
    assert.equal(story.trace_id, newest.id);
    assert.deepEqual(
      [...new Set(runs.get("library-step-story")!.calls.map((c) => c.server))].sort(),
      ["observatory", "runbooks"],
    );

    const perModel = answer("cost-per-model") as Record<string, number>;
    const acme = data.tracesOfOrg("acme");
    for (const [model, cost] of Object.entries(perModel)) {
      const sum = acme.filter((t) => t.model === model).reduce((s, t) => s + t.cost_usd, 0);
      assert.ok(Math.abs(sum - cost) < 1e-4, model);
    }

    // Both upstreams in one program: the top class and its count come from the Observatory, the advice from the runbook.
    const globexWeek = failuresThisWeek(data.tracesOfOrg("globex"));
    const byClass = [...countBy(globexWeek, (t) => t.error_class!)].sort((a, b) => b[1] - a[1]);
    const runbook = answer("runbook-for-top-error");
    assert.equal(runbook.error_class, byClass[0][0]);
    assert.equal(runbook.error_class, "rate_limit", "the planted pattern again");
    assert.equal(runbook.count, byClass[0][1]);
    assert.equal(runbook.of_failures, globexWeek.length);
    const mitigation = await runbookBullets("rate_limit", "Mitigation");
    assert.ok(mitigation.length >= 3);
    assert.deepEqual(runbook.mitigation, mitigation);
    const mixed = runs.get("runbook-for-top-error")!;
    assert.deepEqual(mixed.calls.map((c) => `${c.server}/${c.tool}`), [
      "observatory/list-errors",
      "runbooks/read-text-file",
    ]);
    assert.match(callsText(mixed), /observatory 1, runbooks 1/);

    const sheet = answer("triage-sheet") as unknown as {
      error_class: string;
      count: number;
      worst_app: string;
      check_first: string;
    }[];
    const acmeWeek = failuresThisWeek(data.tracesOfOrg("acme"));
    const acmeByClass = countBy(acmeWeek, (t) => t.error_class!);
    assert.deepEqual(new Set(sheet.map((r) => r.error_class)), new Set(acmeByClass.keys()));
    assert.ok(sheet.length >= 3, "the sheet covers several classes");
    for (const [i, row] of sheet.entries()) {
      assert.equal(row.count, acmeByClass.get(row.error_class), row.error_class);
      if (i > 0) assert.ok(sheet[i - 1].count >= row.count, "sorted by count");
      const perApp = countBy(acmeWeek.filter((t) => t.error_class === row.error_class), (t) => t.app);
      assert.equal(perApp.get(row.worst_app), Math.max(...perApp.values()), `${row.error_class}: worst app`);
      assert.equal(row.check_first, (await runbookBullets(row.error_class, "What to check"))[0]);
    }
    const triageCalls = runs.get("triage-sheet")!.calls;
    assert.equal(triageCalls.filter((c) => c.server === "runbooks").length, acmeByClass.size, "one page per class");

    const log = answer("log-line-trace");
    assert.equal(log.trace, failing.id);
    assert.equal((log.steps as unknown[]).length, failing.step_count);

    const sum = overall([...runs.values()]);
    assert.ok(sum.ratio !== null && sum.ratio >= 50, `overall reduction ${sum.ratio}`);
  } finally {
    await session.close();
  }
});
