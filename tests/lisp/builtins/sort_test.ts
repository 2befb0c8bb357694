/**
 * `sort` of plain numbers takes a typed-array path (default order, :asc/:desc, compare, < <= > >=); it must order
 * exactly as the comparator sort does — which a user fn comparator always reaches — and step aside for NaN, -0.0,
 * bigints, integral floats and anything that is not a number.
 */
import assert from "node:assert/strict";
import { evaluate } from "../helpers.ts";

const show = (src: string) => {
  const r = evaluate(src);
  return r.ok ? r.printed : `${r.reason}`;
};

Deno.test("sort: plain numbers in every numeric order answer as the comparator sort", () => {
  const colls = [
    "[3 1 2]",
    "[5 5 1 5 -2 0 7]",
    "[1.5 -0.25 3 2 1e300 -1e300 0.1]",
    "[##Inf 1 ##-Inf 0]",
    "(range 200 0 -3)",
    "(map #(mod (* % 7919) 101) (range 500))",
    "#{3 1 2}",
    "[0.0 -0.0 1]",
    "[1 ##NaN 0]",
    "[1 9007199254740993 2]",
    "[2 1.0 3]",
    "[1 :a]",
    '[1 "a"]',
    "[1 nil]",
    "[1]",
    "[]",
  ];
  const orders: [string, string][] = [
    ["", "(fn [a b] (compare a b))"],
    [":asc", "(fn [a b] (compare a b))"],
    [":desc", "(fn [a b] (compare b a))"],
    ["compare", "(fn [a b] (compare a b))"],
    ["<", "(fn [a b] (< a b))"],
    // A user `<=` answers true both ways for equal items, which leaves their order to the algorithm; the builtin
    // `<=` orders as `<` does.
    ["<=", "(fn [a b] (< a b))"],
    [">", "(fn [a b] (> a b))"],
    [">=", "(fn [a b] (> a b))"],
  ];
  for (const c of colls) {
    for (const [fast, general] of orders) {
      const a = show(`(sort ${fast} ${c})`);
      const b = show(`(sort ${general} ${c})`);
      // A user comparator raises its own message on bad items; both must refuse, with the same reason.
      assert.equal(a, b, `(sort ${fast} ${c}) vs (sort ${general} ${c})`);
    }
  }
});

Deno.test("sort: the typed-array path charges the allocation budget", () => {
  const r = evaluate("(count (sort (range 100000)))", { limits: { maxAllocBytes: 1_000_000 } });
  assert.equal(r.ok ? "ok" : r.reason, "memory_limit");
});
