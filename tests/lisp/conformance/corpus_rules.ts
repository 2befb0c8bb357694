/**
 * The documented rules under which PTC may refuse where JVM Clojure answers, or answer where it raises, in the wide
 * corpus (data/corpus.json). Each rule names the docs/language.md §9 deviation it implements. A form that is not
 * `same` and no rule covers fails corpus_test.ts; a `silent` difference is never covered.
 * @module
 */
import type { Compared } from "./jvm_compare.ts";

/** One documented deviation rule. */
export interface CorpusRule {
  name: string;
  /** Which outcome it allows. */
  outcome: "refusal" | "lenient";
  /** True when the rule covers this compared form. */
  covers(c: Compared): boolean;
}

/** Every rule, most specific first. */
export const CORPUS_RULES: CorpusRule[] = [];

/** The first rule covering a non-`same`, non-`silent` form, if any. */
export function ruleFor(c: Compared): CorpusRule | undefined {
  if (c.outcome === "same" || c.outcome === "silent") return undefined;
  return CORPUS_RULES.find((r) => r.outcome === c.outcome && r.covers(c));
}
