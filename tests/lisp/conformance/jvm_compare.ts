/**
 * How one PTC answer compares with JVM Clojure's recorded answer (the corpus rule of issue 23):
 * - `same`: both answered and the printed values agree (normalize.ts with strict number kinds: `2` ≠ `2.0`), with the
 *   same println lines; or both raised;
 * - `silent`: both answered, differently (the outcome that must not exist);
 * - `refusal`: Clojure answered, PTC raised (allowed only when a documented rule of corpus_rules.ts covers it);
 * - `lenient`: Clojure raised (or never finished), PTC answered (allowed only when documented).
 * @module
 */
import type { RecordedAnswer } from "./programs.ts";
import { printedEqual } from "./normalize.ts";
import { runPtc } from "./table.ts";

/** The outcome classes, in report order. */
export type Outcome = "same" | "silent" | "refusal" | "lenient";

/** One compared form. */
export interface Compared {
  src: string;
  outcome: Outcome;
  jvm: string;
  ptc: string;
  /** PTC's error reason when it raised. */
  reason?: string;
}

/** Runs `a.src` in PTC and classifies the outcome against the recorded JVM answer. */
export function compareWithJvm(a: RecordedAnswer): Compared {
  const r = runPtc(a.src);
  const jvm = a.ok ? a.printed : `ERROR ${a.error}`;
  const ptc = r.ok ? r.printed : `ERROR ${r.reason}: ${r.message}`;
  const base = { src: a.src, jvm, ptc, ...(r.ok ? {} : { reason: r.reason }) };
  if (!a.ok) return { ...base, outcome: r.ok ? "lenient" : "same" };
  if (!r.ok) return { ...base, outcome: "refusal" };
  const printsAgree = (a.prints ?? []).join("\n") === r.prints.join("\n");
  const equal = r.printed === a.printed || printedEqual(r.printed, a.printed, true);
  return { ...base, outcome: equal && printsAgree ? "same" : "silent" };
}
