/** Multi-arity fn/defn, defn-, letfn, quoted collections and refused namespace forms (issue 14 item 6). */
import assert from "node:assert/strict";
import { assertErr, ev, evaluate, table } from "./helpers.ts";

Deno.test("multi-arity fn and defn pick the arity by argument count, variadic last", () => {
  table([
    ["(defn f ([x] (f x 10)) ([x y] (+ x y))) [(f 1) (f 1 2)]", "[11 3]"],
    ["(defn g ([] 0) ([x] 1) ([x & r] (count r))) [(g) (g :a) (g :a :b :c)]", "[0 1 2]"],
    ["((fn self ([n] (self n 1)) ([n acc] (if (<= n 1) acc (recur (dec n) (* acc n))))) 5)", "120"],
    ["(map (fn ([x] (* 2 x)) ([x y] (+ x y))) [1 2] [10 20])", "[11 22]"],
    ["(map (fn ([x] (* 2 x)) ([x y] (+ x y))) [1 2])", "[2 4]"],
    ["(reduce (fn ([] :empty) ([a b] (+ a b))) [])", ":empty"],
    ['(defn h "doc" {:added "1"} ([x] x) ([x y] y)) (h 1 2)', "2"],
    ["(defn f ([x] 1) ([x y] 2)) f", "#fn[[x] [x y]]"],
    ["(let [k 3] ((fn ([] k) ([x] (+ x k))) 1))", "4"],
  ]);
});

Deno.test("multi-arity errors name the function and the counts it takes", () => {
  assertErr("(defn f ([x] 1) ([x y] 2)) (f 1 2 3)", "arity_error", "Function f expects 1 or 2 arguments, got 3");
  assertErr("(defn f ([x] 1) ([x & r] 2)) (f)", "arity_error", "1 or 1 or more");
  assertErr("(fn ([x] 1) ([y] 2))", "invalid_form", "two arities take 1 argument");
  assertErr("(fn ([& a] 1) ([& b] 2))", "invalid_form", "only one variadic");
  assertErr("(fn ([a b c] 1) ([x & r] 2))", "invalid_form", "cannot take more parameters than the variadic");
  assertErr("(fn ([x] 1) [y])", "invalid_form", "each arity of a multi-arity function");
});

Deno.test("defn- defines like defn", () => {
  assert.equal(ev("(defn- sq [x] (* x x)) (sq 5)"), "25");
  assert.equal(ev("(defn- pair ([x] [x x]) ([x y] [x y])) (pair 1)"), "[1 1]");
});

Deno.test("letfn: mutual and self recursion, closures over outer locals, visible only in its body", () => {
  table([
    [
      "(letfn [(ev? [n] (if (zero? n) true (od? (dec n)))) (od? [n] (if (zero? n) false (ev? (dec n))))] (ev? 100))",
      "true",
    ],
    ["(letfn [(fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))] (fib 20))", "6765"],
    ["(let [k 5] (letfn [(a [x] (b (+ x k))) (b [x] (* 2 x))] (a 1)))", "12"],
    ["(letfn [(w [xs] (map (fn [x] (if (vector? x) (w x) (inc x))) xs))] (w [1 [2 [3]]]))", "[2 [3 [4]]]"],
    ["(letfn [(f2 ([x] (f2 x 2)) ([x y] (* x y)))] (f2 4))", "8"],
    ["(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (letfn [(g [] i)] (g)))) acc))", "[0 1 2]"],
  ]);
  assertErr("(letfn [(f [x] x)] 1) (f 1)", "unbound_var", "f");
  assertErr("(letfn (f [x] x) 1)", "invalid_form", "vector of function specs");
});

Deno.test("quoted collections are data: lists become vectors, symbols stay symbol references", () => {
  table([
    ["'(1 2 3)", "[1 2 3]"],
    ["'(1 (2 :a) {:b [x]})", "[1 [2 :a] {:b [x]}]"],
    ["(= '(1 2) [1 2])", "true"],
    ["'#{1 2}", "#{1 2}"],
    ["(quote ())", "[]"],
    ["'srv/tool", "srv/tool"],
    ["''a", "[quote a]"],
  ]);
  assertErr("'{:a 1 :a 2}", "duplicate_key", ":a");
  assertErr("'#(inc %)", "invalid_form", "not data");
});

Deno.test("ns, require, use, import are refused before anything runs, saying what to write", () => {
  for (
    const src of ["(ns a.b)", "(require '[clojure.string :as s])", "(use 'clojure.set)", "(import 'java.util.Date)"]
  ) {
    const r = evaluate(`(println "ran") ${src}`);
    assert.ok(!r.ok && r.reason === "invalid_form", src);
    assert.deepEqual(r.prints, [], "nothing ran");
    assert.ok(!r.message.includes("\n"), "one line");
    assert.match(r.message, /remove the/);
  }
  assert.equal(ev("(let [use 1] use)"), "1");
});
