/**
 * Malformed and hostile programs through the pool: each ends with its own reason and a readable message (no stack
 * trace), and the same worker serves the next program afterwards.
 */
import assert from "node:assert/strict";
import { SandboxPool } from "../../src/sandbox/pool.ts";
import type { SandboxLimits } from "../../src/sandbox/limits.ts";

type Case = [program: string, reason: string, limits?: Partial<SandboxLimits>];

const small = { maxSteps: 200_000 };
const tight = { maxAllocBytes: 32 * 1024 * 1024 };

const CASES: Case[] = [
  // unbalanced or malformed input
  ["(+ 1 2", "parse_error"],
  ["(((", "parse_error"],
  ['"unterminated', "parse_error"],
  ["[1 2 3", "parse_error"],
  ["{:a 1", "parse_error"],
  ["{:a}", "parse_error"],
  ["(+ 1 2]", "parse_error"],
  ["(quote 1 2)", "invalid_arity"],
  ["9".repeat(200), "parse_error"],
  ["(".repeat(100_000) + ")".repeat(100_000), "parse_error"],
  ["[".repeat(5_000) + "]".repeat(5_000), "parse_error"],
  // literals and special-form shapes
  ["#{1 1}", "duplicate_key"],
  ["{:a 1 :a 2}", "duplicate_key"],
  ["(let [x] x)", "invalid_form"],
  ["(let [x 1 y] x)", "invalid_form"],
  ["(loop [x] x)", "invalid_form"],
  ["(fn)", "invalid_arity"],
  ["(if)", "invalid_arity"],
  ["(recur 1)", "invalid_form"],
  ["(do (recur 1))", "invalid_form"],
  ["(def)", "invalid_form"],
  ["(def a/b 1)", "invalid_form"],
  ["(fail)", "invalid_arity"],
  ["(return 1 2)", "invalid_arity"],
  ["(cond 1)", "invalid_cond_form"],
  ["(case)", "invalid_arity"],
  ["(->)", "invalid_thread_form"],
  ["#(#(%))", "invalid_form"],
  ["(for [x] x)", "invalid_form"],
  ["(doseq [x [1] y] x)", "invalid_form"],
  ['#"("', "invalid_form"],
  ['(. "abc" toUpperCase)', "invalid_form"],
  // unknown names and escapes from the language
  ["(undefined-fn 1)", "unbound_var"],
  ['(slurp "/etc/passwd")', "unbound_var"],
  ['(throw "x")', "unbound_var"],
  ["(foo/bar 1)", "invalid_form"],
  ['(clojure.string/nope "a")', "invalid_form"],
  ["(java.lang.System/exit 0)", "invalid_form"],
  ['(js/eval "1")', "invalid_form"],
  ["(tool/nope {})", "unknown_tool"],
  ['(.nope "abc")', "unsupported_method"],
  // calling what is not a function, arity
  ["(1 2 3)", "not_callable"],
  ['("str" 1)', "not_callable"],
  ["(nil 1)", "not_callable"],
  ["(->> 1 (2))", "not_callable"],
  ["((fn [x] x))", "arity_error"],
  ["((fn [x] x) 1 2)", "arity_error"],
  ["(inc)", "arity_error"],
  ["(inc 1 2)", "arity_error"],
  ["(max)", "arity_error"],
  ["(assoc {} :a)", "arity_error"],
  ["(:a)", "invalid_keyword_call"],
  ["(:a {} 1 2)", "invalid_keyword_call"],
  // types and arithmetic
  ['(inc "a")', "type_error"],
  ['(+ 1 "a")', "type_error"],
  ["(count 5)", "type_error"],
  ["(first 1)", "type_error"],
  ["(merge 1 2)", "type_error"],
  ["(sort-by :a 5)", "type_error"],
  ['(range "a")', "type_error"],
  ["(assoc [] 5 1)", "type_error"],
  ["(/ 1 0)", "arithmetic_error"],
  ["(mod 1 0)", "arithmetic_error"],
  ["(let [[a b] 1] a)", "destructure_error"],
  ["(let [{:keys [a]} 5] a)", "destructure_error"],
  ["(pmap (fn [x] (/ 1 x)) [1 0])", "pmap_error"],
  ["(pmap (fn [x] (return x)) [1])", "pmap_error"],
  // runaway programs
  ["(defn f [] (f)) (f)", "stack_overflow"],
  ["(defn f [n] (+ 1 (f n))) (f 1)", "stack_overflow"],
  ["(loop [] (recur))", "step_limit_exceeded", small],
  ["(loop [i 0] (recur (inc i)))", "step_limit_exceeded", small],
  ["(loop [i 0 acc 0] (if (< i 10000000) (recur (inc i) (+ acc i)) acc))", "step_limit_exceeded", small],
  ["(loop [] (recur))", "timeout", { timeoutMs: 50, maxSteps: 1e12 }],
  ["(loop [v [1]] (recur (into v v)))", "memory_limit", tight],
  ['(loop [s "ab"] (recur (str s s)))', "memory_limit", tight],
  ["(reduce (fn [acc _] (into acc acc)) [1] (range 100))", "memory_limit", tight],
  ["(vec (range 100000000))", "memory_limit", tight],
  ["(count (range 1000000000000))", "memory_limit", tight],
  ['(loop [m {} i 0] (recur (assoc m (str "k" i) (vec (range 100))) (inc i)))', "memory_limit", tight],
  ['(loop [i 0] (println "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx") (recur (inc i)))', "print_limit_exceeded"],
  // host-side limits
  [`"${"x".repeat(2_000_000)}"`, "program_too_large"],
  ["(vec (range 200000))", "result_too_large", { maxResultChars: 100_000 }],
];

Deno.test(`hostile programs: ${CASES.length} cases each end with their reason; the worker keeps serving`, async () => {
  assert.ok(CASES.length >= 60);
  const pool = new SandboxPool({ size: 1 });
  const failures: string[] = [];
  try {
    for (const [program, reason, limits] of CASES) {
      const label = program.length > 60 ? `${program.slice(0, 57)}...` : program;
      const r = await pool.evaluate(program, { limits });
      if (r.ok) {
        failures.push(`${label}: expected ${reason}, got success ${r.printed.slice(0, 60)}`);
      } else {
        if (r.reason !== reason) failures.push(`${label}: expected ${reason}, got ${r.reason}: ${r.message}`);
        if (r.message.length === 0 || /\n\s+at /.test(r.message)) {
          failures.push(`${label}: unreadable message ${r.message}`);
        }
      }
      const next = await pool.evaluate("(+ 1 1)");
      if (!next.ok || next.printed !== "2") failures.push(`${label}: the pool did not serve the next program`);
    }
    assert.equal(pool.stats().replaced, 0, "no worker had to be abandoned");
  } finally {
    await pool.close();
  }
  assert.deepEqual(failures, []);
});
