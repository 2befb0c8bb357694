/**
 * Builtins: higher-order sequence functions (map, filter, reduce, some, take-while, …). All eager; results are vectors.
 * @module
 */

import { LispError } from "../errors.ts";
import { Keyword, LispFn, Reduced, type Value } from "../values/types.ts";
import { EMPTY_VEC, PVec, vecFrom } from "../values/vector.ts";
import { PMap } from "../values/hashmap.ts";
import { equals } from "../values/equality.ts";
import { describe, truthy } from "../values/kinds.ts";
import { seqView } from "../values/seq.ts";
import { fn1, fn2, fnN, keyFn } from "../values/fn.ts";
import { flexGet } from "../values/flex.ts";
import { define } from "./table.ts";
import { concatCharged, slots, swapHint } from "./util.ts";
import type { Meter } from "../values/expansion.ts";

/** Seq view with the "did you swap the arguments?" hint when the collection slot holds a function. */
function coll(fn: string, args: Value[], i: number): Value[] {
  const v = args[i];
  if (v instanceof PVec) return v.view();
  if ((v instanceof LispFn || v instanceof Keyword) && i > 0) {
    throw new LispError(
      "type_error",
      `${fn}: expected a function first and a collection last, got ${describe(args[0])} and ${describe(v)}; ` +
        `did you swap the arguments? Usage: (${fn} f coll)`,
    );
  }
  return seqView(v, fn, i + 1);
}

function mapImpl(fn: string, args: Value[], ctx: { alloc(n: number): void }): Value {
  const hint = swapHint(fn, args);
  if (args.length === 2) {
    const xs = coll(fn, args, 1);
    const n = xs.length;
    if (n === 0) return EMPTY_VEC;
    ctx.alloc(slots(n));
    const out = new Array<Value>(n);
    const f = args[0];
    if (f instanceof Keyword) {
      for (let i = 0; i < n; i++) out[i] = flexGet(xs[i], f, null);
    } else if (f instanceof LispFn) {
      for (let i = 0; i < n; i++) out[i] = f.call1(xs[i]);
    } else {
      const g = fn1(f, fn, 1, hint);
      for (let i = 0; i < n; i++) out[i] = g(xs[i]);
    }
    return vecFrom(out);
  }
  const g = fnN(args[0], fn, 1, hint);
  const cs: Value[][] = [];
  let n = Infinity;
  for (let i = 1; i < args.length; i++) {
    const xs = coll(fn, args, i);
    cs.push(xs);
    n = Math.min(n, xs.length);
  }
  if (n === 0) return EMPTY_VEC;
  ctx.alloc(slots(n));
  const out = new Array<Value>(n);
  for (let i = 0; i < n; i++) {
    const a = new Array<Value>(cs.length);
    for (let j = 0; j < cs.length; j++) a[j] = cs[j][i];
    out[i] = g(a);
  }
  return vecFrom(out);
}

function filterImpl(fn: string, args: Value[], keep: boolean, ctx: Meter): Value {
  const xs = coll(fn, args, 1);
  const n = xs.length;
  ctx.alloc(slots(n));
  const out: Value[] = [];
  const p = args[0];
  if (p instanceof LispFn) {
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      const r = p.call1(x);
      if ((r !== null && r !== false) === keep) out.push(x);
    }
  } else if (p instanceof Keyword) {
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      const r = flexGet(x, p, null);
      if ((r !== null && r !== false) === keep) out.push(x);
    }
  } else {
    const g = fn1(p, fn, 1, swapHint(fn, args));
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      if (truthy(g(x)) === keep) out.push(x);
    }
  }
  return out.length === n && args[1] instanceof PVec ? args[1] : vecFrom(out);
}

function noMap(fn: string, v: Value, pos: number): void {
  if (v instanceof PMap) {
    throw new LispError(
      "type_error",
      `${fn}: cannot be used directly on a map (argument ${pos}); use (seq m), keys, vals or entries first`,
    );
  }
}

define("sequences", {
  "map": {
    arity: [2, 4],
    args: ["[f coll]", "[f c1 c2]", "[f c1 c2 c3]"],
    doc: "Vector of (f x) for each item; with several collections, (f x y …) pairwise up to the shortest.",
    fn: (a, ctx) => mapImpl("map", a, ctx),
  },
  "mapv": {
    arity: [2, 4],
    args: ["[f coll]", "[f c1 c2]", "[f c1 c2 c3]"],
    doc: "Same as map (always returns a vector).",
    fn: (a, ctx) => mapImpl("mapv", a, ctx),
  },
  "filter": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "Vector of the items for which (pred x) is truthy; pred may be a function, keyword or set.",
    fn: (a, ctx) => filterImpl("filter", a, true, ctx),
  },
  "filterv": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "Same as filter.",
    fn: (a, ctx) => filterImpl("filterv", a, true, ctx),
  },
  "remove": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "Vector of the items for which (pred x) is falsy (complement of filter).",
    fn: (a, ctx) => filterImpl("remove", a, false, ctx),
  },
  "keep": {
    arity: [2, 2],
    args: ["[f coll]"],
    doc: "Vector of the non-nil results of (f x) (false is kept).",
    fn: (a, ctx) => {
      const f = fn1(a[0], "keep", 1, swapHint("keep", a));
      const xs = coll("keep", a, 1);
      const n = xs.length;
      ctx.alloc(slots(n));
      const out: Value[] = [];
      for (let i = 0; i < n; i++) {
        const r = f(xs[i]);
        if (r !== null) out.push(r);
      }
      return vecFrom(out);
    },
  },
  "keep-indexed": {
    arity: [2, 2],
    args: ["[f coll]"],
    doc: "Vector of the non-nil results of (f index x).",
    fn: (a, ctx) => {
      const f = fn2(a[0], "keep-indexed", 1, swapHint("keep-indexed", a));
      const xs = coll("keep-indexed", a, 1);
      const n = xs.length;
      ctx.alloc(slots(n));
      const out: Value[] = [];
      for (let i = 0; i < n; i++) {
        const r = f(i, xs[i]);
        if (r !== null) out.push(r);
      }
      return vecFrom(out);
    },
  },
  "map-indexed": {
    arity: [2, 2],
    args: ["[f coll]"],
    doc: "Vector of (f index x) for each item.",
    fn: (a, ctx) => {
      const f = fn2(a[0], "map-indexed", 1, swapHint("map-indexed", a));
      const xs = coll("map-indexed", a, 1);
      const n = xs.length;
      ctx.alloc(slots(n));
      const out = new Array<Value>(n);
      for (let i = 0; i < n; i++) out[i] = f(i, xs[i]);
      return vecFrom(out);
    },
  },
  "mapcat": {
    arity: [2, 2],
    args: ["[f coll]"],
    doc: "Map f over coll and concatenate the resulting collections (nil results are skipped).",
    fn: (a, ctx) => {
      const f = fn1(a[0], "mapcat", 1, swapHint("mapcat", a));
      const xs = coll("mapcat", a, 1);
      const n = xs.length;
      // f may return the same big collection for every item: gather the results, charge their total, then copy.
      ctx.alloc(slots(n));
      const parts: Value[][] = [];
      for (let i = 0; i < n; i++) {
        const r = f(xs[i]);
        if (r === null) continue;
        parts.push(r instanceof PVec ? r.view() : seqView(r, "mapcat (result of f)", 1));
      }
      return concatCharged(parts, ctx);
    },
  },
  "reduce": {
    arity: [2, 3],
    args: ["[f coll]", "[f init coll]"],
    doc: "Left fold: (f (f init x1) x2)…; without init the first item seeds it; empty coll → init, else (f) " +
      "when f takes no arguments ((reduce + []) is 0), else nil.",
    fn: (a) => {
      const f = a[0];
      const hint = swapHint("reduce", a);
      const xs = coll("reduce", a, a.length - 1);
      const n = xs.length;
      let acc: Value;
      let i = 0;
      if (a.length === 3) acc = a[1];
      else {
        if (n === 0) {
          fn2(f, "reduce", 1, hint);
          return reduceNothing(f);
        }
        acc = xs[0];
        i = 1;
      }
      if (f instanceof LispFn) {
        for (; i < n; i++) if ((acc = f.call2(acc, xs[i])) instanceof Reduced) return acc.v;
        return acc;
      }
      const g = fn2(f, "reduce", 1, hint);
      for (; i < n; i++) if ((acc = g(acc, xs[i])) instanceof Reduced) return acc.v;
      return acc;
    },
  },
  "some": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "First truthy (pred x) value, else nil (a keyword pred returns the field value).",
    fn: (a) => {
      const p = fn1(a[0], "some", 1, swapHint("some", a));
      const xs = coll("some", a, 1);
      const n = xs.length;
      for (let i = 0; i < n; i++) {
        const r = p(xs[i]);
        if (r !== null && r !== false) return r;
      }
      return null;
    },
  },
  "every?": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "True when (pred x) is truthy for every item (true for an empty coll).",
    fn: (a) => {
      const p = fn1(a[0], "every?", 1, swapHint("every?", a));
      const xs = coll("every?", a, 1);
      const n = xs.length;
      for (let i = 0; i < n; i++) if (!truthy(p(xs[i]))) return false;
      return true;
    },
  },
  "not-any?": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "True when (pred x) is falsy for every item.",
    fn: (a) => {
      const p = fn1(a[0], "not-any?", 1, swapHint("not-any?", a));
      const xs = coll("not-any?", a, 1);
      const n = xs.length;
      for (let i = 0; i < n; i++) if (truthy(p(xs[i]))) return false;
      return true;
    },
  },
  "not-every?": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "True when (pred x) is falsy for at least one item.",
    fn: (a) => {
      const p = fn1(a[0], "not-every?", 1, swapHint("not-every?", a));
      const xs = coll("not-every?", a, 1);
      const n = xs.length;
      for (let i = 0; i < n; i++) if (!truthy(p(xs[i]))) return true;
      return false;
    },
  },
  "take-while": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "Vector of the leading items for which (pred x) is truthy.",
    fn: (a, ctx) => {
      const p = fn1(a[0], "take-while", 1, swapHint("take-while", a));
      const xs = coll("take-while", a, 1);
      let i = 0;
      while (i < xs.length && truthy(p(xs[i]))) i++;
      if (a[1] instanceof PVec) return a[1].slice(0, i);
      ctx.alloc(slots(i));
      return vecFrom(xs.slice(0, i));
    },
  },
  "drop-while": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "Vector of the items after the leading run for which (pred x) is truthy.",
    fn: (a, ctx) => {
      const p = fn1(a[0], "drop-while", 1, swapHint("drop-while", a));
      const xs = coll("drop-while", a, 1);
      let i = 0;
      while (i < xs.length && truthy(p(xs[i]))) i++;
      if (a[1] instanceof PVec) return a[1].slice(i, a[1].n);
      ctx.alloc(slots(xs.length - i));
      return vecFrom(xs.slice(i));
    },
  },
  "split-with": {
    arity: [2, 2],
    args: ["[pred coll]"],
    doc: "[(take-while pred coll) (drop-while pred coll)].",
    fn: (a, ctx) => {
      const p = fn1(a[0], "split-with", 1, swapHint("split-with", a));
      const xs = coll("split-with", a, 1);
      let i = 0;
      while (i < xs.length && truthy(p(xs[i]))) i++;
      const v = a[1];
      if (v instanceof PVec) return vecFrom([v.slice(0, i), v.slice(i, v.n)]);
      ctx.alloc(slots(xs.length));
      return vecFrom([vecFrom(xs.slice(0, i)), vecFrom(xs.slice(i))]);
    },
  },
  "partition-by": {
    arity: [2, 2],
    args: ["[f coll]"],
    doc: "Split coll into runs, starting a new run each time (f x) changes.",
    fn: (a, ctx) => {
      const f = keyFn(a[0], "partition-by", 1, swapHint("partition-by", a));
      const xs = coll("partition-by", a, 1);
      ctx.alloc(2 * slots(xs.length));
      const out: Value[] = [];
      let cur: Value[] = [];
      let last: Value = null;
      for (let i = 0; i < xs.length; i++) {
        const k = f(xs[i]);
        if (i > 0 && !equals(k, last)) {
          out.push(vecFrom(cur));
          cur = [];
        }
        cur.push(xs[i]);
        last = k;
      }
      if (cur.length > 0) out.push(vecFrom(cur));
      return vecFrom(out);
    },
  },
});

export { coll as collArg, noMap };

/**
 * `(reduce f [])` without init: like Clojure, the value of `(f)` (`+` → 0, `str` → "", `conj` → []), so
 * `(+ 1 (reduce + []))` works; a function that needs arguments raises its arity error, as in Clojure.
 */
function reduceNothing(f: Value): Value {
  if (f instanceof LispFn) return f.call([]);
  throw new LispError(
    "arity_error",
    `reduce: the collection is empty and there is no init, so ${describe(f)} would be called with no arguments; ` +
      "pass an init value: (reduce f init coll)",
  );
}
