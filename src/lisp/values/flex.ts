/**
 * Flexible key lookup ("flex-get", digest §2.3): exact key first, then keyword ↔ string, then (for names with `-`)
 * the `_` variant in both forms. Vectors take non-negative integer indices; a vector key is a get-in path.
 * @module
 */

import { findKw, Keyword, kw, type Value } from "./types.ts";
import { PVec } from "./vector.ts";
import { NOT_FOUND, PMap } from "./hashmap.ts";

function scanSmall(kvs: Value[], a: Value, b: Value): Value | undefined {
  let alt = -1;
  for (let i = 0; i < kvs.length; i += 2) {
    const k = kvs[i];
    if (k === a) return kvs[i + 1];
    if (alt < 0 && k === b) alt = i;
  }
  return alt >= 0 ? kvs[alt + 1] : NOT_FOUND;
}

/** Flex lookup of `key` in map `m`; `NOT_FOUND` when absent. */
export function mapFlexGet(m: PMap, key: Value): Value {
  const kvs = m.kvs;
  if (key instanceof Keyword) {
    if (kvs !== null && m.sk) {
      // String keys only (JSON data): no exact keyword can be present; try the last position first.
      const name = key.name;
      const h = key.hint;
      if (kvs[h] === name) return kvs[h + 1];
      for (let i = 0; i < kvs.length; i += 2) {
        if (kvs[i] === name) {
          key.hint = i;
          return kvs[i + 1];
        }
      }
      const u = key.underscored;
      if (u === null) return NOT_FOUND;
      for (let i = 0; i < kvs.length; i += 2) if (kvs[i] === u) return kvs[i + 1];
      return NOT_FOUND;
    }
    if (kvs !== null) {
      const r = scanSmall(kvs, key, key.name);
      if (r !== NOT_FOUND || key.underscored === null) return r!;
      const u = key.underscored;
      return scanSmall(kvs, key.uKw ??= kw(u), u)!;
    }
    let r = m.get(key, NOT_FOUND)!;
    if (r !== NOT_FOUND) return r;
    r = m.get(key.name, NOT_FOUND)!;
    if (r !== NOT_FOUND || key.underscored === null) return r;
    r = m.get(key.uKw ??= kw(key.underscored), NOT_FOUND)!;
    if (r !== NOT_FOUND) return r;
    return m.get(key.underscored, NOT_FOUND)!;
  }
  if (typeof key === "string") {
    const k = findKw(key);
    if (kvs !== null) {
      const r = scanSmall(kvs, key, k === undefined ? NOT_FOUND : k);
      if (r !== NOT_FOUND || !key.includes("-")) return r!;
      const u = key.replaceAll("-", "_");
      const uk = findKw(u);
      return scanSmall(kvs, u, uk === undefined ? NOT_FOUND : uk)!;
    }
    let r = m.get(key, NOT_FOUND)!;
    if (r !== NOT_FOUND) return r;
    if (k !== undefined) {
      r = m.get(k, NOT_FOUND)!;
      if (r !== NOT_FOUND) return r;
    }
    if (!key.includes("-")) return NOT_FOUND;
    const u = key.replaceAll("-", "_");
    r = m.get(u, NOT_FOUND)!;
    if (r !== NOT_FOUND) return r;
    const uk = findKw(u);
    return uk === undefined ? NOT_FOUND : m.get(uk, NOT_FOUND)!;
  }
  return m.get(key, NOT_FOUND)!;
}

/**
 * Flex-get on any collection: maps (flex), vectors (non-negative integer index), vector key = get-in path;
 * everything else (sets, nil, strings, numbers) misses. Returns `nf` on a miss.
 */
export function flexGet(coll: Value, key: Value, nf: Value): Value {
  if (coll instanceof PMap) {
    if (key instanceof PVec) return getIn(coll, key, nf);
    const r = mapFlexGet(coll, key);
    return r === NOT_FOUND ? nf : r;
  }
  if (coll instanceof PVec) {
    if (typeof key === "number") return Number.isInteger(key) && key >= 0 && key < coll.n ? coll.at(key) : nf;
    if (key instanceof PVec) return getIn(coll, key, nf);
  }
  return nf;
}

/** Nested flex lookup along `path` (a vector); default only when the path is missing. Empty path → root. */
export function getIn(coll: Value, path: PVec, nf: Value): Value {
  let cur = coll;
  for (let i = 0; i < path.n; i++) {
    const k = path.at(i);
    if (cur instanceof PMap) {
      const r = mapFlexGet(cur, k);
      if (r === NOT_FOUND) return nf;
      cur = r;
    } else if (cur instanceof PVec && typeof k === "number" && Number.isInteger(k) && k >= 0 && k < cur.n) {
      cur = cur.at(k);
    } else {
      return nf;
    }
  }
  return cur;
}

/** Flex presence test (`contains?` on maps). */
export function flexHas(m: PMap, key: Value): boolean {
  return mapFlexGet(m, key) !== NOT_FOUND;
}
