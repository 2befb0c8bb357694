/**
 * Builtins charge the budgets before they allocate, and for work in proportion to the size of what they read: a
 * program whose result or intermediate value would blow past the budget ends with its own reason (`memory_limit`,
 * `step_limit_exceeded`, `arithmetic_error`) instead of exhausting the process; the same shapes at a modest size
 * still answer.
 */
import assert from "node:assert/strict";
import { evaluate } from "./helpers.ts";
import type { EvalLimits } from "../../src/lisp/mod.ts";

const MiB = 1024 * 1024;

function outcome(src: string, limits: EvalLimits = {}): string {
  const r = evaluate(src, { limits });
  return r.ok ? "ok" : r.reason;
}

/** A vector of 1,000 numbers shared 1,000 times: a million items printed, built from 16 KB of slots. */
const SHARED = "(let [a (vec (range 1000)) b (mapv (fn [_] a) (range 1000))] BODY)";

/** A small allocation budget keeps the shared-structure cases quick: they stop after a few MiB of charges. */
const TIGHT: EvalLimits = { maxAllocBytes: 16 * MiB };

type Case = [why: string, program: string, reason: string, limits?: EvalLimits];

const CASES: Case[] = [
  [
    "a regex replacement template repeating the match, in a loop",
    '(let [s (str/join (map (fn [_] "a") (range 30000)))] (loop [i 0 t s] (if (< i 1000) ' +
    '(recur (inc i) (str/replace t #"a+" "$0$0")) (count t))))',
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  [
    "a function replacement growing the text, in a loop",
    '(let [s (str/join (map (fn [_] "ab") (range 10000)))] (loop [i 0 t s] (if (< i 1000) ' +
    '(recur (inc i) (str/replace t #"b" (fn [m] (str m m)))) (count t))))',
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  [
    "reductions over a big range, in a loop",
    "(loop [i 0 n 0] (if (< i 1000) (recur (inc i) (+ n (count (reductions + (range 100000))))) n))",
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  ["combinations charges C(n, k) vectors", "(count (combinations (range 100) 5))", "memory_limit"],
  ["combinations of a big k", "(count (combinations (range 60) 30))", "memory_limit"],
  [
    "a case-mapping loop on a big string",
    '(let [s (str/join (map (fn [_] "abcdefghij") (range 100000)))] (loop [i 0 t s] (if (< i 1000) ' +
    "(recur (inc i) (if (even? i) (upper-case t) (lower-case t))) (count t))))",
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  [
    "a trim loop on a big string",
    '(let [s (str " " (str/join (map (fn [_] "abcdefghij") (range 100000))) " ")] ' +
    "(loop [i 0 t s] (if (< i 1000) (recur (inc i) (str/trim t)) (count t))))",
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  [
    "replace that multiplies the text",
    '(let [s (str/join (map (fn [_] "a") (range 10000))) r (str/join (map (fn [_] "b") (range 10000)))] ' +
    '(count (str/replace s "a" r)))',
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  [
    "regex replace that multiplies the text",
    '(let [s (str/join (map (fn [_] "a") (range 10000))) r (str/join (map (fn [_] "b") (range 10000)))] ' +
    '(count (str/replace s #"a" r)))',
    "memory_limit",
    { maxAllocBytes: 32 * MiB },
  ],
  ["set charges its entries first", "(count (set (range 200000)))", "memory_limit", { maxAllocBytes: 8 * MiB }],
  ["frequencies charges as it grows", "(count (frequencies (range 200000)))", "memory_limit", {
    maxAllocBytes: 8 * MiB,
  }],
  ["group-by charges as it grows", "(count (group-by identity (range 200000)))", "memory_limit", {
    maxAllocBytes: 8 * MiB,
  }],
  ["overlapping partition windows", "(count (partition 1000 1 (range 100000)))", "memory_limit"],
  [
    "mapcat of one shared vector",
    SHARED.replace("BODY", "(count (mapcat (fn [_] a) (range 100000)))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "concat of one shared vector",
    SHARED.replace("BODY", "(count (apply concat (mapv (fn [_] a) (range 100000))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "flatten of shared vectors",
    SHARED.replace("BODY", "(count (flatten (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "pr-str of shared vectors",
    SHARED.replace("BODY", "(count (pr-str (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "str of shared vectors",
    SHARED.replace("BODY", "(count (str (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "join of shared vectors",
    SHARED.replace("BODY", "(count (str/join (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "println of shared vectors",
    SHARED.replace("BODY", "(println (mapv (fn [_] b) (range 100)))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "json of shared vectors",
    SHARED.replace("BODY", "(count (json/generate-string (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  [
    "postwalk of shared vectors",
    SHARED.replace("BODY", "(count (postwalk identity (mapv (fn [_] b) (range 100))))"),
    "memory_limit",
    TIGHT,
  ],
  ["a result that shares structure", SHARED.replace("BODY", "(mapv (fn [_] b) (range 100))"), "memory_limit", TIGHT],
  ["repeated squaring of an integer", "(loop [x 3 i 0] (if (< i 40) (recur (* x x) (inc i)) 1))", "arithmetic_error"],
  ["distinct? over many arguments", "(apply distinct? (range 100000))", "step_limit_exceeded"],
  [
    "count on a non-ASCII string is work in proportion to its length",
    '(let [s (str/join (map (fn [_] "ééééééééé") (range 5000)))] (loop [i 0] (if (< i 200) (do (count s) ' +
    "(recur (inc i))) i)))",
    "step_limit_exceeded",
    { maxSteps: 100_000 },
  ],
];

for (const [why, program, reason, limits] of CASES) {
  Deno.test(`builtin charges: ${why} → ${reason}`, () => {
    assert.equal(outcome(program, limits), reason, program);
  });
}

Deno.test("builtin charges: the same shapes at a modest size still answer", () => {
  const ok: [string, string][] = [
    ["(count (combinations (range 20) 3))", "1140"],
    ['(count (upper-case (str/join (map (fn [_] "abc") (range 1000)))))', "3000"],
    ['(str/replace "a-b-c" "-" "+")', '"a+b+c"'],
    ['(str/replace "a-b-c" #"-" "+")', '"a+b+c"'],
    ["(count (frequencies (range 1000)))", "1000"],
    ["(count (group-by even? (range 1000)))", "2"],
    ["(count (partition 10 1 (range 100)))", "91"],
    ["(count (flatten [[1 [2 3]] [4] 5]))", "5"],
    ["(count (pr-str (vec (range 1000))))", "3891"],
    ["(* 123456789012345678901234567890 98765432109876543210)", "12193263113702179522496570642237463801111263526900"],
    ['(let [s (str/join (map (fn [_] "ééééééééé") (range 100)))] (count s))', "900"],
  ];
  for (const [src, want] of ok) {
    const r = evaluate(src);
    assert.ok(r.ok, `${src}: ${r.ok ? "" : r.message}`);
    assert.equal(r.printed, want, src);
  }
});
