/**
 * The demo's write question, run and reported: the program runs twice with writes enabled for it alone
 * (`DemoSession.runWithWrites`), the report lists each write call with its `:mutation_state`, and the fixture's write
 * log shows what the service received — one annotation applied, the re-run answered from its Idempotency-Key.
 * @module
 */
import type { DemoQuestion } from "./demo_questions.ts";
import type { DemoSession, ProgramRun } from "./demo_session.ts";

/** One write call of a run. */
export interface DemoWrite {
  tool: string;
  mutation_state: string;
  status: string;
  reason?: string;
}

/** What the write question did, for the text report and `--json`. */
export interface DemoWriteReport {
  /** The two runs (absent when the write-enabled engine could not start: `error` says why). */
  first?: ProgramRun;
  rerun?: ProgramRun;
  error?: string;
  /** Both runs answered, every write applied, and the re-run returned the same annotation. */
  ok: boolean;
  /** The `write` entry of `ptc demo --json`. */
  json: Record<string, unknown>;
}

function writesOf(r: ProgramRun): DemoWrite[] {
  return r.calls.filter((c) => c.mutation_state !== undefined).map((c) => ({
    tool: `${c.server}/${c.tool}`,
    mutation_state: c.mutation_state!,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
  }));
}

function answerOf(r: ProgramRun): Record<string, unknown> | undefined {
  return r.result.ok ? (r.result.json as Record<string, unknown>) : undefined;
}

/** Run the write question twice (the second time must change nothing) and collect the evidence. */
export async function runWriteQuestion(session: DemoSession, q: DemoQuestion): Promise<DemoWriteReport> {
  let first: ProgramRun;
  let rerun: ProgramRun;
  try {
    first = await session.runWithWrites(q.program);
    rerun = await session.runWithWrites(q.program);
  } catch (e) {
    const error = `the write-enabled engine could not start: ${e instanceof Error ? e.message : String(e)}`;
    return { ok: false, error, json: { id: q.id, question: q.question, ok: false, error } };
  }
  const writes = [writesOf(first), writesOf(rerun)];
  const a = answerOf(first);
  const b = answerOf(rerun);
  const received = session.server.writes();
  const ok = a !== undefined && b !== undefined && writes.every((w) => w.length > 0) &&
    writes.flat().every((w) => w.mutation_state === "applied") && a.annotation === b.annotation;
  return {
    first,
    rerun,
    ok,
    json: {
      id: q.id,
      question: q.question,
      ok,
      answer: a ?? null,
      writes: writes[0],
      rerun: { answer: b ?? null, writes: writes[1] },
      fixture_received: received.map((w) => ({
        method: w.method,
        path: w.path,
        idempotency_key: w.idempotency_key,
        applied: w.applied,
        status: w.status,
      })),
    },
  };
}

/** The text report's lines after the write question's answer. */
export function printWriteRun(report: DemoWriteReport): void {
  if (!report.first || !report.rerun) {
    console.log(`  error: ${String(report.error).replaceAll("\n", "\n    ")}`);
    return;
  }
  console.log("  writes enabled for this question only: allow_writes in its config copy + the process switch");
  for (const w of writesOf(report.first)) {
    console.log(`  write: ${w.tool} → :mutation_state :${w.mutation_state}${w.reason ? ` (${w.reason})` : ""}`);
  }
  const again = answerOf(report.rerun);
  const rerunWrites = writesOf(report.rerun).map((w) => `:${w.mutation_state}`).join(", ");
  console.log(
    `  re-run, same Idempotency-Key: annotation ${again?.annotation ?? "none"} (${rerunWrites || "no write"}), ` +
      `${again?.annotations_on_trace ?? "?"} annotation(s) on the trace`,
  );
  const received = report.json.fixture_received as { applied: boolean; status: number | null }[];
  const applied = received.filter((w) => w.applied).length;
  const replayed = received.filter((w) => !w.applied && w.status !== null && w.status < 300).length;
  const refused = received.length - applied - replayed;
  console.log(
    `  the fixture received ${received.length} write request(s): ${applied} applied, ${replayed} answered from ` +
      `the Idempotency-Key without a change${refused ? `, ${refused} refused or unanswered` : ""}`,
  );
}
