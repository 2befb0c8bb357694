/**
 * Malformed and hostile programs: each must end with its specific reason and a readable message, and the next
 * evaluation must work normally.
 */
import assert from "node:assert/strict";
import { assertReadable, evaluate } from "./helpers.ts";
import type { EvalLimits } from "../../src/lisp/api.ts";

type Case = [src: string, reason: string, part?: string, limits?: EvalLimits];

const SMALL: EvalLimits = { maxSteps: 200_000, maxAllocBytes: 16 * 1024 * 1024 };

const CASES: Case[] = [
  // reader
  ["(+ 1 2", "parse_error", "unclosed"],
  ["(let [x 1]\n  (+ x", "parse_error", "line 2"],
  ["[1 2 3", "parse_error", "unclosed"],
  ["{:a 1", "parse_error", "unclosed"],
  ["(+ 1 ]", "parse_error", "Mismatched"],
  ['"never closed', "parse_error", "Unterminated string"],
  ["{:a}", "parse_error", "even number"],
  ["@atom", "parse_error", "Deref"],
  ["#_ (ignored) 1", "parse_error", "discard"],
  ["1/3", "parse_error", "Ratio literals are not supported"],
  ["^{:m 1} x", "parse_error", "metadata"],
  ["`(a ~b)", "parse_error", "syntax-quote"],
  ['#inst "2020-01-01"', "parse_error", "tagged"],
  [":", "parse_error", "keyword"],
  [":a/b", "parse_error", "Namespaced"],
  ["(" + "[".repeat(400) + "]".repeat(400) + ")", "parse_error", "Nesting too deep"],
  ["9".repeat(150), "parse_error", "Integer literal too long"],
  ["(str " + '"x" '.repeat(10) + ")" + " ".repeat(2_000_000), "program_too_large", "bytes"],
  ["~", "parse_error", "unquote"],
  ["{" + Array.from({ length: 12_000 }, (_, i) => `:k${i} ${i}`).join(" ") + "}", "symbol_limit_exceeded", "10000"],
  ["##Infinity", "parse_error", "##Inf"],
  // analysis
  ["()", "invalid_form", "Empty list"],
  ["(if)", "invalid_arity", "if expects"],
  ["(let [x] x)", "invalid_form", "even number"],
  ["(let [1 2] 3)", "invalid_form", "not a valid binding pattern"],
  ["(fn x)", "invalid_arity", "parameter vector"],
  ["(fn [x & ] x)", "invalid_form", "&"],
  ["(def)", "invalid_form", "name"],
  ["(def x)", "invalid_arity", "def expects"],
  ["(defn f)", "invalid_arity", "parameter vector"],
  ["(loop [x 0] (inc (recur x)))", "invalid_form", "tail position"],
  ["(recur)", "invalid_form", "only allowed"],
  ["(cond 1 2 3)", "invalid_cond_form", "even number"],
  ["(->)", "invalid_thread_form", "initial value"],
  ["{:a 1 :a 2}", "duplicate_key", ":a"],
  ["#{1 1}", "duplicate_key", "1"],
  ["#{0.0 -0.0}", "duplicate_key", ""],
  ["(% 1)", "invalid_placeholder", "#(...)"],
  ["#(#(%))", "invalid_form", "Nested"],
  ["(no-such-fn 1)", "unbound_var", "no-such-fn"],
  ["(+ a b)", "unbound_var", "Undefined variables: a"],
  ["(mapp inc [1])", "unbound_var", "did you mean"],
  ['(clojure.string/capitalize-all "x")', "invalid_form", "does not exist"],
  ["(nosuchns/f 1)", "invalid_form", "unknown namespace"],
  ["(tool/anything {})", "unknown_tool", "Unknown tool"],
  ['(. "s" toUpperCase)', "invalid_form", ".method"],
  ["(quote 1 2)", "invalid_arity", "quote expects exactly one form"],
  ['#"[unclosed"', "invalid_form", "Invalid regex"],
  ["(map)", "arity_error", "map expects"],
  ["(juxt)", "invalid_arity", "juxt"],
  ["(for [x] x)", "invalid_form", "even number"],
  // runtime
  ["(1 2 3)", "not_callable", "not a function"],
  ['(let [s "abc"] (s 1))', "not_callable", "not a function"],
  ["(let [v nil] (v))", "not_callable", "nil"],
  ["((fn [a b] a) 1)", "arity_error", "expects 2 arguments, got 1"],
  ["(defn f [x] x) (f)", "arity_error", "f expects 1"],
  ['(inc "a")', "type_error", "inc"],
  ["(+ 1 nil)", "type_error", ""],
  ["(/ 1 0)", "arithmetic_error", ""],
  ["(first {:a 1})", "type_error", ""],
  ["(let [[a] 5] a)", "destructure_error", "vector pattern"],
  ["(let [{:keys [a]} 5] a)", "destructure_error", "map pattern"],
  ['(.noSuchMethod "x")', "unsupported_method", "Supported methods"],
  ["(defn f [n] (+ 1 (f n))) (f 0)", "stack_overflow", "recursion"],
  ["(defn f [n] (* 2 (f (inc n)))) (f 0)", "stack_overflow", "recursion", { maxCallDepth: 500 }],
  // budgets
  ["(loop [i 0] (recur (inc i)))", "step_limit_exceeded", "Step budget", SMALL],
  ["(loop [] (recur))", "step_limit_exceeded", "Step budget", SMALL],
  ["(defn spin2 [] 1) (defn spin [] (spin2)) (loop [x 0] (spin) (recur x))", "step_limit_exceeded", "", SMALL],
  ["(count (for [a (range 1000) b (range 1000)] [a b]))", "step_limit_exceeded", "", SMALL],
  ["(loop [v [1]] (recur (into v v)))", "memory_limit", "Allocation budget", SMALL],
  ['(loop [s "x"] (recur (str s s)))', "memory_limit", "Allocation budget", SMALL],
  ["(reduce (fn [acc _] (conj acc (vec (range 1000)))) [] (range 100000))", "memory_limit", "", SMALL],
  ['(doseq [i (range 100000)] (println "spam spam spam"))', "print_limit_exceeded", "Print budget", {
    maxPrintChars: 10_000,
  }],
  ["(loop [i 0] (recur (inc i)))", "timeout", "timed out", { deadline: Date.now() - 1 }],
];

Deno.test(`error paths: ${CASES.length} malformed or hostile programs`, () => {
  assert.ok(CASES.length >= 60);
  for (const [src, reason, part, limits] of CASES) {
    const r = evaluate(src, limits ? { limits } : {});
    const label = src.length > 80 ? src.slice(0, 77) + "..." : src;
    assert.ok(!r.ok, `${label}: expected ${reason}, got ${r.ok ? r.printed : ""}`);
    assert.equal(r.reason, reason, `${label}: ${r.message}`);
    if (part) assert.ok(r.message.includes(part), `${label}: "${r.message}" lacks "${part}"`);
    assertReadable(r.message);
    const next = evaluate("(+ 1 2)");
    assert.ok(next.ok && next.printed === "3", `evaluation after ${label} failed`);
  }
});

Deno.test("error paths: parse errors report line and column fields", () => {
  const r = evaluate("(do\n  (foo ]))");
  assert.ok(!r.ok);
  assert.equal(r.line, 2);
  assert.equal(typeof r.column, "number");
  const u = evaluate("(do\n  (no-such-thing))");
  assert.ok(!u.ok);
  assert.equal(u.line, 2);
});
