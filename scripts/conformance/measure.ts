/**
 * Measures PTC against the recorded JVM answers of the corpus (tests/lisp/conformance/data/corpus.json): counts per
 * outcome (same / silent / refusal / lenient) and, with `--list FILE`, writes every non-`same` form to FILE.
 *
 * Run: `deno run --allow-read --allow-write scripts/conformance/measure.ts [--list /tmp/corpus.txt]`
 * @module
 */
import type { RecordedAnswer } from "../../tests/lisp/conformance/programs.ts";
import { type Compared, compareWithJvm, type Outcome } from "../../tests/lisp/conformance/jvm_compare.ts";
import { ruleFor } from "../../tests/lisp/conformance/corpus_rules.ts";

const corpus: RecordedAnswer[] = JSON.parse(
  Deno.readTextFileSync(new URL("../../tests/lisp/conformance/data/corpus.json", import.meta.url)),
);
const counts: Record<Outcome, number> = { same: 0, silent: 0, refusal: 0, lenient: 0 };
const documented: Record<Outcome, number> = { same: 0, silent: 0, refusal: 0, lenient: 0 };
const lines: string[] = [];
for (const a of corpus) {
  const c: Compared = compareWithJvm(a);
  counts[c.outcome]++;
  if (c.outcome === "same") continue;
  const rule = ruleFor(c);
  if (rule) documented[c.outcome]++;
  lines.push(`${c.outcome}${rule ? ` [${rule.name}]` : ""}\t${c.src}\n    jvm: ${c.jvm}\n    ptc: ${c.ptc}`);
}
const pct = (n: number) => `${(100 * n / corpus.length).toFixed(1)}%`;
console.log(`${corpus.length} forms: ${Object.entries(counts).map(([k, n]) => `${k} ${n} (${pct(n)})`).join(", ")}`);
for (const k of ["silent", "refusal", "lenient"] as const) {
  console.log(`  ${k}: ${documented[k]} covered by a documented rule, ${counts[k] - documented[k]} not`);
}
const i = Deno.args.indexOf("--list");
if (i >= 0) Deno.writeTextFileSync(Deno.args[i + 1], lines.join("\n") + "\n");
