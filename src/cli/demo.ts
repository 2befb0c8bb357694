/**
 * `ptc demo [--keep] [--seed S] [--traces N] [--port N] [--json]`: start the Observatory fixture with a fresh token,
 * run ptc against it through `upstreams.example.jsonc` (which also starts the runbooks MCP server over stdio), answer
 * the demo questions with PTC-Lisp programs and print each program, its compact answer and the payload reduction
 * measured from the run's call records. The last question writes (a trace annotation), with writes enabled for it
 * alone; the demo prints each write's mutation state and re-runs it to show the Idempotency-Key at work.
 * @module
 */
import { intFlag, parseFlags, UsageError, usageError } from "./usage.ts";
import { untilStopSignal } from "./signals.ts";
import type { DemoQuestion } from "./demo_questions.ts";
import type { DemoSession, ProgramRun } from "./demo_session.ts";
import { type DemoWriteReport, printWriteRun, runWriteQuestion } from "./demo_write_run.ts";

const USAGE = `Usage: ptc demo [options]

Start the local Observatory fixture (LLM traces, steps and costs) with a fresh token, point ptc at it through
upstreams.example.jsonc (which also starts the runbooks MCP server, @modelcontextprotocol/server-filesystem, with
node), and answer agent questions with PTC-Lisp programs, showing how much smaller each answer is than what the
upstreams returned. Needs no network and no credentials of yours; needs node and "npm ci" for the runbooks.

Options:
  --keep         leave the fixture running afterwards and print the ptc repl / ptc mcp commands to try next
  --seed S       data seed (default "observatory")
  --traces N     number of traces (default 4000)
  --port N       fixture port (default: any free port)
  --json         print one JSON object with every measurement instead of the text report
  -h, --help     show this help`;

const nf = new Intl.NumberFormat("en-US");

/** Pick the log-line trace: the newest failed globex trace with at least 5 steps (deterministic per seed). */
function logLineTrace(session: DemoSession): string {
  const t =
    session.server.dataset.traces.find((x) => x.org_id === "globex" && x.status === "error" && x.step_count >= 5) ??
      session.server.dataset.traces.find((x) => x.status === "error") ?? session.server.dataset.traces[0];
  return t.external_trace_id;
}

function indent(text: string, prefix = "    "): string {
  return text.trim().split("\n").map((l) => prefix + l).join("\n");
}

function ratioText(r: ProgramRun): string {
  return r.ratio === null ? "n/a" : `${r.ratio >= 100 ? Math.round(r.ratio) : r.ratio.toFixed(1)}×`;
}

function answerText(r: ProgramRun): string {
  if (!r.result.ok) return `error (${r.result.reason}): ${r.result.message}`;
  const json = JSON.stringify(r.result.json);
  return json.length <= 1200 ? json : json.slice(0, 1200) + " …";
}

/** "3 call(s)", or "3 call(s): observatory 1, runbooks 2" when the program used more than one upstream. */
export function callsText(r: ProgramRun): string {
  const per = new Map<string, number>();
  for (const c of r.calls) per.set(c.server, (per.get(c.server) ?? 0) + 1);
  const split = per.size > 1 ? ` (${[...per].map(([server, n]) => `${server} ${n}`).join(", ")})` : "";
  return `${r.calls.length} call(s)${split}`;
}

function printRun(i: number, total: number, q: DemoQuestion, r: ProgramRun): void {
  const failed = r.calls.filter((c) => c.status !== "ok");
  console.log(`\n━━ ${i}/${total}  ${q.question}`);
  console.log(`  program:\n${indent(q.program)}`);
  console.log(`  answer:\n${indent(answerText(r))}`);
  const tagged = failed.length
    ? `; ${failed.length} call(s) came back tagged: ${[...new Set(failed.map((c) => c.reason))].join(", ")}`
    : "";
  console.log(
    `  upstream returned ${nf.format(r.upstreamBytes)} B in ${callsText(r)}${tagged} → ` +
      `answer ${nf.format(r.answerBytes)} B: ${ratioText(r)} smaller  (${Math.round(r.wallMs)} ms)`,
  );
}

/** Sum of a measurement list: overall reduction = all upstream bytes / all answer bytes. */
export function overall(runs: ProgramRun[]): { upstreamBytes: number; answerBytes: number; ratio: number | null } {
  const upstreamBytes = runs.reduce((s, r) => s + r.upstreamBytes, 0);
  const answerBytes = runs.reduce((s, r) => s + r.answerBytes, 0);
  return { upstreamBytes, answerBytes, ratio: answerBytes > 0 ? upstreamBytes / answerBytes : null };
}

/** The flags of `ptc demo` (also read by `ptc permissions demo`). */
export const DEMO_OPTIONS = {
  keep: { type: "boolean" },
  seed: { type: "string" },
  traces: { type: "string" },
  port: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc demo`. */
export async function run(args: string[]): Promise<number> {
  let flags;
  let port: number | undefined;
  let traces: number | undefined;
  try {
    flags = parseFlags(args, DEMO_OPTIONS, false);
    port = intFlag("port", flags.values.port, 0, 65535);
    traces = intFlag("traces", flags.values.traces, 100, 200_000);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "demo");
    throw e;
  }
  if (flags.values.help) {
    console.log(USAGE);
    return 0;
  }
  const json = flags.values.json === true;
  const { startDemoSession } = await import("./demo_session.ts");
  const { demoQuestions, demoWriteQuestion } = await import("./demo_questions.ts");
  let session: DemoSession;
  try {
    session = await startDemoSession({ seed: flags.values.seed, traces, port });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    console.error(`ptc demo: could not start: ${msg}`);
    return 1;
  }
  let keep = false;
  try {
    const questions = demoQuestions({ externalTraceId: logLineTrace(session) });
    if (!json) {
      console.log(
        `Observatory fixture on ${session.server.url} (${nf.format(session.server.dataset.traces.length)} ` +
          `traces, seed "${session.server.dataset.seed}"), fresh token in ${session.tokens.tokenFile}`,
      );
      const servers = session.engine.catalog().map((c) => `${c.name} (${c.tools.length} tools)`).join(" + ");
      console.log(`ptc config: ${session.configPath} (upstreams.example.jsonc with the real address): ${servers}`);
    }
    const runs: ProgramRun[] = [];
    const total = questions.length + 1;
    for (const [i, q] of questions.entries()) {
      const r = await session.run(q.program);
      runs.push(r);
      if (!json) printRun(i + 1, total, q, r);
    }
    const writeQuestion = demoWriteQuestion();
    const write: DemoWriteReport = await runWriteQuestion(session, writeQuestion);
    if (!json) {
      if (write.first) printRun(total, total, writeQuestion, write.first);
      else console.log(`\n━━ ${total}/${total}  ${writeQuestion.question}`);
      printWriteRun(write);
    }
    // The payload reduction is about the reads; the write question is about the write.
    const sum = overall(runs);
    const failures = runs.filter((r) => !r.result.ok).length + (write.ok ? 0 : 1);
    if (json) {
      console.log(JSON.stringify({
        fixture: session.server.url,
        questions: questions.map((q, i) => ({
          id: q.id,
          question: q.question,
          ok: runs[i].result.ok,
          answer: runs[i].result.ok ? (runs[i].result as { json: unknown }).json : null,
          calls: runs[i].calls.length,
          upstreams: [...new Set(runs[i].calls.map((c) => c.server))],
          upstream_bytes: runs[i].upstreamBytes,
          answer_bytes: runs[i].answerBytes,
          ratio: runs[i].ratio,
        })),
        write: write.json,
        overall: { upstream_bytes: sum.upstreamBytes, answer_bytes: sum.answerBytes, ratio: sum.ratio },
      }));
    } else {
      console.log(
        `\n━━ overall: the upstreams returned ${nf.format(sum.upstreamBytes)} B; the programs handed back ` +
          `${nf.format(sum.answerBytes)} B — ${
            sum.ratio === null ? "n/a" : Math.round(sum.ratio) + "×"
          } less for the ` +
          `model to read.${failures ? ` ${failures} program(s) failed.` : ""}`,
      );
    }
    keep = flags.values.keep === true;
    if (keep) {
      await session.close({ keepFixture: true });
      const cfg = session.configPath;
      console.log(`\nThe fixture keeps running on ${session.server.url} (Ctrl-C to stop). Try next:`);
      console.log(`  deno task ptc repl --upstreams-config ${cfg}`);
      console.log(`  deno task ptc mcp --upstreams-config ${cfg}          # an MCP server over stdio`);
      console.log(
        `  deno task ptc eval --upstreams-config ${cfg} '(tool/call (quote observatory/list-errors) {:org_id "globex" :limit 3})'`,
      );
      console.log(
        `  deno task ptc eval --upstreams-config ${cfg} '(tool/call (quote runbooks/read-text-file) {:path "timeout.md"})'`,
      );
      if (write.first) {
        console.log(
          `  deno task ptc repl --upstreams-config ${session.dir}/upstreams-writes.jsonc --allow-writes   # writes on`,
        );
      }
      await untilStopSignal();
      await session.server.stop();
      await Deno.remove(session.dir, { recursive: true }).catch(() => {});
      console.log("Observatory stopped.");
    }
    return failures ? 1 : 0;
  } finally {
    if (!keep) await session.close();
  }
}
