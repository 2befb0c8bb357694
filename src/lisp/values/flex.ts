/**
 * Flexible key lookup ("flex-get", docs/language.md §2): exact key first, then keyword ↔ string, then (for names with `-`)
 * the `_` variant in both forms. Vectors take non-negative integer indices; a vector key is a get-in path.
 * @module
 */

import { findKw, Keyword, kw, type Value } from "./types.ts";
import { PVec } from "./vector.ts";
import { NOT_FOUND, PMap, PSet } from "./hashmap.ts";
import { graphemes } from "./strings.ts";

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
    if (kvs !== null) {
      // The exact key first, without looking the keyword up: the common hit (a string key of JSON data or of a map
      // a program built from it) costs one scan.
      for (let i = 0; i < kvs.length; i += 2) if (kvs[i] === key) return kvs[i + 1];
      const k = m.sk ? undefined : findKw(key);
      const r = k === undefined ? NOT_FOUND : scanSmall(kvs, k, NOT_FOUND);
      if (r !== NOT_FOUND || !key.includes("-")) return r!;
      const u = key.replaceAll("-", "_");
      const uk = findKw(u);
      return scanSmall(kvs, u, uk === undefined ? NOT_FOUND : uk)!;
    }
    let r = m.get(key, NOT_FOUND)!;
    if (r !== NOT_FOUND) return r;
    const k = findKw(key);
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

/** `flexGet` with a keyword key (a keyword call `(:k coll)`): only maps can hold it. */
export function kwGet(coll: Value, key: Keyword, nf: Value): Value {
  if (coll instanceof PMap) {
    const r = mapFlexGet(coll, key);
    return r === NOT_FOUND ? nf : r;
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
    } else if (cur instanceof PSet && cur.has(k)) {
      cur = k; // Clojure: (get #{:a} :a) is :a
    } else if (typeof cur === "string" && typeof k === "number" && Number.isInteger(k) && k >= 0) {
      const g = graphemes(cur);
      if (k >= g.length) return nf;
      cur = g[k]; // Clojure: (get "ab" 0) is the character \a
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

/**
 * The key under which a flexible lookup of `key` finds an entry — `key` itself when present exactly, else the
 * other form (`:k` ↔ `"k"`, then the `_` variants) — or `NOT_FOUND`. `get` reads a map or a map builder. This is
 * what makes the key rule hold: writes (`assoc`, `update`, `dissoc`, `merge` …) and key-copying reads
 * (`select-keys`, `find`) use the key the map already has, so a map never holds one name twice and a value's printed
 * keys do not depend on which function produced it.
 */
export function storedKey(get: (k: Value) => Value | typeof NOT_FOUND, key: Value): Value {
  if (get(key) !== NOT_FOUND) return key;
  if (key instanceof Keyword) {
    if (get(key.name) !== NOT_FOUND) return key.name;
    const u = key.underscored;
    if (u === null) return NOT_FOUND;
    const uk = key.uKw ??= kw(u);
    if (get(uk) !== NOT_FOUND) return uk;
    return get(u) !== NOT_FOUND ? u : NOT_FOUND;
  }
  if (typeof key === "string") {
    const k = findKw(key);
    if (k !== undefined && get(k) !== NOT_FOUND) return k;
    if (!key.includes("-")) return NOT_FOUND;
    const u = key.replaceAll("-", "_");
    if (get(u) !== NOT_FOUND) return u;
    const uk = findKw(u);
    return uk !== undefined && get(uk) !== NOT_FOUND ? uk : NOT_FOUND;
  }
  return NOT_FOUND;
}

/** The key a write of `key` into map `m` uses: the entry's existing key when `m` holds the name in another form. */
export function writeKey(m: PMap, key: Value): Value {
  if (m.size === 0 || !(key instanceof Keyword || typeof key === "string")) return key;
  const kvs = m.kvs;
  if (kvs !== null) {
    // The common write: the key is already there in this very form (keywords are interned, strings compare by value).
    for (let i = 0; i < kvs.length; i += 2) if (kvs[i] === key) return key;
  }
  const k = storedKey((x) => m.get(x, NOT_FOUND)!, key);
  return k === NOT_FOUND ? key : k;
}
