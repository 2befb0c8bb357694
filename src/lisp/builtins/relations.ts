/**
 * Builtins: clojure.set's map and relation functions (`rename-keys`, `map-invert`, `select`, `project`, `rename`,
 * `index`, `join`). A relation is a collection of maps (Clojure gives sets of maps; any collection works here too).
 * Keys follow the key rule of docs/language.md §2: reads are flexible, written keys are the ones the map has.
 * @module
 */

import type { Value } from "../values/types.ts";
import { EMPTY_MAP, MapBuilder, NOT_FOUND, PMap, PSet, SetBuilder } from "../values/hashmap.ts";
import { mapFlexGet, writeKey } from "../values/flex.ts";
import { seqView } from "../values/seq.ts";
import { sortedEntries } from "../values/compare.ts";
import { truthy } from "../values/kinds.ts";
import { type BuiltinContext, define, TABLE } from "./table.ts";
import { argError, entries, slots } from "./util.ts";

function mapArg(fn: string, v: Value, pos: number): PMap | null {
  if (v === null || v instanceof PMap) return v;
  return argError(fn, pos, "a map", v);
}

function rel(fn: string, v: Value, pos: number): PMap[] {
  return seqView(v, fn, pos).map((x) => mapArg(fn, x, pos) ?? EMPTY_MAP);
}

/** `(rename-keys m kmap)`: every key of kmap that m has is renamed to kmap's value for it. */
function renameKeys(m: PMap | null, kmap: PMap | null, ctx: BuiltinContext): Value {
  if (m === null) return null;
  if (kmap === null || kmap.size === 0) return m;
  ctx.alloc(slots(2) + entries(m.size));
  const b = MapBuilder.from(m);
  const moved: [Value, Value][] = [];
  kmap.forEach((old) => {
    const v = mapFlexGet(m, old);
    if (v !== NOT_FOUND) {
      b.delete(writeKey(m, old));
      moved.push([kmap.get(old)!, v]);
    }
  });
  for (const [k, v] of moved) b.set(k, v);
  return b.build();
}

function selectKeys(m: PMap, ks: Value, ctx: BuiltinContext): Value {
  return TABLE.get("select-keys")!.fn([m, ks], ctx);
}

function setOfAll(xs: Value[], ctx: BuiltinContext): PSet {
  ctx.alloc(slots(2) + entries(xs.length));
  const b = new SetBuilder();
  for (const x of xs) b.add(x);
  return b.build();
}

/** The keys two maps share (by exact key). */
function sharedKeys(x: PMap, y: PMap): Value[] {
  const out: Value[] = [];
  x.forEach((k) => {
    if (y.has(k)) out.push(k);
  });
  return out;
}

function joinImpl(a: Value[], ctx: BuiltinContext): Value {
  const xs = rel("join", a[0], 1), ys = rel("join", a[1], 2);
  if (xs.length === 0 || ys.length === 0) return new SetBuilder().build();
  // (join xrel yrel km): km maps keys of xrel to keys of yrel; else the keys both first rows have.
  const km = a.length === 3 ? mapArg("join", a[2], 3) ?? EMPTY_MAP : null;
  const pairs: [Value, Value][] = [];
  if (km) km.forEach((k, v) => pairs.push([k, v]));
  else for (const k of sharedKeys(xs[0], ys[0])) pairs.push([k, k]);
  const keyOf = (m: PMap, side: 0 | 1) => {
    const b = new MapBuilder();
    for (const p of pairs) {
      const v = m.get(p[side], NOT_FOUND);
      if (v !== NOT_FOUND && v !== undefined) b.set(p[0], v);
    }
    return b.build();
  };
  ctx.step(xs.length + ys.length);
  const idx = new Map<string, { key: PMap; rows: PMap[] }[]>();
  const buckets = (k: PMap) => {
    const h = String(k.size);
    let bs = idx.get(h);
    if (!bs) idx.set(h, bs = []);
    return bs;
  };
  const eqKey = TABLE.get("=")!;
  for (const x of xs) {
    const k = keyOf(x, 0);
    const bs = buckets(k);
    const found = bs.find((e) => eqKey.fn([e.key, k], ctx) === true);
    if (found) found.rows.push(x);
    else bs.push({ key: k, rows: [x] });
  }
  const out: Value[] = [];
  for (const y of ys) {
    const k = keyOf(y, 1);
    const found = buckets(k).find((e) => eqKey.fn([e.key, k], ctx) === true);
    if (!found) continue;
    for (const x of found.rows) {
      ctx.alloc(slots(2) + entries(x.size + y.size));
      const b = MapBuilder.from(x);
      y.forEach((k2, v) => b.set(k2, v));
      out.push(b.build());
    }
  }
  return setOfAll(out, ctx);
}

define("sets", {
  "set/rename-keys": {
    arity: [2, 2],
    args: ["[m kmap]"],
    doc: "m with each key of kmap that it has renamed to kmap's value for that key.",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => renameKeys(mapArg("rename-keys", a[0], 1), mapArg("rename-keys", a[1], 2), ctx),
  },
  "set/map-invert": {
    arity: [1, 1],
    args: ["[m]"],
    doc: "The map from each value of m to its key (of equal values, the last key in key order).",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const m = mapArg("map-invert", a[0], 1);
      if (m === null) return EMPTY_MAP;
      ctx.alloc(slots(2) + entries(m.size));
      const b = new MapBuilder();
      const kv = sortedEntries(m); // in key order, so of equal values the last key wins, as in Clojure's reduce
      for (let i = 0; i < kv.length; i += 2) b.set(kv[i + 1], kv[i]);
      return b.build();
    },
  },
  "set/select": {
    arity: [2, 2],
    args: ["[pred xset]"],
    doc: "The members of the set xset for which (pred x) is truthy.",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const s = a[1];
      if (s === null) return null;
      if (!(s instanceof PSet)) return argError("select", 2, "a set", s, "; use filter on other collections");
      ctx.alloc(slots(2) + entries(s.size));
      const b = new SetBuilder();
      s.forEach((x) => {
        if (truthy(ctx.callFn(a[0], [x]))) b.add(x);
      });
      return b.build();
    },
  },
  "set/project": {
    arity: [2, 2],
    args: ["[xrel ks]"],
    doc: "The set of (select-keys row ks) for each map of the relation xrel.",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => setOfAll(rel("project", a[0], 1).map((m) => selectKeys(m, a[1], ctx)), ctx),
  },
  "set/rename": {
    arity: [2, 2],
    args: ["[xrel kmap]"],
    doc: "The set of each map of the relation xrel with its keys renamed by kmap.",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const kmap = mapArg("rename", a[1], 2);
      return setOfAll(rel("rename", a[0], 1).map((m) => renameKeys(m, kmap, ctx)), ctx);
    },
  },
  "set/index": {
    arity: [2, 2],
    args: ["[xrel ks]"],
    doc: "Map from each distinct (select-keys row ks) to the set of the rows of xrel that have it.",
    groups: ["set"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const rows = rel("index", a[0], 1);
      ctx.alloc(slots(2) + entries(2 * rows.length));
      let m: PMap = EMPTY_MAP;
      for (const row of rows) {
        const k = selectKeys(row, a[1], ctx);
        const cur = m.get(k, NOT_FOUND);
        m = m.assoc(k, cur === NOT_FOUND ? new SetBuilder().add(row).build() : (cur as PSet).add(row));
      }
      return m;
    },
  },
  "set/join": {
    arity: [2, 3],
    args: ["[xrel yrel]", "[xrel yrel km]"],
    doc: "Natural join of two relations on their shared keys (or on km: xrel key → yrel key).",
    groups: ["set"],
    qualifiedOnly: true,
    fn: joinImpl,
  },
});
