/**
 * Builtins: maps (get, assoc, update, merge, keys, …). Reads use flexible key lookup; writes use exact keys.
 * @module
 */

import { LispError } from "../errors.ts";
import { Keyword, Reduced, type Value } from "../values/types.ts";
import { EMPTY_VEC, PVec, vecFrom, vecOf } from "../values/vector.ts";
import { EMPTY_MAP, MapBuilder, NOT_FOUND, PMap, PSet } from "../values/hashmap.ts";
import { mapEntries, seqView } from "../values/seq.ts";
import { sortedEntries, sortedKeys } from "../values/compare.ts";
import { fn1, fn2, fnN } from "../values/fn.ts";
import { flexGet, getIn, mapFlexGet, storedKey, writeKey } from "../values/flex.ts";
import { type BuiltinContext, define } from "./table.ts";
import { argError, entries, ENTRY_BYTES, nested, slots } from "./util.ts";

function flexGetKey(m: PMap, k: Value, nf: Value): Value {
  const r = mapFlexGet(m, k);
  return r === NOT_FOUND ? nf : r;
}

function getImpl(a: Value[]): Value {
  const c = a[0];
  const nf = a.length === 3 ? a[2] : null;
  const k = a[1];
  // A vector key is a key, as in Clojure ((get {[1 2] :v} [1 2]) is :v); get-in takes a path.
  if (k instanceof PVec && (c instanceof PMap || c instanceof PVec)) {
    return c instanceof PMap ? flexGetKey(c, k, nf) : nf;
  }
  if (c instanceof PMap || c instanceof PVec) return flexGet(c, k, nf);
  if (typeof c === "string") return getIn(c, vecOf(k), nf);
  if (c === null || c instanceof PSet) return c instanceof PSet ? (c.has(k) ? k : nf) : nf;
  if (c instanceof Keyword && (a[1] instanceof PMap || a[1] === null)) {
    return argError("get", 1, "a map or vector", c, "; did you swap the arguments? Usage: (get m key)");
  }
  return nf;
}

function pathArg(fn: string, v: Value, pos: number): Value[] {
  if (v === null) return [];
  if (v instanceof PVec) return v.view();
  return argError(
    fn,
    pos,
    "a vector path",
    v,
    v instanceof PMap ? `; did you swap the arguments? Usage: (${fn} m [k1 k2])` : "",
  );
}

/** The value a write of `k` replaces: the map's entry for that name in either form (nil when absent). */
function exactGet(c: Value, k: Value): Value {
  if (c instanceof PMap) {
    const r = c.get(writeKey(c, k), NOT_FOUND)!;
    return r === NOT_FOUND ? null : r;
  }
  if (c instanceof PVec && typeof k === "number" && Number.isInteger(k) && k >= 0 && k < c.n) return c.at(k);
  return null;
}

/** `(assoc coll k v)` for one pair. */
export function assoc1(fn: string, c: Value, k: Value, v: Value, ctx: BuiltinContext): Value {
  if (c instanceof PMap) {
    const r = c.assoc(writeKey(c, k), v);
    if (r.size > c.size) ctx.alloc(ENTRY_BYTES);
    return r;
  }
  if (c === null) {
    ctx.alloc(ENTRY_BYTES);
    return EMPTY_MAP.assoc(k, v);
  }
  if (c instanceof PVec) {
    if (typeof k !== "number" || !Number.isInteger(k)) {
      return argError(fn, 2, "an integer index for a vector", k);
    }
    if (k < 0 || k > c.n) {
      throw new LispError("type_error", `${fn}: index ${k} is out of bounds for a vector of ${c.n} items`);
    }
    return c.assoc(k, v);
  }
  return argError(fn, 1, "a map, vector or nil", c);
}

function assocIn(c: Value, path: Value[], i: number, v: Value, ctx: BuiltinContext): Value {
  const k = path.length === 0 ? null : path[i];
  if (i >= path.length - 1) return assoc1("assoc-in", c, k, v, ctx);
  const child = exactGet(c, k);
  return assoc1("assoc-in", c, k, assocIn(child, path, i + 1, v, ctx), ctx);
}

function updateIn(c: Value, path: Value[], i: number, f: (old: Value) => Value, ctx: BuiltinContext): Value {
  const k = path.length === 0 ? null : path[i];
  if (i >= path.length - 1) return assoc1("update-in", c, k, f(exactGet(c, k)), ctx);
  return assoc1("update-in", c, k, updateIn(exactGet(c, k), path, i + 1, f, ctx), ctx);
}

function mergeInto(b: MapBuilder, m: PMap, f: ((x: Value, y: Value) => Value) | null): void {
  const get = (x: Value) => b.get(x, NOT_FOUND)!;
  m.forEach((k0, v) => {
    const found = k0 instanceof Keyword || typeof k0 === "string" ? storedKey(get, k0) : k0;
    const k = found === NOT_FOUND ? k0 : found;
    if (f !== null) {
      const old = b.get(k, NOT_FOUND);
      b.set(k, old === NOT_FOUND ? v : f(old!, v));
    } else b.set(k, v);
  });
}

function mergeArgs(fn: string, a: Value[], start: number): PMap[] {
  const out: PMap[] = [];
  for (let i = start; i < a.length; i++) {
    const m = a[i];
    if (m === null || m === false) continue;
    if (!(m instanceof PMap)) return argError(fn, i + 1, "a map", m);
    out.push(m);
  }
  return out;
}

function keysOf(fn: string, v: Value): Value[] | null {
  if (v === null) return null;
  if (v instanceof PMap) return v.size === 0 ? null : sortedKeys(v);
  return argError(fn, 1, "a map", v);
}

define("maps", {
  "get": {
    arity: [2, 3],
    args: ["[m key]", "[m key not-found]"],
    doc: 'Value for key (flexible :k/"k"/_ lookup) or vector index; not-found (default nil) only when absent.',
    fn: getImpl,
  },
  "get-in": {
    arity: [2, 3],
    args: ["[m path]", "[m path not-found]"],
    doc: "Nested lookup along a vector path of keys and indices; not-found only when the path is missing.",
    fn: (a) => {
      const p = a[1];
      if (p === null) return a[0];
      if (!(p instanceof PVec)) return pathArg("get-in", p, 2) && null;
      return getIn(a[0], p, a.length === 3 ? a[2] : null);
    },
  },
  "assoc": {
    arity: [3, Infinity],
    args: ["[m k v]", "[m k v & kvs]"],
    doc: "Map (or vector) with each key set to its value (exact keys; vector index ≤ count).",
    fn: (a, ctx) => {
      if (a.length % 2 === 0) {
        throw new LispError(
          "arity_error",
          `assoc expects a map followed by key/value pairs, got an odd number of keys and values`,
        );
      }
      let c = a[0];
      for (let i = 1; i < a.length; i += 2) c = assoc1("assoc", c, a[i], a[i + 1], ctx);
      return c;
    },
  },
  "assoc-in": {
    arity: [3, 3],
    args: ["[m path v]"],
    doc: "Nested assoc along a vector path, creating maps where missing.",
    fn: (a, ctx) => assocIn(a[0], pathArg("assoc-in", a[1], 2), 0, a[2], ctx),
  },
  "update": {
    arity: [3, Infinity],
    args: ["[m k f & args]"],
    doc: "Map with key k set to (f old-value args…) (exact key; a missing key passes nil).",
    fn: (a, ctx) => {
      const f = fnN(a[2], "update", 3);
      const extra = a.slice(3);
      const c = a[0];
      return assoc1("update", c, a[1], f([exactGet(c, a[1]), ...extra]), ctx);
    },
  },
  "update-in": {
    arity: [3, Infinity],
    args: ["[m path f & args]"],
    doc: "Nested update along a vector path, creating maps where missing.",
    fn: (a, ctx) => {
      const f = fnN(a[2], "update-in", 3);
      const extra = a.slice(3);
      return updateIn(a[0], pathArg("update-in", a[1], 2), 0, (old) => f([old, ...extra]), ctx);
    },
  },
  "dissoc": {
    arity: [1, Infinity],
    args: ["[m & ks]"],
    doc: "Map without the given keys (each removes the entry a lookup of it finds).",
    fn: (a) => {
      const c = a[0];
      if (c === null) return null;
      if (!(c instanceof PMap)) return argError("dissoc", 1, "a map", c);
      let m = c;
      for (let i = 1; i < a.length; i++) m = m.dissoc(writeKey(m, a[i]));
      return m;
    },
  },
  "merge": {
    arity: [0, Infinity],
    args: ["[& maps]"],
    doc: "One map with the entries of all maps; later ones win; nil arguments are skipped.",
    fn: (a, ctx) => {
      const ms = mergeArgs("merge", a, 0);
      if (ms.length === 0) return null;
      if (ms.length === 1) return ms[0];
      const b = MapBuilder.from(ms[0]);
      for (let i = 1; i < ms.length; i++) mergeInto(b, ms[i], null);
      ctx.alloc(slots(2) + entries(b.size - ms[0].size));
      return b.build();
    },
  },
  "merge-with": {
    arity: [1, Infinity],
    args: ["[f & maps]"],
    doc: "Merge maps, combining values of duplicate keys with (f old new).",
    fn: (a, ctx) => {
      const f = fn2(a[0], "merge-with", 1);
      const ms = mergeArgs("merge-with", a, 1);
      if (ms.length === 0) return null;
      let added = 0;
      for (let i = 1; i < ms.length; i++) added += ms[i].size;
      ctx.alloc(slots(2) + entries(added));
      const b = MapBuilder.from(ms[0]);
      for (let i = 1; i < ms.length; i++) mergeInto(b, ms[i], f);
      return b.build();
    },
  },
  "select-keys": {
    arity: [2, 2],
    args: ["[m keys]"],
    doc: "Map of only the listed keys (flexible lookup; the result keeps the map's own keys).",
    fn: (a, ctx) => {
      const m = a[0];
      // Clojure takes a string's characters as the keys (so no keyword key ever matches); the flexible lookup would
      // find :a for the one-character string "a". Refuse rather than answer differently.
      if (typeof a[1] === "string") {
        return argError("select-keys", 2, "a collection of keys", a[1], "; write a vector: (select-keys m [:a :b])");
      }
      const ks = a[1] === null ? [] : seqView(a[1], "select-keys", 2);
      ctx.alloc(slots(2) + entries(ks.length));
      if (m === null) return EMPTY_MAP;
      if (!(m instanceof PMap)) return argError("select-keys", 1, "a map", m);
      const b = new MapBuilder();
      for (let i = 0; i < ks.length; i++) {
        const r = mapFlexGet(m, ks[i]);
        if (r !== NOT_FOUND) b.set(writeKey(m, ks[i]), r);
      }
      return b.build();
    },
  },
  "keys": {
    arity: [1, 1],
    args: ["[m]"],
    doc: "The keys of a map, sorted (nil or {} → nil).",
    fn: (a, ctx) => {
      if (a[0] instanceof PMap) ctx.alloc(slots(a[0].size));
      const ks = keysOf("keys", a[0]);
      return ks === null ? null : vecFrom(ks);
    },
  },
  "vals": {
    arity: [1, 1],
    args: ["[m]"],
    doc: "The values of a map in sorted-key order (nil or {} → nil).",
    fn: (a, ctx) => {
      const m = a[0];
      if (m === null) return null;
      if (!(m instanceof PMap)) return argError("vals", 1, "a map", m);
      if (m.size === 0) return null;
      ctx.alloc(slots(3 * m.size));
      const e = sortedEntries(m);
      const out = new Array<Value>(e.length / 2);
      for (let i = 0; i < out.length; i++) out[i] = e[2 * i + 1];
      return vecFrom(out);
    },
  },
  "entries": {
    arity: [1, 1],
    args: ["[m]"],
    doc: "The [k v] entries of a map sorted by key.",
    fn: (a, ctx) => {
      const m = a[0];
      if (m === null) return EMPTY_VEC;
      if (!(m instanceof PMap)) return argError("entries", 1, "a map", m);
      ctx.alloc(nested(m.size, 2));
      return vecFrom(mapEntries(m));
    },
  },
  "key": {
    arity: [1, 1],
    args: ["[entry]"],
    doc: "The key of a [k v] entry.",
    fn: (a) => {
      const e = a[0];
      if (e instanceof PVec && e.n === 2) return e.at(0);
      return argError("key", 1, "a [k v] entry", e);
    },
  },
  "val": {
    arity: [1, 1],
    args: ["[entry]"],
    doc: "The value of a [k v] entry.",
    fn: (a) => {
      const e = a[0];
      if (e instanceof PVec && e.n === 2) return e.at(1);
      return argError("val", 1, "a [k v] entry", e);
    },
  },
  "update-vals": {
    arity: [2, 2],
    args: ["[m f]"],
    doc: "Map with f applied to every value (nil → nil).",
    fn: (a, ctx) => {
      const m = a[0];
      if (m === null) return EMPTY_MAP; // Clojure: (update-vals nil f) is {}
      if (!(m instanceof PMap)) {
        return argError(
          "update-vals",
          1,
          "a map",
          m,
          a[1] instanceof PMap ? "; did you swap the arguments? Usage: (update-vals m f)" : "",
        );
      }
      const f = fn1(a[1], "update-vals", 2);
      ctx.alloc(slots(2) + entries(m.size));
      const b = new MapBuilder();
      m.forEach((k, v) => b.set(k, f(v)));
      return b.build();
    },
  },
  "update-keys": {
    arity: [2, 2],
    args: ["[m f]"],
    doc: "Map with f applied to every key.",
    fn: (a, ctx) => {
      const m = a[0];
      if (m === null) return EMPTY_MAP;
      if (!(m instanceof PMap)) return argError("update-keys", 1, "a map", m);
      const f = fn1(a[1], "update-keys", 2);
      ctx.alloc(slots(2 * m.size) + entries(m.size));
      const b = new MapBuilder();
      const e = sortedEntries(m);
      for (let i = 0; i < e.length; i += 2) b.set(f(e[i]), e[i + 1]);
      return b.build();
    },
  },
  "reduce-kv": {
    arity: [3, 3],
    args: ["[f init m]"],
    doc: "Fold (f acc k v) over the entries of a map in key order; nil → init.",
    fn: (a) => {
      const m = a[2];
      if (m === null) return a[1];
      if (!(m instanceof PMap)) return argError("reduce-kv", 3, "a map", m);
      const f = fnN(a[0], "reduce-kv", 1);
      const e = sortedEntries(m);
      let acc = a[1];
      for (let i = 0; i < e.length; i += 2) if ((acc = f([acc, e[i], e[i + 1]])) instanceof Reduced) return acc.v;
      return acc;
    },
  },
  "hash-map": {
    arity: [0, Infinity],
    args: ["[& kvs]"],
    doc: "A map from alternating keys and values.",
    fn: (a) => buildMap("hash-map", a),
  },
  "sorted-map": {
    arity: [0, Infinity],
    args: ["[& kvs]"],
    doc: "Same as hash-map: every map already prints and iterates in key order.",
    fn: (a) => buildMap("sorted-map", a),
  },
  "array-map": {
    arity: [0, Infinity],
    args: ["[& kvs]"],
    doc: "Same as hash-map.",
    fn: (a) => buildMap("array-map", a),
  },
  "zipmap": {
    arity: [2, 2],
    args: ["[keys vals]"],
    doc: "Map from a key sequence and a value sequence (stops at the shorter).",
    fn: (a, ctx) => {
      const ks = seqView(a[0], "zipmap", 1);
      const vs = seqView(a[1], "zipmap", 2);
      const n = Math.min(ks.length, vs.length);
      ctx.alloc(slots(2) + entries(n));
      const b = new MapBuilder();
      for (let i = 0; i < n; i++) b.set(ks[i], vs[i]);
      return b.build();
    },
  },
});

function buildMap(fn: string, a: Value[]): Value {
  if (a.length % 2 !== 0) {
    throw new LispError("arity_error", `${fn} expects an even number of arguments (key/value pairs), got ${a.length}`);
  }
  const b = new MapBuilder();
  for (let i = 0; i < a.length; i += 2) b.set(a[i], a[i + 1]);
  return b.build();
}
