/**
 * Runs the conformance table against PTC and reports mismatches (shared by conformance_test.ts).
 * @module
 */
import { createSession } from "../../../src/lisp/mod.ts";
import type { EvalResult } from "../../../src/lisp/api.ts";
import { loadPrograms, type Program, type RecordedAnswer } from "./programs.ts";
import { DEVIATIONS } from "./deviations.ts";
import { printedEqual } from "./normalize.ts";

/** Loads the answers recorded from JVM Clojure. */
export function loadExpected(): Record<string, RecordedAnswer> {
  return JSON.parse(Deno.readTextFileSync(new URL("./data/expected.json", import.meta.url)));
}

/** Small budgets: every table program is tiny, so a runaway one fails fast instead of hanging the suite. */
const LIMITS = { maxSteps: 5_000_000, maxCallDepth: 2_000 };

/** Evaluates one program in a fresh session; an exception escaping the evaluator is reported as a failure. */
export function runPtc(src: string): EvalResult | { ok: false; reason: "host_exception"; message: string; prints: [] } {
  try {
    return createSession().eval(src, { limits: { ...LIMITS, deadline: Date.now() + 5_000 } });
  } catch (e) {
    return { ok: false, reason: "host_exception", message: String(e), prints: [] };
  }
}

function describe(r: ReturnType<typeof runPtc>): string {
  return r.ok ? r.printed : `ERROR ${r.reason}: ${r.message}`;
}

/** Checks one program; returns a failure description or null. */
export function checkProgram(p: Program, nbb: RecordedAnswer | undefined): string | null {
  const fail = (expected: string, actual: string) =>
    `${p.id}: ${p.src}\n    expected: ${expected}\n    actual:   ${actual}`;
  const dev = DEVIATIONS[p.id];
  const r = runPtc(p.src);
  if (dev) {
    if (dev.src !== p.src) return fail(`deviation entry for source ${dev.src}`, "program text changed (renumbered?)");
    if (typeof dev.expect === "string") {
      return r.ok && r.printed === dev.expect ? null : fail(`${dev.expect}   (deviation: ${dev.why})`, describe(r));
    }
    return !r.ok && r.reason === dev.expect.error
      ? null
      : fail(`ERROR ${dev.expect.error}   (deviation: ${dev.why})`, describe(r));
  }
  if (!nbb) return fail("an nbb answer", "none recorded: run scripts/conformance/record.ts");
  if (nbb.src !== p.src) {
    return fail(`nbb answer for ${nbb.src}`, "stale expected.json: run scripts/conformance/record.ts");
  }
  if (!nbb.ok) return r.ok ? fail(`an error (nbb: ${nbb.error})`, describe(r)) : null;
  if (!r.ok || !printedEqual(r.printed, nbb.printed)) return fail(nbb.printed, describe(r));
  const want = (nbb.prints ?? []).join("\n"), got = r.prints.join("\n");
  if ((nbb.prints || r.prints.length > 0) && want !== got) {
    return fail(`prints ${JSON.stringify(nbb.prints ?? [])}`, `prints ${JSON.stringify(r.prints)}`);
  }
  return null;
}

/** The table grouped by area, in file order. */
export function programsByArea(): Map<string, Program[]> {
  const byArea = new Map<string, Program[]>();
  for (const p of loadPrograms()) byArea.set(p.area, [...(byArea.get(p.area) ?? []), p]);
  return byArea;
}
