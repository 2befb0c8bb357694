/**
 * Builtins: sets (`clojure.set/` aliases) and `disj`.
 * @module
 */

import type { Value } from "../values/types.ts";
import { EMPTY_SET, PMap, PSet, SetBuilder } from "../values/hashmap.ts";
import { PVec } from "../values/vector.ts";
import { seqView } from "../values/seq.ts";
import { type BuiltinContext, define } from "./table.ts";
import { argError, entries, slots } from "./util.ts";

/** Items counted as Clojure's `count` does (nil 0, a string its characters). */
function countOf(v: Value): number {
  if (v === null) return 0;
  if (v instanceof PSet || v instanceof PMap) return v.size;
  if (v instanceof PVec) return v.n;
  return seqView(v, "count", 1).length;
}

/**
 * Clojure's set functions accept any collection but only mean something for sets: on a vector they add to it
 * (keeping duplicates) or test indexes with contains?. PTC answers where Clojure's result is a set (or the argument
 * returned unchanged) and refuses the rest, saying to convert with `set`.
 */
function notASet(fn: string, pos: number, v: Value): never {
  return argError(fn, pos, "a set", v, `; convert it with (set x) first (Clojure's ${fn} misreads other collections)`);
}

function union(a: Value[], ctx: BuiltinContext): Value {
  if (a.length === 0) return EMPTY_SET;
  if (a.length === 1) return a[0];
  // Clojure: the largest argument (the last of equal sizes in (s1 s2 …) order, s1 when two tie) gathers the others.
  let acc = a.length === 2 ? (countOf(a[0]) < countOf(a[1]) ? 1 : 0) : 0;
  if (a.length > 2) { for (let i = 1; i < a.length; i++) if (countOf(a[i]) >= countOf(a[acc])) acc = i; }
  const big = a[acc];
  const others = a.filter((_, i) => i !== acc);
  if (!(big instanceof PSet)) {
    if (others.every((o) => countOf(o) === 0)) return big;
    return notASet("union", acc + 1, big === null ? others.find((o) => countOf(o) > 0)! : big);
  }
  let added = 0;
  const items = others.map((o, i) => {
    const xs = seqView(o, "union", i + 2);
    added += xs.length;
    return xs;
  });
  ctx.alloc(slots(2) + entries(added));
  const b = new SetBuilder(big);
  for (const xs of items) for (const x of xs) b.add(x);
  return b.build();
}

/** A membership test over a set, a map's keys or nil (Clojure's contains?); anything else is refused. */
function member(fn: string, pos: number, v: Value): (x: Value) => boolean {
  if (v === null) return () => false;
  if (v instanceof PSet || v instanceof PMap) return (x) => v.has(x);
  return notASet(fn, pos, v);
}

function intersect2(x: Value, px: number, y: Value, py: number, ctx: BuiltinContext): Value {
  if (countOf(y) < countOf(x)) [x, px, y, py] = [y, py, x, px];
  if (x === null || countOf(x) === 0) return x;
  if (!(x instanceof PSet)) return notASet("intersection", px, x);
  const has = member("intersection", py, y);
  ctx.alloc(slots(2) + entries(x.size));
  const b = new SetBuilder();
  x.forEach((m) => {
    if (has(m)) b.add(m);
  });
  return b.build();
}

function difference2(x: Value, y: Value, py: number, ctx: BuiltinContext): Value {
  const ny = countOf(y); // raises for a value that is no collection, as Clojure's count does
  if (x === null) return null;
  if (!(x instanceof PSet)) return countOf(x) === 0 || countOf(y) === 0 ? x : notASet("difference", 1, x);
  ctx.alloc(slots(2) + entries(x.size));
  const b = new SetBuilder(x);
  if (x.size < ny) {
    const has = member("difference", py, y);
    x.forEach((m) => {
      if (has(m)) b.delete(m);
    });
  } else for (const m of seqView(y, "difference", py)) b.delete(m);
  return b.build();
}

function every(fn: string, items: Value, pos: number, within: Value, wpos: number): boolean {
  const xs = seqView(items, fn, pos);
  if (xs.length === 0) return true;
  const has = member(fn, wpos, within);
  return xs.every(has);
}

define("sets", {
  "union": {
    arity: [0, Infinity],
    args: ["[& sets]"],
    doc: "Set of the members of all sets (nil counts as empty).",
    groups: ["set"],
    fn: union,
  },
  "intersection": {
    arity: [1, Infinity],
    args: ["[s & sets]"],
    doc: "Set of the members present in every set.",
    groups: ["set"],
    fn: (a, ctx) => {
      if (a.length === 1) return a[0];
      if (a.length === 2) return intersect2(a[0], 1, a[1], 2, ctx);
      // Clojure starts from the smallest (the last of equal sizes) and intersects the others into it.
      let from = 0;
      for (let i = 1; i < a.length; i++) if (countOf(a[i]) <= countOf(a[from])) from = i;
      let acc = a[from];
      for (let i = 0; i < a.length; i++) if (i !== from) acc = intersect2(acc, from + 1, a[i], i + 1, ctx);
      return acc;
    },
  },
  "difference": {
    arity: [1, Infinity],
    args: ["[s & sets]"],
    doc: "Members of the first set that are in none of the others.",
    groups: ["set"],
    fn: (a, ctx) => {
      let acc = a[0];
      for (let i = 1; i < a.length; i++) acc = difference2(acc, a[i], i + 1, ctx);
      return acc;
    },
  },
  "subset?": {
    arity: [2, 2],
    args: ["[s1 s2]"],
    doc: "True when every member of s1 is in s2.",
    groups: ["set"],
    fn: (a) => countOf(a[0]) <= countOf(a[1]) && every("subset?", a[0], 1, a[1], 2),
  },
  "superset?": {
    arity: [2, 2],
    args: ["[s1 s2]"],
    doc: "True when every member of s2 is in s1.",
    groups: ["set"],
    fn: (a) => countOf(a[0]) >= countOf(a[1]) && every("superset?", a[1], 2, a[0], 1),
  },
  "disj": {
    arity: [1, Infinity],
    args: ["[s & xs]"],
    doc: "Set without the given members (nil → nil).",
    fn: (a) => {
      const s = a[0];
      if (s === null) return null;
      if (!(s instanceof PSet)) return argError("disj", 1, "a set", s);
      let r = s;
      for (let i = 1; i < a.length; i++) r = r.delete(a[i]);
      return r;
    },
  },
});
