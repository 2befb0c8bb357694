/**
 * Clojure names PTC-Lisp leaves out on purpose, with what to write instead. An LLM writing Clojure reaches for these
 * first; a plain "Undefined variable" would cost it a turn of guessing.
 * @module
 */

const NO_STATE = "no mutable state: thread values through let, loop/recur or reduce";
const NO_LAZY = "no lazy or infinite sequences: use range, loop/recur or reduce";
const NO_EXCEPTIONS = "no exceptions: tool calls return {:ok false …} as data; stop with (fail v)";
const NO_RANDOM = "programs are deterministic: there are no random numbers";
const NO_IO = "no I/O: data arrives through tool/call and data/…";

/** Name → what to use instead. */
const GAPS: Record<string, string> = {
  "dotimes": "use (doseq [i (range n)] …)",
  "prn": "use (println (pr-str x))",
  "print": "use println",
  "printf": "use (println (format …))",
  "atom": NO_STATE,
  "swap!": NO_STATE,
  "reset!": NO_STATE,
  "deref": NO_STATE,
  "volatile!": NO_STATE,
  "iterate": NO_LAZY,
  "repeatedly": NO_LAZY,
  "cycle": NO_LAZY,
  "lazy-seq": NO_LAZY,
  "doall": "everything is eager already: drop doall",
  "dorun": "everything is eager already: use doseq",
  "transduce": "no transducers: use ->> with map/filter/reduce",
  "sequence": "no transducers or lazy seqs: use vec or ->>",
  "try": NO_EXCEPTIONS,
  "catch": NO_EXCEPTIONS,
  "throw": NO_EXCEPTIONS,
  "ex-info": NO_EXCEPTIONS,
  "rand": NO_RANDOM,
  "rand-int": NO_RANDOM,
  "rand-nth": NO_RANDOM,
  "shuffle": NO_RANDOM,
  "slurp": NO_IO,
  "spit": NO_IO,
  "eval": "no eval: programs are analysed once, before they run",
  "read-string": "no reader at run time: use json/parse-string or parse-long",
  "defmacro": "no macros: use functions",
  "identical?": "values have no identity to compare: use =",
  "list?": "there is no list type ('(1 2) and (list 1 2) are vectors): use sequential? or vector?",
  "seq?": "there are no seqs or lists (sequence functions return vectors): use sequential? or vector?",
};

/** What to write instead of a Clojure name PTC-Lisp omits, or undefined. */
export function clojureAlternative(name: string): string | undefined {
  return Object.hasOwn(GAPS, name) ? GAPS[name] : undefined;
}

/** `dotimes (not in PTC-Lisp: …)`; names sharing one explanation are listed together. */
export function describeGaps(names: string[]): string {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const why = clojureAlternative(n) ?? "";
    groups.set(why, [...(groups.get(why) ?? []), n]);
  }
  return [...groups].map(([why, ns]) => `${ns.join(", ")} (not in PTC-Lisp: ${why})`).join("; ");
}

/** Sequence functions whose collection-less call is a transducer in Clojure, by the argument count of that call. */
const TRANSDUCERS: Record<string, number> = {
  "map": 1,
  "filter": 1,
  "remove": 1,
  "keep": 1,
  "keep-indexed": 1,
  "map-indexed": 1,
  "mapcat": 1,
  "take": 1,
  "drop": 1,
  "take-while": 1,
  "drop-while": 1,
  "partition-all": 1,
  "partition-by": 1,
  "interpose": 1,
  "distinct": 0,
  "dedupe": 0,
};

/**
 * The hint for calling `name` with `n` arguments when that call is a Clojure transducer (`(filter odd?)`), else "".
 */
export function transducerHint(name: string, n: number): string {
  if (!Object.hasOwn(TRANSDUCERS, name) || TRANSDUCERS[name] !== n) return "";
  return `. (${name}${n === 0 ? "" : " f"}) without a collection is a Clojure transducer; PTC-Lisp has none: ` +
    "pass the collection, e.g. (->> xs (filter odd?) (map inc)) for (into [] (comp (filter odd?) (map inc)) xs)";
}
