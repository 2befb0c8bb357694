/**
 * The fast paths of direct builtin calls (`get` with two or three arguments, three-argument `assoc` and `+`) and of
 * map literals with constant keys must answer exactly as the general builtins do — which `apply` reaches, since it
 * calls the builtin as a value — on every kind of operand, and charge the same budgets.
 */
import assert from "node:assert/strict";
import { ev, evaluate } from "./helpers.ts";

const DATA = { data: { "model-name": "m", model_id: 7, a: 1, "k": { b: 2 } } };

Deno.test("intrinsics: get, assoc, + and includes? answer as the builtin called through apply", () => {
  const cases = [
    ["get", "{:a 1} :a"],
    ["get", '{:a 1} "a"'],
    ["get", '{"a" 1} :a'],
    ["get", "{:a nil} :a :d"],
    ["get", "{:a 1} :b :d"],
    ["get", "{:a-b 1} :a_b"],
    ["get", '{:a_b 1} "a-b"'],
    ["get", '{"a_b" 1} "a-b"'],
    ["get", "{[1 2] :v} [1 2]"],
    ["get", "{:a {:b 1}} [:a :b]"],
    ["get", "[10 20] 1"],
    ["get", "[10 20] 5 :d"],
    ["get", "nil :a"],
    ["get", "#{:a} :a"],
    ["get", '"abc" 1'],
    ["get", "data :model-name"],
    ["get", 'data "model-id"'],
    ["get", "data :model-id :d"],
    ["get", "data :missing :d"],
    ["assoc", "{:a 1} :a 2"],
    ["assoc", '{"a" 1} :a 2'],
    ["assoc", '{:a 1} "a" 2'],
    ["assoc", "{:a 1} :a 1"],
    ["assoc", "{} :a 1"],
    ["assoc", "nil :a 1"],
    ["assoc", "[1 2] 0 :x"],
    ["assoc", "data :model-name 1"],
    ["assoc", "data :model-id 1"],
    ["+", "1 2 3"],
    ["+", "1.5 2 3"],
    ["+", "9007199254740990 1 1"],
    ["+", "9007199254740991 1 1"],
    ["+", "1 2 3.5"],
    ["includes?", '"deadline exceeded at step 3" "exceeded"'],
    ["includes?", '"deadline exceeded at step 3" "missing"'],
    ["includes?", 'nil "x"'],
    ["includes?", '"abc" nil'],
    ["includes?", '"abc" 5'],
    ["includes?", ':abc "a"'],
    ["includes?", '"abc" ""'],
  ];
  for (const [f, args] of cases) {
    const direct = evaluate(`(${f} ${args})`, { globals: DATA });
    const viaApply = evaluate(`(apply ${f} [${args}])`, { globals: DATA });
    assert.deepEqual(
      direct.ok ? direct.printed : direct.reason,
      viaApply.ok ? viaApply.printed : viaApply.reason,
      `(${f} ${args})`,
    );
  }
});

Deno.test("intrinsics: the general builtin still reports what the fast path does not take", () => {
  for (const src of ["(assoc 1 :a 2)", "(+ 1 2 :x)", "(assoc [1] 5 2)"]) {
    const direct = evaluate(src);
    const viaApply = evaluate(src.replace(/^\((\S+) (.*)\)$/, "(apply $1 [$2])"));
    assert.equal(direct.ok, false, src);
    assert.equal(viaApply.ok, false, src);
    if (!direct.ok && !viaApply.ok) assert.equal(direct.reason, viaApply.reason, src);
  }
});

Deno.test("intrinsics: a three-argument assoc into a map charges the allocation budget", () => {
  const grow = (f: string) =>
    evaluate(`(reduce (fn [m i] ${f}) {} (range 100000))`, { limits: { maxAllocBytes: 200_000 } });
  const direct = grow("(assoc m i i)");
  const viaApply = grow("(apply assoc [m i i])");
  assert.equal(direct.ok ? "ok" : direct.reason, "memory_limit");
  assert.equal(viaApply.ok ? "ok" : viaApply.reason, "memory_limit");
});

Deno.test("map literals: constant keys are one entry each; a key spelled twice keeps the last value", () => {
  assert.equal(ev("(let [x 1] {':a x :a 2})"), "{:a 2}");
  assert.equal(ev('(let [x 1] {:a x "a" 2})'), '{:a 1 "a" 2}');
  assert.equal(ev("(let [x 1] (count {:a x :b x :c x}))"), "3");
  assert.equal(ev("(let [x 1] (= {:a x :b 2} {:b 2 :a 1}))"), "true");
  assert.equal(ev('(let [x 1] (get {"a" x} :a))'), "1");
  assert.equal(ev("(let [x 1] (assoc {:a x} :b 2 :a 3))"), "{:a 3 :b 2}");
  const big = Array.from({ length: 20 }, (_, i) => `:k${i} x`).join(" ");
  assert.equal(ev(`(let [x 1] (count {${big}}))`), "20");
});

Deno.test("node shapes: a local or constant operand read straight from the frame answers as the general call", () => {
  // Each pair: the shape the analyzer specializes (locals, a constant second operand, a fused let) and the same
  // computation through `identity`, which no specialization recognizes.
  const values = [
    "{:a 1 :b 2}",
    '{"a" 1}',
    "data",
    "[1 2 3]",
    "nil",
    '"abc"',
    "7",
    "1.0",
    "9007199254740993",
    ":a",
    "#{:a}",
    "false",
  ];
  const shapes: [string, string][] = [
    ["(let [x V] (:a x))", "(:a (identity V))"],
    ["(let [x V] (:model-id x))", "(:model-id (identity V))"],
    ["(let [x V] (:a x :d))", "(:a (identity V) :d)"],
    ['(let [x V] (= x "abc"))', '(= (identity V) (identity "abc"))'],
    ["(let [x V] (= x 7))", "(= (identity V) (identity 7))"],
    ["(let [x V] (+ x 1))", "(+ (identity V) (identity 1))"],
    ["(let [x V] (< x 2))", "(< (identity V) (identity 2))"],
    ["(let [x V] (get x :a))", "(get (identity V) (identity :a))"],
    ["(let [x V] (inc x))", "(inc (identity V))"],
    ["(let [x V] (not x))", "(not (identity V))"],
    ["(let [x V k :a] (assoc x k 5))", "(assoc (identity V) (identity :a) 5)"],
    ["(let [x V k :a] (get x k :none))", "(get (identity V) (identity :a) :none)"],
    ["(let [x V y (:a x)] [x y])", "(let [[x y] (identity [V (:a (identity V))])] [x y])"],
    ["[V]", "(vector (identity V))"],
    ["[V V]", "(vector (identity V) V)"],
    ["[V 1 V]", "(vector (identity V) 1 V)"],
    ["(let [x V] {:a x})", "(hash-map :a (identity V))"],
    ["(let [x V] {:a x :b x})", "(hash-map :a (identity V) :b V)"],
    ['(let [x V] {:a x "b" 1 :c x})', '(hash-map :a (identity V) "b" 1 :c V)'],
  ];
  const show = (r: ReturnType<typeof evaluate>) => (r.ok ? r.printed : r.reason);
  for (const v of values) {
    for (const [special, general] of shapes) {
      const s = special.replaceAll("V", v);
      const g = general.replaceAll("V", v);
      assert.equal(show(evaluate(s, { globals: DATA })), show(evaluate(g, { globals: DATA })), `${s} vs ${g}`);
    }
  }
});

Deno.test("node shapes: a fused let binds in order, shadows, and a failing specialized call still names its line", () => {
  assert.equal(ev("(let [x 1 x (inc x)] x)"), "2");
  assert.equal(ev("(let [x 1] (let [y (+ x 1) x 10] [x y]))"), "[10 2]");
  assert.equal(ev("(let [f (fn [x] (let [y (* x 2)] (if (< y 10) (recur y) y)))] (f 1))"), "16");
  const r = evaluate('(let [x "a"]\n  (inc x))');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.line, 2);
    assert.match(r.message, /line 2/);
  }
  const r2 = evaluate("(let [m {:a 1} k :a]\n\n  (assoc m k (/ 1 0)))");
  assert.equal(r2.ok, false);
  if (!r2.ok) assert.equal(r2.line, 3);
});
