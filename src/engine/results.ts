/**
 * From what the sandbox returned and the run's records to the engine's result: the value or failure, the prints,
 * the call records and one line per budget that refused something.
 * @module
 */
import type { SandboxResult } from "../sandbox/mod.ts";
import type { CallRecord, CatalogOpRecord } from "../upstream/run_context.ts";
import type { EngineEvalResult } from "./types.ts";

/** One line per budget that refused a call or discovery operation of the run (empty when none did). */
export function budgetRefusals(calls: CallRecord[], catalogOps: CatalogOpRecord[]): string[] {
  const out: string[] = [];
  const refused = calls.filter((c) => c.reason === "cap_exhausted");
  if (refused.length) {
    out.push(`${refused.length} tool call(s) refused: ${refused[0].message ?? "tool call budget exhausted"}`);
  }
  const ops = catalogOps.filter((o) => o.reason === "catalog_cap_exhausted");
  if (ops.length) out.push(`${ops.length} discovery operation(s) refused: discovery budget exhausted`);
  return out;
}

/** The engine result of one evaluation. */
export function toEngineResult(
  r: SandboxResult,
  calls: CallRecord[],
  elapsedMs: number,
  catalogOps: CatalogOpRecord[] = [],
): EngineEvalResult {
  const refusals = budgetRefusals(calls, catalogOps);
  const common = {
    prints: r.prints,
    calls,
    elapsedMs,
    evalMs: r.elapsedMs,
    ...(refusals.length ? { budgetRefusals: refusals } : {}),
    ...(catalogOps.length ? { discoveryOps: catalogOps.length } : {}),
  };
  if (r.ok) {
    const out: EngineEvalResult = { ok: true, status: r.status, printed: r.printed, json: r.json, ...common };
    if (r.outputCheck) out.outputCheck = r.outputCheck;
    return out;
  }
  const failure: EngineEvalResult = { ok: false, reason: r.reason, message: r.message, ...common };
  if (r.line !== undefined) failure.line = r.line;
  if (r.column !== undefined) failure.column = r.column;
  return failure;
}

/**
 * How a face shows a successful answer as text: a string that spans lines (a `(doc …)` text, a report the program
 * built) as the text it is, anything else as printed (`"one line"` keeps its quotes). The value itself is unchanged
 * wherever a face returns it as data.
 */
export function answerText(printed: string, json: unknown): string {
  return typeof json === "string" && json.includes("\n") ? json : printed;
}
