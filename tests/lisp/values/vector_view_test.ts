/** Vector slices are O(1) views over a shared backing array (values/vector.ts); walking idioms stay linear. */
import assert from "node:assert/strict";
import { EMPTY_VEC, PVec, type Value, vecFrom } from "../../../src/lisp/values/mod.ts";
import { getBuiltin } from "../../../src/lisp/builtins/registry.ts";
import { EvalContext } from "../../../src/lisp/runtime.ts";
import { ev } from "../helpers.ts";

function range(n: number): PVec {
  return vecFrom(Array.from({ length: n }, (_, i) => i));
}

function call(name: string, ...args: Value[]): Value {
  const b = getBuiltin(name);
  assert.ok(b !== undefined, name);
  return b.fn(args, new EvalContext());
}

Deno.test("vector view: slice shares the backing array and reads through the offset", () => {
  const v = range(1000);
  const s = v.slice(10, 900);
  assert.equal(s.buf, v.buf, "a large slice is a view");
  assert.equal(s.off, 10);
  assert.equal(s.n, 890);
  assert.equal(s.get(0), 10);
  assert.equal(s.at(889), 899);
  assert.equal(s.get(890), undefined);
  assert.equal(s.get(-1), undefined);
  assert.deepEqual(s.toArray().slice(0, 3), [10, 11, 12]);
  assert.equal(s.view().length, 890);
  assert.equal(s.view()[0], 10);
  // A slice of a slice stays a view of the same array.
  const t = s.slice(5, 800);
  assert.equal(t.buf, v.buf);
  assert.equal(t.at(0), 15);
});

Deno.test("vector view: small or sparse slices copy, so a view never retains more than 4x its size", () => {
  const v = range(1000);
  const small = v.slice(3, 10);
  assert.notEqual(small.buf, v.buf);
  assert.deepEqual(small.toArray(), [3, 4, 5, 6, 7, 8, 9]);
  const sparse = v.slice(100, 300);
  assert.notEqual(sparse.buf, v.buf, "200 of 1000 elements: copied");
  assert.equal(sparse.buf.length, 200);
  assert.equal(v.slice(0, 1000), v);
  assert.equal(v.slice(-5, 2000), v, "bounds are clamped");
  assert.equal(v.slice(600, 500), EMPTY_VEC);
});

Deno.test("vector view: conj on a view that ends at the array's end pushes; elsewhere it copies", () => {
  const v = range(100);
  const tail = v.slice(1, 100);
  const t2 = tail.conj("x");
  assert.equal(t2.buf, v.buf, "the tail view extends the shared array");
  assert.equal(t2.n, 100);
  assert.equal(t2.at(99), "x");
  assert.equal(v.n, 100, "the original is unchanged");
  assert.equal(tail.n, 99);
  const t3 = tail.conj("y");
  assert.notEqual(t3.buf, v.buf, "an older version copies");
  assert.equal(t3.at(98), 99);
  assert.equal(t3.at(99), "y");
  assert.equal(t2.at(99), "x");
  const head = v.slice(0, 90);
  const h2 = head.conj("z");
  assert.notEqual(h2.buf, v.buf);
  assert.deepEqual(h2.toArray().slice(88), [88, 89, "z"]);
  const many = tail.conjAll([1, 2, 3]);
  assert.deepEqual(many.toArray().slice(97), [98, 99, 1, 2, 3]);
  assert.deepEqual(tail.assoc(0, "a").toArray().slice(0, 2), ["a", 2]);
});

Deno.test("rest, next, drop, nthrest, nthnext, subvec, pop and butlast of a vector are O(1) views", () => {
  const v = range(10_000);
  for (
    const [name, args] of [
      ["rest", [v]],
      ["next", [v]],
      ["drop", [3, v]],
      ["nthrest", [v, 3]],
      ["nthnext", [v, 3]],
      ["subvec", [v, 2, 9000]],
      ["pop", [v]],
      ["butlast", [v]],
      ["drop-last", [2, v]],
      ["take", [9000, v]],
      ["take-last", [9000, v]],
    ] as [string, Value[]][]
  ) {
    const r = call(name, ...args);
    assert.ok(r instanceof PVec, name);
    assert.equal(r.buf, v.buf, `${name} shares the backing array`);
  }
});

Deno.test("walking a 100,000-item vector with rest, next and [x & xs] is linear and correct", () => {
  const sum = "4999950000";
  assert.equal(
    ev("(loop [xs (vec (range 100000)) acc 0] (if (empty? xs) acc (recur (rest xs) (+ acc (first xs)))))"),
    sum,
  );
  assert.equal(ev("(loop [xs (vec (range 100000)) acc 0] (if xs (recur (next xs) (+ acc (first xs))) acc))"), sum);
  assert.equal(ev("(loop [[x & xs] (vec (range 100000)) acc 0] (if (nil? x) acc (recur xs (+ acc x))))"), sum);
  assert.equal(
    ev("(loop [xs (vec (range 100000)) n 0] (if (seq xs) (recur (drop 2 xs) (inc n)) n))"),
    "50000",
  );
});

Deno.test("views behave as values: equality, hashing, printing, conj, destructuring and JSON", () => {
  const cases: [string, string][] = [
    ["(= (rest (vec (range 40))) (vec (range 1 40)))", "true"],
    ["(contains? {(vec (range 1 40)) :hit} (rest (vec (range 40))))", "true"],
    ["(contains? #{(vec (range 1 40))} (rest (vec (range 40))))", "true"],
    ["(take 3 (drop 30 (vec (range 40))))", "[30 31 32]"],
    [
      "(let [v (vec (range 40)) r (rest v) a (conj r :a) b (conj r :b)] [(last a) (last b) (count v) (last v)])",
      "[:a :b 40 39]",
    ],
    ["(let [[a b & more] (drop 20 (vec (range 40)))] [a b (count more) (first more)])", "[20 21 18 22]"],
    ["(let [[& {:keys [a]}] (drop 30 (into [] (concat (range 30) [:a 1])))] a)", "1"],
    ["(compare (rest (vec (range 40))) (rest (vec (range 40))))", "0"],
    ["(json/generate-string (subvec (vec (range 40)) 30))", '"[30,31,32,33,34,35,36,37,38,39]"'],
    ["(reduce + (rest (vec (range 40))))", "780"],
    ["(mapv inc (nthrest (vec (range 40)) 35))", "[36 37 38 39 40]"],
    ["(assoc (rest (vec (range 40))) 0 :x)", `[:x ${Array.from({ length: 38 }, (_, i) => i + 2).join(" ")}]`],
    ["(get-in [(rest (vec (range 40)))] [0 5])", "6"],
    ["(nth (rest (vec (range 40))) 38)", "39"],
    ["(peek (pop (vec (range 40))))", "38"],
    ["(split-at 20 (vec (range 24)))", "[[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19] [20 21 22 23]]"],
    ["(second (split-with #(< % 5) (vec (range 30))))", `[${Array.from({ length: 25 }, (_, i) => i + 5).join(" ")}]`],
    ["(count (drop-while #(< % 5) (vec (range 30))))", "25"],
  ];
  for (const [src, want] of cases) assert.equal(ev(src), want, src);
});

Deno.test("vector assoc: large vectors record a small patch instead of copying; every version keeps its value", () => {
  const v = range(1000);
  const w = v.assoc(5, "x");
  assert.equal(w.buf, v.buf, "assoc on a 1,000-element vector shares the array");
  assert.equal(w.at(5), "x");
  assert.equal(w.get(5), "x");
  assert.equal(v.at(5), 5, "the original is unchanged");
  const w2 = w.assoc(6, "y").assoc(5, "z");
  assert.deepEqual([w2.at(5), w2.at(6), w.at(5), w.at(6)], ["z", "y", "x", 6]);
  assert.deepEqual(w2.toArray().slice(4, 8), [4, "z", "y", 7]);
  // conj on a patched vector keeps the patch; the base vector can still grow separately (it copies).
  const w3 = w2.conj("end");
  assert.deepEqual([w3.n, w3.at(5), w3.at(1000)], [1001, "z", "end"]);
  const v2 = v.conj("other");
  assert.deepEqual([v2.at(5), v2.at(1000), w3.at(1000)], [5, "other", "end"]);
  // Reading as an array or slicing writes the patch into a private copy, never into the shared array.
  const view = w2.view();
  assert.deepEqual(view.slice(4, 8), [4, "z", "y", 7]);
  assert.equal(v.at(5), 5);
  assert.equal(w2.slice(5, 900).at(0), "z");
  assert.equal(w.slice(5, 900).at(0), "x");
  // Many assocs: the patch is flushed into a copy now and then; all versions stay correct.
  let u = v;
  const versions: PVec[] = [];
  for (let i = 0; i < 1000; i++) {
    u = u.assoc(i, `n${i}`);
    if (i % 97 === 0) versions.push(u);
  }
  for (let i = 0; i < 1000; i++) assert.equal(u.at(i), `n${i}`);
  for (const [k, ver] of versions.entries()) {
    const upto = k * 97;
    assert.equal(ver.at(upto), `n${upto}`);
    if (upto + 1 < 1000) assert.equal(ver.at(upto + 1), upto + 1);
  }
  assert.deepEqual(v.toArray(), range(1000).toArray());
  const small = range(10);
  assert.notEqual(small.assoc(0, 1).buf, small.buf, "small vectors simply copy");
});

Deno.test("vector assoc: programs see patched vectors as ordinary values", () => {
  const cases: [string, string][] = [
    ["(let [v (assoc (vec (range 100)) 3 :x)] [(nth v 3) (get v 3) (count v) (last v)])", "[:x :x 100 99]"],
    ["(= (assoc (vec (range 100)) 0 0) (vec (range 100)))", "true"],
    ["(= (assoc (vec (range 100)) 0 -1) (vec (range 100)))", "false"],
    ["(contains? #{(assoc (vec (range 100)) 0 :a)} (into [:a] (range 1 100)))", "true"],
    ["(let [[a b & more] (assoc (vec (range 100)) 1 :b)] [a b (count more) (first more)])", "[0 :b 98 2]"],
    ["(take 3 (rest (assoc (vec (range 100)) 1 :b)))", "[:b 2 3]"],
    ["(reduce + (assoc (vec (range 100)) 99 1000))", "5851"],
    ["(mapv inc (subvec (assoc (vec (range 100)) 50 0) 49 52))", "[50 1 52]"],
    ["(str (subvec (assoc (vec (range 100)) 98 :z) 97))", '"[97 :z 99]"'],
    ["(get-in {:v (assoc (vec (range 100)) 7 {:k 1})} [:v 7 :k])", "1"],
    ["(update (vec (range 100)) 10 + 5)", `[${Array.from({ length: 100 }, (_, i) => (i === 10 ? 15 : i)).join(" ")}]`],
    ["(peek (conj (assoc (vec (range 100)) 0 :a) :end))", ":end"],
    [
      "(loop [v (vec (range 20000)) i 0] (if (< i 20000) (recur (assoc v i (* i 2)) (inc i)) (reduce + v)))",
      "399980000",
    ],
  ];
  for (const [src, want] of cases) assert.equal(ev(src), want, src);
});
