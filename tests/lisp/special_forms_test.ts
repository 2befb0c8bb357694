import assert from "node:assert/strict";
import { assertErr, ev, evaluate, table } from "./helpers.ts";

Deno.test("special forms: do / if / when / if-not", () => {
  table([
    ["(do)", "nil"],
    ["(do 1 2 3)", "3"],
    ["(if true 1 2)", "1"],
    ["(if nil 1 2)", "2"],
    ["(if false 1)", "nil"],
    ["(if 0 :truthy :falsy)", ":truthy"],
    ['(if "" :truthy :falsy)', ":truthy"],
    ["(when true 1 2)", "2"],
    ["(when false 1)", "nil"],
    ["(when-not false :x)", ":x"],
    ["(if-not nil :a :b)", ":a"],
    ["", "nil"],
    ["1 2 3", "3"],
  ]);
  assertErr("(if true)", "invalid_arity", "if expects 2 or 3");
  assertErr("(if 1 2 3 4)", "invalid_arity");
});

Deno.test("special forms: let, shadowing, sequential bindings", () => {
  table([
    ["(let [x 1 y (+ x 1)] [x y])", "[1 2]"],
    ["(let [x 1 x (+ x 10)] x)", "11"],
    ["(let [x 1] (let [x 2] x))", "2"],
    ["(let [] 5)", "5"],
    ["(let [x 1])", "nil"],
    ["(let [x 1] (def y 2) (+ x y))", "3"],
  ]);
  assertErr("(let [x] x)", "invalid_form", "even number");
  assertErr("(let x 1)", "invalid_form", "binding vector");
});

Deno.test("special forms: fn, closures, variadics, self name", () => {
  table([
    ["((fn [a b] (+ a b)) 1 2)", "3"],
    ["((fn [& xs] xs) 1 2 3)", "[1 2 3]"],
    ["((fn [a & xs] [a xs]) 1)", "[1 nil]"],
    ["((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 10)", "3628800"],
    ["(let [x 10 f (fn [y] (+ x y))] (f 5))", "15"],
    ["(let [fs (for [i [1 2 3]] (fn [] i))] (map (fn [f] (f)) fs))", "[1 2 3]"],
    ["(let [adder (fn [n] (fn [x] (+ x n)))] ((adder 3) 4))", "7"],
    ["((fn [] ))", "nil"],
    ["(fn [x y] x)", "#fn[x y]"],
    ["(fn [[a b] {:keys [c]}] a)", "#fn[_ _]"],
  ]);
  assertErr("((fn [a] a))", "arity_error", "expects 1 argument, got 0");
  assertErr("((fn [a b & c] a) 1)", "arity_error", "at least 2");
  assertErr("(fn ([x] x) ([y] y))", "invalid_form", "two arities take 1 argument");
});

Deno.test("special forms: #() shorthand", () => {
  table([
    ["(#(+ % 1) 1)", "2"],
    ["(#(+ %1 %2) 1 2)", "3"],
    ["(#(vector %2) 1 2)", "[2]"],
    ["(#(count %&) 1 2 3)", "3"],
    ["(#(do [%1 %&]) 1 2 3)", "[1 [2 3]]"],
    ["(#(42))", "42"],
    ["(map #(* % %) [1 2 3])", "[1 4 9]"],
    ["(#(map (fn [x] (+ x %)) [1 2]) 10)", "[11 12]"],
  ]);
  assertErr("#(#(+ % 1))", "invalid_form", "Nested");
  assertErr("(+ % 1)", "invalid_placeholder");
});

Deno.test("special forms: def, defn, defonce", () => {
  table([
    ["(def x 42)", "#'x"],
    ["(def x 42) x", "42"],
    ['(def x "doc" 42) x', "42"],
    ["(defn f [a] (* 2 a)) (f 4)", "8"],
    ['(defn f "doubles" [a] (* 2 a)) (f 4)', "8"],
    ["(defonce x 1) (defonce x 2) x", "1"],
    ["(defn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) (fact 5)", "120"],
    ["(def map {}) (map inc [1 2])", "[1 2]"],
    ["(defn g [] (def inner 5)) (g) (or inner :none)", "5"],
    ["(let [x 1] (def y x)) y", "1"],
    [
      "(def odd2? nil) (defn even2? [n] (if (= n 0) true (odd2? (dec n)))) (defn odd2? [n] (if (= n 0) false (even2? (dec n)))) (even2? 10)",
      "true",
    ],
  ]);
  assertErr("(def x)", "invalid_arity");
  assertErr("(def crm/x 1)", "invalid_form", "qualified");
  assertErr("(when true (def y 1)) y", "unbound_var", "y");
  assertErr("(defn f [] (g)) (defn g [] 1)", "unbound_var", "g (defined later in the program");
});

Deno.test("special forms: loop / recur without an iteration cap", () => {
  table([
    ["(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc i)) acc))", "[0 1 2]"],
    ["(loop [i 0] (if (< i 100000) (recur (inc i)) i))", "100000"],
    ["(loop [[x & xs] [1 2 3] acc 0] (if x (recur xs (+ acc x)) acc))", "6"],
    ["(defn sum-to [n acc] (if (= n 0) acc (recur (dec n) (+ acc n)))) (sum-to 100000 0)", "5000050000"],
    ["(loop [a 1 b 2 n 0] (if (< n 1) (recur b a (inc n)) [a b]))", "[2 1]"],
    ["(loop [x 1] (cond (> x 10) x :else (recur (* x 2))))", "16"],
    ["(loop [x 1] (when (< x 10) (recur (inc x))))", "nil"],
    ["(loop [x 0] (let [y (inc x)] (if (< y 5) (recur y) y)))", "5"],
  ]);
  assertErr("(loop [x 0] (+ 1 (recur x)))", "invalid_form", "tail position");
  assertErr("(recur 1)", "invalid_form", "only allowed inside loop or fn");
  assertErr("(loop [x 0] (recur 1 2))", "arity_mismatch", "recur expects 1");
  assertErr("(fn [x] (do (recur x) 1))", "invalid_form", "tail position");
});

Deno.test("special forms: cond, case, condp", () => {
  table([
    ["(cond false 1 nil 2 :else 3)", "3"],
    ["(cond)", "nil"],
    ["(cond false 1)", "nil"],
    ["(let [x 5] (cond (< x 3) :low (< x 10) :mid :else :high))", ":mid"],
    ['(case "b" "a" 1 "b" 2 0)', "2"],
    ["(case :z :a 1 nil)", "nil"],
    ["(case :z :a 1 :default)", ":default"],
    ["(case 1.0 1 :one :other)", ":one"],
    ["(case 3 (1 2) :small (3 4) :mid :big)", ":mid"],
    ["(case nil nil :nil :x)", ":nil"],
    ["(condp = 2 1 :one 2 :two :none)", ":two"],
    ["(condp < 5 10 :a 3 :b)", ":b"],
    ["(condp = 9 1 :one nil)", "nil"],
  ]);
  assertErr("(cond 1)", "invalid_cond_form");
  assertErr("(case 1 [a] 1)", "invalid_form", "literal");
  assertErr("(case 1 #(inc %) 1)", "invalid_form", "literal");
});

Deno.test("special forms: and / or", () => {
  table([
    ["(and)", "true"],
    ["(or)", "nil"],
    ["(and 1 2)", "2"],
    ["(and 1 nil 2)", "nil"],
    ["(and 1 false)", "false"],
    ["(or nil false)", "false"],
    ["(or nil 2 3)", "2"],
    ["(or not-yet-defined :fallback)", ":fallback"],
    ["(def counter (or counter 0)) counter", "0"],
  ]);
  assertErr("(+ not-yet-defined 1)", "unbound_var", "not-yet-defined");
});

Deno.test("special forms: if-let / when-let / if-some / when-some / when-first", () => {
  table([
    ["(if-let [x (first [])] x :none)", ":none"],
    ["(if-let [x 5] (inc x) :none)", "6"],
    ["(if-let [x false] x :none)", ":none"],
    ["(if-some [x false] [x] :none)", "[false]"],
    ["(if-some [x nil] x :none)", ":none"],
    ["(when-let [x 3] (inc x))", "4"],
    ["(when-let [x nil] (inc x))", "nil"],
    ["(when-some [x false] (str x))", '"false"'],
    ["(when-first [x [7 8]] (* x 2))", "14"],
    ["(when-first [x []] :never)", "nil"],
    ["(if-let [[a b] [1 2]] (+ a b) 0)", "3"],
    ["(if-let [x 1] x)", "1"],
  ]);
  assertErr("(if-let [x 1 y 2] x)", "invalid_form", "exactly one binding");
});

Deno.test("special forms: threading macros", () => {
  table([
    ["(-> 1 inc (* 10))", "20"],
    ["(->> [1 2 3] (map inc) (reduce +))", "9"],
    ["(-> {:a {:b 5}} :a :b)", "5"],
    ["(as-> 5 x (* x 2) (- x 1))", "9"],
    ["(cond-> 1 true inc false (* 100) true (* 10))", "20"],
    ["(cond->> [1 2] true (map inc) false (map -))", "[2 3]"],
    ["(some-> {:a {:b nil}} :a :b inc)", "nil"],
    ["(some-> {:a {:b 1}} :a :b inc)", "2"],
    ["(some->> [1 2] (map inc))", "[2 3]"],
    ["(some-> false not)", "true"],
    ["(->> (range 10) (filter odd?) (map #(* % %)) (reduce +))", "165"],
  ]);
  assertErr("(->)", "invalid_thread_form");
  assertErr("(cond-> 1 true)", "invalid_thread_form");
});

Deno.test("special forms: for / doseq", () => {
  table([
    ["(for [x [1 2] y [:p :q]] [x y])", "[[1 :p] [1 :q] [2 :p] [2 :q]]"],
    ["(for [x (range 6) :when (odd? x) :let [y (* x x)]] y)", "[1 9 25]"],
    ["(for [x (range 10) :while (< x 3)] x)", "[0 1 2]"],
    ["(for [x [1 2 3] y [1 2 3] :while (< y x)] [x y])", "[[2 1] [3 1] [3 2]]"],
    ["(for [[k v] {:a 1 :b 2}] [v k])", "[[1 :a] [2 :b]]"],
    ['(for [c "ab"] c)', '["a" "b"]'],
    ["(for [x nil] x)", "[]"],
    ["(count (for [i (range 100000)] i))", "100000"],
    ["(doseq [x [1 2]] x)", "nil"],
  ]);
  const r = evaluate('(doseq [x [1 2]] (println "x" x))');
  assert.ok(r.ok);
  assert.deepEqual(r.prints, ["x 1", "x 2"]);
  assertErr("(for [x [1]])", "invalid_arity", "body");
  assertErr("(for [x 5] x)", "invalid_form", "not a collection");
  assertErr("(for [x [1] :until true] x)", "invalid_form", "unknown modifier");
  assertErr("(for [:when true] 1)", "invalid_form");
});

Deno.test("special forms: quote, comment, juxt, apply, return, fail", () => {
  table([
    ["'gh/search", "gh/search"],
    ["(quote x)", "x"],
    ["(comment (this is ignored))", "nil"],
    ["((juxt :a :b) {:a 1 :b 2})", "[1 2]"],
    ["(map (juxt inc dec) [1])", "[[2 0]]"],
    ["(apply + 1 [2 3])", "6"],
  ]);
  assertErr("(juxt)", "invalid_arity");
  assertErr("(map if [1])", "invalid_form", "call position");
  const r = evaluate('(do (return {:status "ok"}) (println "never"))');
  assert.ok(r.ok);
  assert.equal(r.status, "returned");
  assert.equal(r.printed, '{:status "ok"}');
  assert.deepEqual(r.prints, []);
  const f = evaluate("(fail :nope)");
  assert.ok(f.ok);
  assert.equal(f.status, "failed");
  assert.equal(f.printed, ":nope");
});

Deno.test("special forms: keyword, map and set calls", () => {
  table([
    ["(:a {:a 1})", "1"],
    ["(:a {:b 1} :dflt)", ":dflt"],
    ['(:a {"a" 1})', "1"],
    ['(:user-id {"user_id" 7})', "7"],
    ["({:a 1} :a)", "1"],
    ["(#{1 2} 2)", "2"],
    ["(#{1 2} 3)", "nil"],
    ["(:a 5)", "nil"],
  ]);
  assertErr("(:a)", "invalid_keyword_call");
  assertErr("(1 2)", "not_callable");
  assertErr('("s" 1)', "not_callable");
  assertErr("(let [v [1 2]] (v 0))", "not_callable");
});

Deno.test("special forms: budget, task, step-done, *1", () => {
  table([
    ["(budget/remaining)", "{}"],
    ['(task "a" (+ 1 2))', "3"],
    ['(step-done "s1" "did things")', '"did things"'],
    ["*1", "nil"],
  ]);
  assertErr("(budget/other)", "invalid_form");
  assert.equal(ev("(let [x 2] (* x x))"), "4");
});
