/**
 * Closures called by higher-order builtins with one or two arguments take the array-free `call1`/`call2` paths; they
 * must behave exactly like `call` (arity errors, rest parameters, recur, self names, destructuring, budgets).
 */
import assert from "node:assert/strict";
import { Closure } from "../../src/lisp/closure.ts";
import { LispFn } from "../../src/lisp/values/mod.ts";
import { assertErr, evaluate, table } from "./helpers.ts";

Deno.test("closure: call1 and call2 are overridden (no argument array per element)", () => {
  assert.notEqual(Closure.prototype.call1, LispFn.prototype.call1);
  assert.notEqual(Closure.prototype.call2, LispFn.prototype.call2);
});

Deno.test("closure: one- and two-argument calls behave like general calls", () => {
  table([
    ["(mapv (fn [x] (* x 2)) [1 2 3])", "[2 4 6]"],
    ["(filterv (fn [x] (odd? x)) [1 2 3])", "[1 3]"],
    ["(reduce (fn [a x] (+ a x)) 0 [1 2 3])", "6"],
    ["(sort-by (fn [x] (- x)) [1 3 2])", "[3 2 1]"],
    ["(mapv (fn [& xs] (count xs)) [1 2])", "[1 1]"],
    ["(reduce (fn [a & more] (+ a (first more))) 0 [1 2 3])", "6"],
    ["(mapv (fn [[a b]] (+ a b)) [[1 2] [3 4]])", "[3 7]"],
    ["(mapv (fn [{:keys [a]}] a) [{:a 1} {:a 2}])", "[1 2]"],
    ["(mapv (fn f [n] (if (<= n 1) 1 (* n (f (dec n))))) [3 5])", "[6 120]"],
    ["(mapv (fn [n] (loop [i n acc 0] (if (= i 0) acc (recur (dec i) (+ acc i))))) [3 4])", "[6 10]"],
    ["(mapv (fn [n] (if (> n 100) n (recur (* n 2)))) [3 5])", "[192 160]"],
    ["(reduce (fn [a x] (if (> x 2) a (recur (+ a x) (inc x)))) 0 [1])", "3"],
    ["((fn [x] (inc x)) 1)", "2"],
    ["((fn [x y] (+ x y)) 1 2)", "3"],
    ["(let [f (fn [x] (fn [y] (+ x y)))] ((f 1) 2))", "3"],
  ]);
});

Deno.test("closure: arity errors on the one- and two-argument paths", () => {
  assertErr("(mapv (fn [a b] a) [1 2])", "arity_error", "expects 2 arguments, got 1");
  assertErr("(reduce (fn [a] a) 0 [1 2])", "arity_error", "expects 1 argument, got 2");
  assertErr("((fn [] 1) 2)", "arity_error", "got 1");
  assertErr("((fn [a b c] 1) 1 2)", "arity_error", "expects 3 arguments, got 2");
  assertErr("(mapv (fn [a b & more] a) [1 2])", "arity_error", "at least 2 arguments, got 1");
});

Deno.test("closure: the step budget counts array-free calls too", () => {
  const r = evaluate("(count (mapv (fn [x] x) (range 100000)))", { limits: { maxSteps: 50_000 } });
  assert.ok(!r.ok && r.reason === "step_limit_exceeded");
});
