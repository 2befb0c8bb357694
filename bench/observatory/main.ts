/**
 * `deno task bench observatory [--seed S] [--traces N] [--repeat N]`: the demo's questions against the live
 * Observatory fixture and the runbooks MCP server (upstreams.example.jsonc), measured as payload bytes the upstreams
 * returned (what a model would read calling the tools
 * one by one) vs bytes the PTC-Lisp program handed back. Prints the ratio per question and overall (target: overall
 * reduction ≥ 50×) plus median wall time per question, and writes bench/observatory/out/results.json.
 * @module
 */
import { parseArgs } from "node:util";
import { demoQuestions } from "../../src/cli/demo_questions.ts";
import { type ProgramRun, startDemoSession } from "../../src/cli/demo_session.ts";

const TARGET = 50;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function pad(text: string | number, width: number, right = false): string {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

/** Run the suite. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { seed: { type: "string" }, traces: { type: "string" }, repeat: { type: "string" } },
    strict: false,
  });
  const repeat = Math.max(1, Number(values.repeat ?? 3) || 3);
  const traces = values.traces ? Number(values.traces) : undefined;
  const session = await startDemoSession({ seed: values.seed as string | undefined, traces });
  try {
    const ext = session.server.dataset.traces.find((t) =>
      t.org_id === "globex" && t.status === "error" && t.step_count >= 5
    )?.external_trace_id ?? session.server.dataset.traces[0].external_trace_id;
    const questions = demoQuestions({ externalTraceId: ext });
    await session.run("(+ 1 2)"); // start the sandbox outside the measurements
    const rows: {
      id: string;
      calls: number;
      upstream: number;
      answer: number;
      ratio: number | null;
      ms: number;
      ok: boolean;
      upstreams: string[];
    }[] = [];
    for (const q of questions) {
      const runs: ProgramRun[] = [];
      for (let i = 0; i < repeat; i++) runs.push(await session.run(q.program));
      const r = runs[0];
      rows.push({
        id: q.id,
        ok: r.result.ok,
        calls: r.calls.length,
        upstream: r.upstreamBytes,
        answer: r.answerBytes,
        ratio: r.ratio,
        ms: median(runs.map((x) => x.wallMs)),
        upstreams: [...new Set(r.calls.map((c) => c.server))].sort(),
      });
    }
    const up = rows.reduce((s, r) => s + r.upstream, 0);
    const ans = rows.reduce((s, r) => s + r.answer, 0);
    const overall = ans > 0 ? up / ans : null;
    const W = Math.max(20, ...rows.map((r) => r.id.length));
    console.log(
      `Observatory fixture: ${session.server.dataset.traces.length} traces, seed "${session.server.dataset.seed}", ` +
        `plus the runbooks MCP server (stdio); ` +
        `wall time = median of ${repeat} runs (tool calls over loopback included)`,
    );
    console.log(
      `${pad("question", W)} ${pad("ok", 3)} ${pad("calls", 5, true)} ${pad("upstream B", 11, true)} ` +
        `${pad("answer B", 9, true)} ${pad("reduction", 10, true)} ${pad("wall ms", 8, true)}  upstreams`,
    );
    for (const r of rows) {
      console.log(
        `${pad(r.id, W)} ${pad(r.ok ? "yes" : "NO", 3)} ${pad(r.calls, 5, true)} ${pad(r.upstream, 11, true)} ` +
          `${pad(r.answer, 9, true)} ${pad(r.ratio === null ? "n/a" : r.ratio.toFixed(1) + "×", 10, true)} ` +
          `${pad(r.ms.toFixed(1), 8, true)}  ${r.upstreams.join("+")}`,
      );
    }
    console.log(
      `${pad("overall", W)} ${pad(rows.every((r) => r.ok) ? "yes" : "NO", 3)} ` +
        `${pad(rows.reduce((s, r) => s + r.calls, 0), 5, true)} ${pad(up, 11, true)} ${pad(ans, 9, true)} ` +
        `${pad(overall === null ? "n/a" : overall.toFixed(1) + "×", 10, true)}`,
    );
    console.log(
      `target: overall reduction ≥ ${TARGET}× — ${overall !== null && overall >= TARGET ? "met" : "NOT met"}; ` +
        `≈ ${Math.ceil(up / 4)} vs ${Math.ceil(ans / 4)} tokens (bytes/4)`,
    );
    const out = new URL("./out/", import.meta.url);
    await Deno.mkdir(out, { recursive: true });
    await Deno.writeTextFile(
      new URL("results.json", out),
      JSON.stringify(
        { seed: session.server.dataset.seed, repeat, rows, overall: { upstream: up, answer: ans, ratio: overall } },
        null,
        2,
      ) +
        "\n",
    );
  } finally {
    await session.close();
  }
}

if (import.meta.main) await run(Deno.args);
