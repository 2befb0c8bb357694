/**
 * Builtins: aggregation (sum, avg, *-by, frequencies, group-by, min-key/max-key).
 * @module
 */

import { LispError } from "../errors.ts";
import { LFloat, type Value } from "../values/types.ts";
import { MapBuilder, NOT_FOUND, SetBuilder } from "../values/hashmap.ts";
import { compare } from "../values/compare.ts";
import { describe } from "../values/kinds.ts";
import { seqView } from "../values/seq.ts";
import { fn1, keyFn } from "../values/fn.ts";
import { add, float, type Num, numCompare, toNumber } from "../values/numbers.ts";
import { vecFrom } from "../values/vector.ts";
import { define } from "./table.ts";
import { entries, ENTRY_BYTES, slots, swapHint } from "./util.ts";
import { collArg } from "./seq.ts";

function isNum(v: Value): v is Num {
  return typeof v === "number" || typeof v === "bigint" || v instanceof LFloat;
}

function notNumber(fn: string, v: Value, i: number): never {
  throw new LispError(
    "arithmetic_error",
    `${fn}: cannot add ${describe(v)} (item ${i}); only numbers (or nil) can be summed`,
  );
}

/** Left-fold sum of the non-nil values (ints exact, float contagion); raises on non-numbers. */
function sumValue(fn: string, xs: Value[], kf: ((x: Value) => Value) | null): { total: Num; count: number } {
  let total: Num = 0;
  let count = 0;
  for (let i = 0; i < xs.length; i++) {
    const v = kf === null ? xs[i] : kf(xs[i]);
    if (v === null) continue;
    if (typeof v === "number" && typeof total === "number") {
      const r: number = total + v;
      if (Number.isInteger(r) || !Number.isFinite(r)) total = add(total, v);
      else total = r;
    } else {
      if (!isNum(v)) notNumber(fn, v, i);
      total = add(total, v);
    }
    count++;
  }
  return { total, count };
}

function extremeBy(fn: string, a: Value[], sign: 1 | -1): Value {
  const kf = keyFn(a[0], fn, 1, swapHint(fn, a));
  const xs = a.length === 2 ? collArg(fn, a, 1) : a.slice(1);
  let best: Value = null;
  let bestKey: Value = null;
  let found = false;
  for (let i = 0; i < xs.length; i++) {
    const k = kf(xs[i]);
    if (k === null) continue;
    if (!found || sign * compare(k, bestKey) > 0) {
      best = xs[i];
      bestKey = k;
      found = true;
    }
  }
  return best;
}

/**
 * `max-key`/`min-key` as Clojure defines them: the keys must be numbers, and of equal keys the LAST argument wins
 * (`(max-key count "a" "b")` is `"b"`); a NaN key never wins a comparison.
 */
function extremeKey(fn: string, a: Value[], sign: 1 | -1): Value {
  const f = fn1(a[0], fn, 1);
  if (a.length === 2) return a[1]; // Clojure: ([k x] x), the key is never computed
  const key = (x: Value, i: number): Num => {
    const k = f(x);
    if (!isNum(k)) {
      throw new LispError(
        "type_error",
        `${fn}: the key of argument ${i + 1} is ${describe(k)}, not a number (use ${
          sign > 0 ? "max-by" : "min-by"
        } to rank by any value)`,
      );
    }
    return k;
  };
  let best = a[1];
  let bestKey = key(best, 1);
  for (let i = 2; i < a.length; i++) {
    const k = key(a[i], i);
    const c = sign * numCompare(k, bestKey);
    if (i === 2 ? !(c < 0) : c >= 0) { // Clojure: (if (> kx ky) x y), then (>= kx kv) over the rest
      best = a[i];
      bestKey = k;
    }
  }
  return best;
}

define("aggregation", {
  "sum": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Sum of the numbers in coll (nil items skipped; empty → 0).",
    fn: (a) => sumValue("sum", seqView(a[0], "sum", 1), null).total,
  },
  "avg": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Mean of the numbers in coll as a float (nil items skipped); empty → nil.",
    fn: (a) => {
      const { total, count } = sumValue("avg", seqView(a[0], "avg", 1), null);
      return count === 0 ? null : float(toNumber(total) / count);
    },
  },
  "sum-by": {
    arity: [2, 2],
    args: ["[kf coll]"],
    doc: "Sum of (kf x) over coll (nil/missing skipped).",
    fn: (a) => sumValue("sum-by", collArg("sum-by", a, 1), keyFn(a[0], "sum-by", 1, swapHint("sum-by", a))).total,
  },
  "avg-by": {
    arity: [2, 2],
    args: ["[kf coll]"],
    doc: "Float mean of (kf x) over coll (nil/missing skipped and not counted); empty → nil.",
    fn: (a) => {
      const { total, count } = sumValue(
        "avg-by",
        collArg("avg-by", a, 1),
        keyFn(a[0], "avg-by", 1, swapHint("avg-by", a)),
      );
      return count === 0 ? null : float(toNumber(total) / count);
    },
  },
  "min-by": {
    arity: [2, Infinity],
    args: ["[kf coll]", "[kf x y & more]"],
    doc: "The item with the smallest (kf x) (nil keys skipped; ties → first); empty → nil.",
    fn: (a) => extremeBy("min-by", a, -1),
  },
  "max-by": {
    arity: [2, Infinity],
    args: ["[kf coll]", "[kf x y & more]"],
    doc: "The item with the largest (kf x) (nil keys skipped; ties → first); empty → nil.",
    fn: (a) => extremeBy("max-by", a, 1),
  },
  "min-key": {
    arity: [2, Infinity],
    args: ["[f x & more]"],
    doc: "The argument x with the smallest number (f x) (ties → the last).",
    fn: (a) => extremeKey("min-key", a, -1),
  },
  "max-key": {
    arity: [2, Infinity],
    args: ["[f x & more]"],
    doc: "The argument x with the largest number (f x) (ties → the last).",
    fn: (a) => extremeKey("max-key", a, 1),
  },
  "distinct-by": {
    arity: [2, 2],
    args: ["[kf coll]"],
    doc: "The first item for each distinct (kf x).",
    fn: (a, ctx) => {
      const kf = keyFn(a[0], "distinct-by", 1, swapHint("distinct-by", a));
      const xs = collArg("distinct-by", a, 1);
      ctx.alloc(slots(xs.length) + entries(xs.length));
      const seen = new SetBuilder();
      const out: Value[] = [];
      for (let i = 0; i < xs.length; i++) {
        const before = seen.size;
        seen.add(kf(xs[i]));
        if (seen.size !== before) out.push(xs[i]);
      }
      return vecFrom(out);
    },
  },
  "frequencies": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Map from each distinct item to its number of occurrences.",
    fn: (a, ctx) => {
      const xs = seqView(a[0], "frequencies", 1);
      // Charged as the map grows, each new entry before it is stored.
      const b = new MapBuilder();
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i];
        const c = b.get(x, NOT_FOUND);
        if (c === NOT_FOUND) ctx.alloc(ENTRY_BYTES);
        b.set(x, c === NOT_FOUND ? 1 : (c as number) + 1);
      }
      return b.build();
    },
  },
  "group-by": {
    arity: [2, 2],
    args: ["[kf coll]"],
    doc: "Map from each (kf x) to the vector of items with that key (input order kept).",
    fn: (a, ctx) => {
      const kf = keyFn(a[0], "group-by", 1, swapHint("group-by", a));
      const xs = collArg("group-by", a, 1);
      // Groups accumulate in plain arrays (no wrapper per item), then become vectors in one pass; every item's slot
      // is charged up front, every group (an entry in two maps and a vector) before it is created.
      ctx.alloc(slots(xs.length));
      const b = new MapBuilder();
      const groups: Value[][] = [];
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i];
        const k = kf(x);
        const gi = b.get(k, NOT_FOUND);
        if (gi === NOT_FOUND) {
          ctx.alloc(2 * ENTRY_BYTES + slots(0));
          b.set(k, groups.length);
          groups.push([x]);
        } else groups[gi as number].push(x);
      }
      const out = new MapBuilder();
      b.build().forEach((k, gi) => out.set(k, vecFrom(groups[gi as number])));
      return out.build();
    },
  },
});
