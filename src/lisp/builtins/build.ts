/**
 * Builtins: building and regrouping collections (vector, concat, conj, into, partition, range, set, …).
 * @module
 */

import { LispError } from "../errors.ts";
import type { Value } from "../values/types.ts";
import { EMPTY_VEC, PVec, vecFrom } from "../values/vector.ts";
import { MapBuilder, PMap, PSet, SetBuilder } from "../values/hashmap.ts";
import { describe } from "../values/kinds.ts";
import { seqView } from "../values/seq.ts";
import { add, type Num, numCompare, toNumber } from "../values/numbers.ts";
import { type BuiltinContext, define } from "./table.ts";
import { argError, concatCharged, entries, intArg, nested, numArg, slots } from "./util.ts";
import { countArg, positional } from "./colls.ts";

function sizeOf(c: Value): number {
  return c instanceof PMap || c instanceof PSet ? c.size : 0;
}

/** conj one item onto a collection. */
export function conj1(fn: string, c: Value, x: Value): Value {
  if (c instanceof PVec) return c.conj(x);
  if (c === null) return vecFrom([x]);
  if (c instanceof PSet) return c.add(x);
  if (c instanceof PMap) {
    if (x instanceof PVec && x.n === 2) return c.assoc(x.at(0), x.at(1));
    if (x instanceof PMap) {
      let m = c;
      x.forEach((k, v) => {
        m = m.assoc(k, v);
      });
      return m;
    }
    if (x === null) return c;
    throw new LispError("type_error", `${fn}: a map can only take [k v] pairs or maps, got ${describe(x)}`);
  }
  return argError(fn, 1, "a vector, map, set or nil", c);
}

/** `(into to from)`: bulk insert with transient builders. */
export function intoImpl(to: Value, from: Value, alloc: (n: number) => void): Value {
  const xs = seqView(from, "into", 2);
  const n = xs.length;
  alloc(to instanceof PMap || to instanceof PSet ? slots(2) + entries(n) : slots(n));
  if (to instanceof PVec) return n === 0 ? to : to.conjAll(xs, n);
  if (to === null) return vecFrom(xs.slice());
  if (to instanceof PSet) {
    const b = new SetBuilder(to);
    for (let i = 0; i < n; i++) b.add(xs[i]);
    return b.build();
  }
  if (to instanceof PMap) {
    if (n === 0) return to;
    const b = MapBuilder.from(to);
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      if (x instanceof PVec && x.n === 2) b.set(x.at(0), x.at(1));
      else if (x instanceof PMap) x.forEach((k, v) => b.set(k, v));
      else if (x !== null) {
        throw new LispError("type_error", `into: a map target needs [k v] pairs, got ${describe(x)} at index ${i}`);
      }
    }
    return b.build();
  }
  return argError("into", 1, "a vector, map, set or nil", to);
}

function flattenInto(v: PVec, out: Value[]): void {
  for (let i = 0; i < v.n; i++) {
    const x = v.at(i);
    if (x instanceof PVec) flattenInto(x, out);
    else out.push(x);
  }
}

/**
 * Charge for the result of `flatten` before it is built: nested vectors may share structure, so the leaves are
 * counted first, each vector visited charged a step per item and each leaf its slot as it is found.
 */
function chargeFlat(v: PVec, ctx: { step(n: number): void; alloc(bytes: number): void }): void {
  const stack: PVec[] = [v];
  ctx.alloc(slots(0));
  while (stack.length > 0) {
    const x = stack.pop()!;
    let leaves = 0;
    for (let i = 0; i < x.n; i++) {
      const y = x.at(i);
      if (y instanceof PVec) stack.push(y);
      else leaves++;
    }
    ctx.alloc(8 * leaves);
    ctx.step(1 + x.n);
  }
}

function partitionImpl(fn: string, a: Value[], all: boolean, ctx: BuiltinContext): Value {
  const n = intArg(fn, a, 0);
  const xs = seqView(a[a.length - 1], fn, a.length);
  let step = n;
  let pad: Value[] | null = null;
  if (a.length >= 3) step = intArg(fn, a, 1);
  if (a.length === 4) pad = seqView(a[2], fn, 3);
  if (n <= 0) return argError(fn, 1, "a positive integer", a[0]);
  if (step <= 0) return argError(fn, 2, "a positive integer step", a[1]);
  // Overlapping windows (step < n) copy each item up to n/step times: charge all chunks before building them.
  const chunks = Math.ceil(xs.length / step);
  ctx.alloc(nested(chunks, Math.min(n, xs.length)));
  ctx.step(chunks);
  const out: Value[] = [];
  for (let i = 0; i < xs.length; i += step) {
    const chunk = xs.slice(i, i + n);
    if (chunk.length < n) {
      if (all) out.push(vecFrom(chunk));
      else if (pad !== null) {
        for (let j = 0; chunk.length < n && j < pad.length; j++) chunk.push(pad[j]);
        out.push(vecFrom(chunk));
      }
      break;
    }
    out.push(vecFrom(chunk));
  }
  return vecFrom(out);
}

function rangeImpl(a: Value[], alloc: (n: number) => void): Value {
  const nums = a.map((_, i) => numArg("range", a, i));
  let start: Num = 0, end: Num, step: Num = 1;
  if (a.length === 1) end = nums[0];
  else {
    start = nums[0];
    end = nums[1];
    if (a.length === 3) step = nums[2];
  }
  const s = numCompare(step, 0);
  if (s === 0) {
    throw new LispError("type_error", "range: step must not be zero (a zero step would never reach the end)");
  }
  if (
    typeof start === "number" && typeof end === "number" && typeof step === "number" && Number.isInteger(start) &&
    Number.isInteger(step)
  ) {
    const count = Math.max(0, Math.ceil((end - start) / step));
    alloc(slots(count));
    const out = new Array<Value>(count);
    for (let i = 0; i < count; i++) out[i] = start + i * step;
    return vecFrom(out);
  }
  const out: Value[] = [];
  let x: Num = start;
  const total = Math.max(0, Math.ceil((toNumber(end) - toNumber(start)) / toNumber(step)));
  alloc(slots(total));
  for (let i = 0; i < total; i++) {
    out.push(x);
    x = add(x, step);
  }
  return vecFrom(out);
}

/** C(n, k) as a float (Infinity once it no longer fits). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const m = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= m && Number.isFinite(c); i++) c = (c * (n - m + i)) / i;
  return Math.round(c);
}

function combos(xs: Value[], k: number): Value {
  const out: Value[] = [];
  const cur: Value[] = [];
  const rec = (start: number) => {
    if (cur.length === k) {
      out.push(vecFrom(cur.slice()));
      return;
    }
    for (let i = start; i <= xs.length - (k - cur.length); i++) {
      cur.push(xs[i]);
      rec(i + 1);
      cur.pop();
    }
  };
  if (k <= xs.length) rec(0);
  return vecFrom(out);
}

define("sequences", {
  "vector": {
    arity: [0, Infinity],
    args: ["[& items]"],
    doc: "A vector of the arguments.",
    fn: (a, ctx) => {
      ctx.alloc(slots(a.length));
      return vecFrom(a.slice());
    },
  },
  "list": {
    arity: [0, Infinity],
    args: ["[& items]"],
    doc: "A vector of the arguments (there is no list type).",
    fn: (a, ctx) => {
      ctx.alloc(slots(a.length));
      return vecFrom(a.slice());
    },
  },
  "concat": {
    arity: [0, Infinity],
    args: ["[& colls]"],
    doc: "One vector of all items of the collections (nil ignored; strings raise).",
    fn: (a, ctx) => {
      const parts: Value[][] = [];
      for (let i = 0; i < a.length; i++) {
        const c = a[i];
        if (typeof c === "string") return argError("concat", i + 1, "a collection", c, "; use str to join strings");
        parts.push(seqView(c, "concat", i + 1));
      }
      return concatCharged(parts, ctx);
    },
  },
  "cons": {
    arity: [2, 2],
    args: ["[x coll]"],
    doc: "A vector with x before the items of coll.",
    fn: (a, ctx) => {
      const xs = seqView(a[1], "cons", 2);
      ctx.alloc(slots(xs.length + 1));
      const out = new Array<Value>(xs.length + 1);
      out[0] = a[0];
      for (let i = 0; i < xs.length; i++) out[i + 1] = xs[i];
      return vecFrom(out);
    },
  },
  "conj": {
    arity: [1, Infinity],
    args: ["[coll x]", "[coll x & xs]"],
    doc: "Add items: vectors append, sets add, maps take [k v] pairs; nil becomes a vector.",
    fn: (a, ctx) => {
      let c = a[0];
      if (a.length === 1) return c;
      for (let i = 1; i < a.length; i++) c = conj1("conj", c, a[i]);
      if (c instanceof PMap || c instanceof PSet) ctx.alloc(entries(c.size - sizeOf(a[0])));
      else ctx.alloc(slots(a.length - 1));
      return c;
    },
  },
  "into": {
    arity: [2, 2],
    args: ["[to from]"],
    doc: "Pour the items of from into to (vector, set or map; a map target takes [k v] pairs).",
    fn: (a, ctx) => {
      // Clojure: (into nil nil) and (into nil []) are nil (nothing was added to nil).
      if (a[0] === null && (a[1] === null || (a[1] instanceof PVec && a[1].n === 0))) return null;
      return intoImpl(a[0], a[1], (n) => ctx.alloc(n));
    },
  },
  "flatten": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Recursively flatten nested vectors into one vector (maps, sets and strings stay whole).",
    fn: (a, ctx) => {
      const v = a[0];
      if (v === null) return EMPTY_VEC;
      if (!(v instanceof PVec)) return EMPTY_VEC;
      // Nested vectors may share structure: count (charging each visit) before building the flat result.
      chargeFlat(v, ctx);
      const out: Value[] = [];
      flattenInto(v, out);
      return vecFrom(out);
    },
  },
  "interleave": {
    arity: [0, Infinity],
    args: ["[& colls]"],
    doc: "First items of each coll, then second items, … until the shortest runs out.",
    fn: (a, ctx) => {
      if (a.length === 0) return EMPTY_VEC;
      const cs = a.map((c, i) => positional("interleave", c, i + 1));
      const n = Math.min(...cs.map((c) => c.length));
      ctx.alloc(slots(n * cs.length));
      const out: Value[] = [];
      for (let i = 0; i < n; i++) for (const c of cs) out.push(c[i]);
      return vecFrom(out);
    },
  },
  "interpose": {
    arity: [2, 2],
    args: ["[sep coll]"],
    doc: "The items with sep between each pair.",
    fn: (a, ctx) => {
      const xs = positional("interpose", a[1], 2);
      ctx.alloc(slots(2 * xs.length));
      const out: Value[] = [];
      for (let i = 0; i < xs.length; i++) {
        if (i > 0) out.push(a[0]);
        out.push(xs[i]);
      }
      return vecFrom(out);
    },
  },
  "partition": {
    arity: [2, 4],
    args: ["[n coll]", "[n step coll]", "[n step pad coll]"],
    doc: "Chunks of n items every step items; an incomplete tail is dropped unless pad is given.",
    fn: (a, ctx) => partitionImpl("partition", a, false, ctx),
  },
  "partition-all": {
    arity: [2, 3],
    args: ["[n coll]", "[n step coll]"],
    doc: "Chunks of n items (every step items), keeping an incomplete tail.",
    fn: (a, ctx) => partitionImpl("partition-all", a, true, ctx),
  },
  "split-at": {
    arity: [2, 2],
    args: ["[n coll]"],
    doc: "[(take n coll) (drop n coll)] (negative n counts as 0).",
    fn: (a, ctx) => {
      const n = Math.max(0, countArg("split-at", a, 0));
      const v = a[1];
      if (v instanceof PVec) return vecFrom([v.slice(0, n), v.slice(n, v.n)]);
      const xs = seqView(v, "split-at", 2);
      ctx.alloc(slots(xs.length));
      return vecFrom([vecFrom(xs.slice(0, n)), vecFrom(xs.slice(n))]);
    },
  },
  "peek": {
    arity: [1, 1],
    args: ["[v]"],
    doc: "Last item of a vector, nil when empty.",
    fn: (a) => {
      const v = a[0];
      if (v === null) return null;
      if (!(v instanceof PVec)) return argError("peek", 1, "a vector", v);
      return v.n > 0 ? v.at(v.n - 1) : null;
    },
  },
  "pop": {
    arity: [1, 1],
    args: ["[v]"],
    doc: "A vector without its last item; (pop nil) is nil, (pop []) raises as in Clojure.",
    fn: (a) => {
      const v = a[0];
      if (v === null) return null;
      if (!(v instanceof PVec)) return argError("pop", 1, "a vector", v);
      if (v.n === 0) {
        throw new LispError("type_error", "pop: the vector is empty (Clojure raises); check (seq v) first");
      }
      return v.slice(0, v.n - 1);
    },
  },
  "subvec": {
    arity: [2, 3],
    args: ["[v start]", "[v start end]"],
    doc: "Slice of a vector from start to end (0 ≤ start ≤ end ≤ count, else it raises as in Clojure).",
    fn: (a) => {
      const v = a[0];
      const xs = v instanceof PVec ? v : v === null ? EMPTY_VEC : argError("subvec", 1, "a vector", v);
      const s = intArg("subvec", a, 1);
      const e = a.length === 3 ? intArg("subvec", a, 2) : xs.n;
      if (s < 0 || e > xs.n || s > e) {
        throw new LispError(
          "type_error",
          `subvec: ${s}..${e} is out of range for ${describe(xs)}; clamp first, e.g. (subvec v s (min e (count v)))`,
        );
      }
      return xs.slice(s, e);
    },
  },
  "range": {
    arity: [1, 3],
    args: ["[end]", "[start end]", "[start end step]"],
    doc: "Vector of numbers from start (default 0) below end by step (default 1).",
    fn: (a, ctx) => rangeImpl(a, (n) => ctx.alloc(n)),
  },
  "repeat": {
    arity: [1, 2],
    args: ["[n x]"],
    doc: "A vector of n copies of x. (There are no infinite sequences: (repeat x) needs a count.)",
    fn: (a, ctx) => {
      if (a.length === 1) {
        throw new LispError(
          "arity_error",
          "repeat: (repeat x) would be an infinite sequence, which PTC-Lisp does not have; give a count: (repeat n x)",
        );
      }
      const n = Math.max(0, intArg("repeat", a, 0));
      ctx.alloc(slots(n));
      return n === 0 ? EMPTY_VEC : vecFrom(new Array<Value>(n).fill(a[1]));
    },
  },
  "combinations": {
    arity: [2, 2],
    args: ["[coll n]"],
    doc: "All n-item combinations in order ([[]] for n = 0, [] when n > count).",
    fn: (a, ctx) => {
      const xs = seqView(a[0], "combinations", 1);
      const k = intArg("combinations", a, 1);
      if (k < 0) return argError("combinations", 2, "a non-negative integer", a[1]);
      // Charged for the whole result before any of it is built: C(n, k) vectors of k items.
      const count = binomial(xs.length, k);
      ctx.alloc(nested(count, k));
      ctx.step(count * Math.max(1, k));
      return combos(xs, k);
    },
  },
  "zip": {
    arity: [2, 2],
    args: ["[c1 c2]"],
    doc: "Vector of [a b] pairs up to the shorter collection.",
    fn: (a, ctx) => {
      const xs = seqView(a[0], "zip", 1);
      const ys = seqView(a[1], "zip", 2);
      const n = Math.min(xs.length, ys.length);
      ctx.alloc(nested(n, 2));
      const out = new Array<Value>(n);
      for (let i = 0; i < n; i++) out[i] = vecFrom([xs[i], ys[i]]);
      return vecFrom(out);
    },
  },
});
