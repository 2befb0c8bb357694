/**
 * Builtins: ordering and de-duplication (sort, sort-by, distinct, dedupe).
 * @module
 */

import { Keyword, type Value } from "../values/types.ts";
import { vecFrom } from "../values/vector.ts";
import { PSet, SetBuilder } from "../values/hashmap.ts";
import { equals } from "../values/equality.ts";
import { clojureCompare } from "../values/compare.ts";
import { isNumber } from "../values/equality.ts";
import { truthy } from "../values/kinds.ts";
import { seqView } from "../values/seq.ts";
import { fn2, keyFn } from "../values/fn.ts";
import { BuiltinFn, define } from "./table.ts";
import { argError, entries, slots, swapHint } from "./util.ts";
import { collArg as coll, noMap } from "./seq.ts";

/** True when a NaN is compared; raises, like the `<` builtin, when a or b is not a number. */
function numbers(op: string, a: Value, b: Value): boolean {
  if (!isNumber(a)) argError(op, 1, "a number", a, "; to order strings, keywords or vectors use compare");
  if (!isNumber(b)) argError(op, 2, "a number", b, "; to order strings, keywords or vectors use compare");
  return (typeof a === "number" && a !== a) || (typeof b === "number" && b !== b);
}

/** Comparator from a sort comparator argument: `:asc`, `:desc` or a 2-arg fn (number sign, or boolean a-first). */
export function comparator(fn: string, c: Value, pos: number): (a: Value, b: Value) => number {
  if (c instanceof Keyword) {
    if (c.name === "asc") return clojureCompare;
    if (c.name === "desc") return (a, b) => clojureCompare(b, a);
    return argError(fn, pos, "a comparator (:asc, :desc or a 2-argument function)", c);
  }
  if (c instanceof BuiltinFn) {
    // The usual comparators, without a call per comparison (same results as calling them).
    const n = c.b.name;
    if (n === "compare") return clojureCompare;
    if (n === "<" || n === "<=") return (a, b) => (numbers(n, a, b) ? 0 : clojureCompare(a, b));
    if (n === ">" || n === ">=") return (a, b) => (numbers(n, a, b) ? 0 : clojureCompare(b, a));
  }
  const f = fn2(c, fn, pos);
  return (a, b) => {
    const r = f(a, b);
    if (r === true) return -1;
    if (r === false || r === null) return truthy(f(b, a)) ? 1 : 0;
    if (typeof r === "number") return r < 0 ? -1 : r > 0 ? 1 : 0;
    if (typeof r === "bigint") return r < 0n ? -1 : r > 0n ? 1 : 0;
    return argError(fn, pos, "a comparator returning a number or boolean", r);
  };
}

/** 1 (ascending) or -1 (descending) when comparator argument `c` orders numbers by value; 0 for any other. */
function numericOrder(c: Value): number {
  if (c instanceof Keyword) return c.name === "asc" ? 1 : c.name === "desc" ? -1 : 0;
  if (!(c instanceof BuiltinFn)) return 0;
  const n = c.b.name;
  return n === "compare" || n === "<" || n === "<=" ? 1 : n === ">" || n === ">=" ? -1 : 0;
}

/**
 * Sort `xs` in place by numeric value when every item is a plain number other than NaN and -0 (integers and
 * non-integral floats): a typed-array sort, no comparator call per comparison. Equal such numbers cannot be told
 * apart, so the order is the one the stable comparator sort gives. False (xs untouched) otherwise.
 */
function sortPlainNumbers(xs: Value[], order: number, ctx: { alloc(n: number): void }): boolean {
  const n = xs.length;
  if (n < 2) return false;
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    if (typeof x !== "number" || x !== x || (x === 0 && 1 / x < 0)) return false;
  }
  ctx.alloc(8 * n);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = xs[i] as number;
  t.sort();
  if (order > 0) { for (let i = 0; i < n; i++) xs[i] = t[i]; }
  else for (let i = 0; i < n; i++) xs[i] = t[n - 1 - i];
  return true;
}

function sortImpl(args: Value[], ctx: { step(n: number): void; alloc(n: number): void }): Value {
  const src = args[args.length - 1];
  const xs = src instanceof PSet ? src.members() : seqView(src, "sort", args.length).slice();
  ctx.step(xs.length);
  ctx.alloc(slots(xs.length));
  const order = args.length === 2 ? numericOrder(args[0]) : 1;
  if (order !== 0 && sortPlainNumbers(xs, order, ctx)) return vecFrom(xs);
  xs.sort(args.length === 2 ? comparator("sort", args[0], 1) : clojureCompare);
  return vecFrom(xs);
}

function sortByImpl(args: Value[], ctx: { step(n: number): void; alloc(n: number): void }): Value {
  const kf = keyFn(args[0], "sort-by", 1, swapHint("sort-by", args));
  const xs = coll("sort-by", args, args.length - 1);
  const cmp = args.length === 3 ? comparator("sort-by", args[1], 2) : clojureCompare;
  const n = xs.length;
  ctx.step(n);
  ctx.alloc(slots(3 * n));
  const keys = new Array<Value>(n);
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    keys[i] = kf(xs[i]);
    idx[i] = i;
  }
  idx.sort((i, j) => cmp(keys[i], keys[j]));
  const out = new Array<Value>(n);
  for (let i = 0; i < n; i++) out[i] = xs[idx[i]];
  return vecFrom(out);
}

define("sequences", {
  "sort": {
    arity: [1, 2],
    args: ["[coll]", "[comp coll]"],
    doc: "Stable sort by compare (values of one kind), or by comp (:asc, :desc, or a 2-argument function).",
    fn: sortImpl,
  },
  "sort-by": {
    arity: [2, 3],
    args: ["[kf coll]", "[kf comp coll]"],
    doc: "Stable sort by (kf x); kf may be a keyword, string key, vector path or function; optional comp.",
    fn: sortByImpl,
  },
  "distinct": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Vector without duplicates, keeping the first occurrence.",
    fn: (a, ctx) => {
      noMap("distinct", a[0], 1);
      const xs = seqView(a[0], "distinct", 1);
      ctx.alloc(slots(xs.length) + entries(xs.length));
      const seen = new SetBuilder();
      const out: Value[] = [];
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i];
        const before = seen.size;
        seen.add(x);
        if (seen.size !== before) out.push(x);
      }
      return vecFrom(out);
    },
  },
  "dedupe": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Vector without consecutive duplicates.",
    fn: (a, ctx) => {
      const xs = seqView(a[0], "dedupe", 1);
      ctx.alloc(slots(xs.length));
      const out: Value[] = [];
      for (let i = 0; i < xs.length; i++) if (i === 0 || !equals(xs[i], xs[i - 1])) out.push(xs[i]);
      return vecFrom(out);
    },
  },
});
