/**
 * Builtins: positional access and slicing (first, nth, rest, take, drop, reverse, count, seq, vec, …).
 * @module
 */

import { LispError } from "../errors.ts";
import { LFloat, type Value } from "../values/types.ts";
import { EMPTY_VEC, PVec, vecFrom } from "../values/vector.ts";
import { EMPTY_MAP, EMPTY_SET, PMap, PSet } from "../values/hashmap.ts";
import { seqView } from "../values/seq.ts";
import { gAt, gCount } from "../values/strings.ts";
import { describe } from "../values/kinds.ts";
import { define } from "./table.ts";
import { argError, slots } from "./util.ts";
import { noMap } from "./seq.ts";

function noSet(fn: string, v: Value, pos: number): void {
  if (v instanceof PSet) {
    throw new LispError(
      "type_error",
      `${fn}: sets have no order, so ${fn} cannot be used on a set (argument ${pos}); use (sort s) or (vec s) first`,
    );
  }
}

/** Functions that have no meaning on an unordered set (docs/language.md §2). */
const SET_POSITIONAL = new Set(["first", "second", "last", "nth", "ffirst", "fnext", "take"]);

/** Seq view for positional ops: maps raise; sets raise for the element-picking functions. */
export function positional(fn: string, v: Value, pos: number): Value[] {
  if (v instanceof PVec) return v.view();
  noMap(fn, v, pos);
  if (SET_POSITIONAL.has(fn)) noSet(fn, v, pos);
  return seqView(v, fn, pos);
}

function nthOf(fn: string, v: Value, i: number): Value | undefined {
  if (v instanceof PVec) return i >= 0 && i < v.n ? v.at(i) : undefined;
  if (v === null) return undefined;
  if (typeof v === "string") return gAt(v, i);
  noMap(fn, v, 1);
  noSet(fn, v, 1);
  return argError(fn, 1, "a vector or string", v);
}

function firstOf(v: Value): Value {
  return nthOf("first", v, 0) ?? null;
}

function nextOf(fn: string, v: Value): PVec | null {
  if (v instanceof PVec) return v.n <= 1 ? null : v.slice(1, v.n);
  const xs = positional(fn, v, 1);
  return xs.length <= 1 ? null : vecFrom(xs.slice(1));
}

/**
 * `v` as a vector for slicing: vectors as they are (slices share their backing array, O(1)), other collections
 * copied from their seq view.
 */
export function sliceable(v: Value, fn: string, pos: number): PVec {
  return v instanceof PVec ? v : vecFrom(seqView(v, fn, pos).slice());
}

function countOf(v: Value, fn = "count"): number {
  if (v instanceof PVec) return v.n;
  if (v === null) return 0;
  if (typeof v === "string") return gCount(v);
  if (v instanceof PMap || v instanceof PSet) return v.size;
  return argError(fn, 1, "a collection or string", v);
}

/** Number of items of a collection (nil → 0, strings in graphemes). */
export { countOf };

/** n from a count argument (integers; integral floats accepted). */
export function countArg(fn: string, a: Value[], i: number): number {
  const v = a[i];
  // Clojure counts a fractional n down while it is positive, so 1.5 takes (or drops) two items.
  if (typeof v === "number" && Number.isFinite(v)) return Math.ceil(v) + 0;
  if (v instanceof LFloat) return v.v;
  if (typeof v === "bigint") return v > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  return argError(
    fn,
    i + 1,
    "a number",
    v,
    v !== null && typeof v === "object" ? `; did you swap the arguments? Usage: (${fn} n coll)` : "",
  );
}

/** Clojure's `take`: a count of zero or less takes nothing (never "from the end" — that is `take-last`). */
function takeImpl(n: number, v: PVec): PVec {
  return v.slice(0, Math.max(0, n));
}

/** Clojure's `drop`: a count of zero or less drops nothing (never "from the end" — that is `drop-last`). */
function dropImpl(n: number, v: PVec): PVec {
  return v.slice(Math.max(0, n), v.n);
}

define("sequences", {
  "first": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "First item or nil (strings give a 1-character string; maps and sets raise).",
    fn: (a) => firstOf(a[0]),
  },
  "second": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Second item or nil.",
    fn: (a) => nthOf("second", a[0], 1) ?? null,
  },
  "last": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Last item or nil.",
    fn: (a) => {
      const v = a[0];
      if (v instanceof PVec) return v.n > 0 ? v.at(v.n - 1) : null;
      const xs = positional("last", v, 1);
      return xs.length > 0 ? xs[xs.length - 1] : null;
    },
  },
  "ffirst": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "(first (first coll)).",
    fn: (a) => firstOf(firstOf(a[0])),
  },
  "fnext": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "(first (next coll)).",
    fn: (a) => nthOf("fnext", a[0], 1) ?? null,
  },
  "nfirst": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "(next (first coll)).",
    fn: (a) => nextOf("nfirst", firstOf(a[0])),
  },
  "nnext": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "(next (next coll)).",
    fn: (a) => {
      const n = nextOf("nnext", a[0]);
      return n === null ? null : nextOf("nnext", n);
    },
  },
  "nth": {
    arity: [2, 3],
    args: ["[coll index]", "[coll index not-found]"],
    doc: "Item at index of a vector or string; out of range raises unless not-found is given ((nth nil i) is nil).",
    fn: (a) => {
      const i = a[1];
      if (typeof i !== "number" || !Number.isInteger(i)) {
        return argError(
          "nth",
          2,
          "an integer index",
          i,
          i instanceof PVec ? "; did you swap the arguments? Usage: (nth coll index)" : "",
        );
      }
      const c = a[0];
      const len = c instanceof PVec ? c.n : typeof c === "string" ? gCount(c) : -1;
      if (len >= 0 && (i < 0 || i >= len)) {
        if (a.length === 3) return a[2];
        throw new LispError(
          "type_error",
          `nth: index ${i} is out of range for ${describe(c)}; pass a default, (nth coll i nil), or use get`,
        );
      }
      return nthOf("nth", c, i) ?? (a.length === 3 ? a[2] : null);
    },
  },
  "rest": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "All but the first item, as a vector ([] when none).",
    fn: (a) => {
      const v = a[0];
      if (v instanceof PVec) return v.n <= 1 ? EMPTY_VEC : v.slice(1, v.n);
      const xs = positional("rest", v, 1);
      return xs.length <= 1 ? EMPTY_VEC : vecFrom(xs.slice(1));
    },
  },
  "next": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "All but the first item, or nil when that is empty.",
    fn: (a) => nextOf("next", a[0]),
  },
  "butlast": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "All but the last item, or nil when that is empty.",
    fn: (a) => {
      const v = a[0];
      if (v instanceof PVec) return v.n <= 1 ? null : v.slice(0, v.n - 1);
      const xs = positional("butlast", v, 1);
      return xs.length <= 1 ? null : vecFrom(xs.slice(0, -1));
    },
  },
  "take": {
    arity: [2, 2],
    args: ["[n coll]"],
    doc: "First n items as a vector (n <= 0 gives []; use take-last for the end; maps give entries; sets raise).",
    fn: (a) => {
      noSet("take", a[1], 2);
      return takeImpl(countArg("take", a, 0), sliceable(a[1], "take", 2));
    },
  },
  "drop": {
    arity: [2, 2],
    args: ["[n coll]"],
    doc: "All but the first n items (n <= 0 drops nothing; use drop-last for the end).",
    fn: (a) => dropImpl(countArg("drop", a, 0), sliceable(a[1], "drop", 2)),
  },
  "take-last": {
    arity: [2, 2],
    args: ["[n coll]"],
    doc: "Last n items; nil when the result would be empty.",
    fn: (a) => {
      const n = countArg("take-last", a, 0);
      const xs = sliceable(a[1], "take-last", 2);
      if (n <= 0 || xs.n === 0) return null;
      return xs.slice(xs.n - n, xs.n);
    },
  },
  "drop-last": {
    arity: [1, 2],
    args: ["[coll]", "[n coll]"],
    doc: "All but the last n items (default 1).",
    fn: (a) => {
      const n = a.length === 2 ? countArg("drop-last", a, 0) : 1;
      const xs = sliceable(a[a.length - 1], "drop-last", a.length);
      return n <= 0 ? xs : xs.slice(0, xs.n - n);
    },
  },
  "nthrest": {
    arity: [2, 2],
    args: ["[coll n]"],
    doc: "(drop n coll) as a vector.",
    fn: (a) => dropImpl(Math.max(0, countArg("nthrest", a, 1)), sliceable(a[0], "nthrest", 1)),
  },
  "nthnext": {
    arity: [2, 2],
    args: ["[coll n]"],
    doc: "(drop n coll), or nil when empty.",
    fn: (a) => {
      const v = dropImpl(Math.max(0, countArg("nthnext", a, 1)), sliceable(a[0], "nthnext", 1));
      return v.n === 0 ? null : v;
    },
  },
  "reverse": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Items in reverse order as a vector (strings give characters).",
    fn: (a, ctx) => {
      const xs = positional("reverse", a[0], 1);
      ctx.alloc(slots(xs.length));
      return vecFrom(xs.slice().reverse());
    },
  },
  "count": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "Number of items (nil → 0; strings count characters).",
    fn: (a) => countOf(a[0]),
  },
  "empty?": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "True for nil or an empty collection/string.",
    fn: (a) => (typeof a[0] === "string" ? a[0].length === 0 : countOf(a[0], "empty?") === 0),
  },
  "not-empty": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "coll, or nil when it is empty.",
    fn: (a) => (countOf(a[0], "not-empty") === 0 ? null : a[0]),
  },
  "seq": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "The items as a vector (maps give sorted [k v] entries, strings characters), or nil when empty.",
    fn: (a, ctx) => {
      const v = a[0];
      if (v instanceof PVec) return v.n === 0 ? null : v;
      const xs = seqView(v, "seq", 1);
      ctx.alloc(slots(xs.length));
      return xs.length === 0 ? null : vecFrom(xs.slice());
    },
  },
  "empty": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "An empty collection of the same type (nil for nil, strings and other values, as in Clojure).",
    fn: (a) => {
      const v = a[0];
      if (v instanceof PVec) return EMPTY_VEC;
      if (v instanceof PMap) return EMPTY_MAP;
      if (v instanceof PSet) return EMPTY_SET;
      return null;
    },
  },
  "vec": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "The items as a vector ((vec nil) is []).",
    fn: (a, ctx) => {
      const v = a[0];
      if (v instanceof PVec) return v;
      if (v === null) return EMPTY_VEC;
      const xs = seqView(v, "vec", 1);
      ctx.alloc(slots(xs.length));
      return vecFrom(xs.slice());
    },
  },
});
