/**
 * Persistent hash map and set keyed by exact structural equality (`keyEquals`/`hash` in equality.ts).
 *
 * Small maps (up to 16 entries, the shape of a typical JSON record) are a flat `[k0, v0, k1, v1, …]` array with a
 * linear identity-first scan; larger ones are a hash array mapped trie (32-way bitmap nodes + collision nodes).
 * `MapBuilder`/`SetBuilder` are transient builders: nodes created under one builder are mutated in place, so bulk
 * construction (`into`, `frequencies`, `group-by`, `zipmap`, JSON conversion) is amortized O(1) per entry.
 * Insertion order is not kept (printing and seq views sort keys).
 * @module
 */

import type { Value } from "./types.ts";
import { hash, keyEquals } from "./equality.ts";
import { BNode, type HNode, identityKey, nodeAssoc, nodeDissoc, nodeEach, nodeGet } from "./hamt.ts";

/** Entries above which a map switches from the flat array to the trie. */
const SMALL = 16;

/** A persistent hash map. */
export class PMap {
  readonly size: number;
  /** Flat `[k0, v0, …]` entries when small, else null. */
  readonly kvs: Value[] | null;
  /** Trie root when large, else null. */
  readonly root: HNode | null;
  /** Cached hash (0 = not computed). */
  h = 0;
  /** True when every key is known to be a string (JSON data): keyword lookups can skip the exact-keyword probe. */
  readonly sk: boolean;
  /** @internal use `EMPTY_MAP`, `mapOf`, `MapBuilder` */
  constructor(size: number, kvs: Value[] | null, root: HNode | null, stringKeys = false) {
    this.size = size;
    this.kvs = kvs;
    this.root = root;
    this.sk = stringKeys;
  }

  /** Exact lookup; `nf` when absent. */
  get(key: Value, nf: Value | undefined = undefined): Value | undefined {
    const kvs = this.kvs;
    if (kvs !== null) {
      if (identityKey(key)) {
        for (let i = 0; i < kvs.length; i += 2) if (kvs[i] === key) return kvs[i + 1];
      } else {
        for (let i = 0; i < kvs.length; i += 2) if (keyEquals(kvs[i], key)) return kvs[i + 1];
      }
      return nf;
    }
    return nodeGet(this.root!, hash(key), key, nf);
  }

  /** True when `key` is present (exact). */
  has(key: Value): boolean {
    return this.get(key, NOT_FOUND) !== NOT_FOUND;
  }

  /** Map with `key` set to `val`. */
  assoc(key: Value, val: Value): PMap {
    const kvs = this.kvs;
    if (kvs !== null) {
      const idk = identityKey(key);
      for (let i = 0; i < kvs.length; i += 2) {
        if (kvs[i] === key || (!idk && keyEquals(kvs[i], key))) {
          if (kvs[i + 1] === val) return this;
          const c = kvs.slice();
          c[i + 1] = val;
          return new PMap(this.size, c, null, this.sk);
        }
      }
      if (this.size < SMALL) {
        const c = kvs.slice();
        c.push(key, val);
        return new PMap(this.size + 1, c, null, this.sk && typeof key === "string");
      }
      const b = new MapBuilder();
      for (let i = 0; i < kvs.length; i += 2) b.set(kvs[i], kvs[i + 1]);
      b.set(key, val);
      return b.build();
    }
    const added = { v: false };
    const r = nodeAssoc(this.root!, null, 0, hash(key), key, val, added);
    return r === this.root ? this : new PMap(added.v ? this.size + 1 : this.size, null, r);
  }

  /** Map without `key` (exact). */
  dissoc(key: Value): PMap {
    const kvs = this.kvs;
    if (kvs !== null) {
      for (let i = 0; i < kvs.length; i += 2) {
        if (keyEquals(kvs[i], key)) {
          const c = kvs.slice();
          c.splice(i, 2);
          return c.length === 0 ? EMPTY_MAP : new PMap(this.size - 1, c, null, this.sk);
        }
      }
      return this;
    }
    const r = nodeDissoc(this.root!, 0, hash(key), key);
    if (r === this.root) return this;
    if (r === null) return EMPTY_MAP;
    return new PMap(this.size - 1, null, r);
  }

  /** Visit every entry (unspecified order). */
  forEach(f: (k: Value, v: Value) => void): void {
    const kvs = this.kvs;
    if (kvs !== null) {
      for (let i = 0; i < kvs.length; i += 2) f(kvs[i], kvs[i + 1]);
    } else nodeEach(this.root!, f);
  }

  /** Entries as a flat `[k0, v0, …]` array (unspecified order; fresh array). */
  flat(): Value[] {
    if (this.kvs !== null) return this.kvs.slice();
    const out: Value[] = [];
    nodeEach(this.root!, (k, v) => out.push(k, v));
    return out;
  }
}

/** Sentinel for "absent" lookups (distinct from every value). */
export const NOT_FOUND: Value = Object.freeze({ notFound: true }) as unknown as Value;

/** The empty map. */
export const EMPTY_MAP: PMap = new PMap(0, [], null);

/** A transient map builder: `set` many entries, then `build()` once (or several times). */
export class MapBuilder {
  /** Owner token of trie nodes this builder may mutate (created lazily; reset by `build`). */
  private edit: object | null = null;
  private kvs: Value[] | null = [];
  /** True when `kvs` is shared with a built map (copy before writing). */
  private shared = false;
  private root: HNode | null = null;
  /** Number of entries so far. */
  size = 0;

  /** Start from an existing map (the map itself is not modified; nothing is copied until the first write). */
  static from(m: PMap): MapBuilder {
    const b = new MapBuilder();
    b.size = m.size;
    if (m.kvs !== null) {
      b.kvs = m.kvs;
      b.shared = true;
    } else {
      b.kvs = null;
      b.root = m.root;
    }
    return b;
  }

  /** Exact lookup; `nf` when absent. */
  get(key: Value, nf: Value | undefined = undefined): Value | undefined {
    const kvs = this.kvs;
    if (kvs !== null) {
      // As PMap.get: a string, number or keyword key is found by identity alone (group-by, frequencies per item).
      if (identityKey(key)) {
        for (let i = 0; i < kvs.length; i += 2) if (kvs[i] === key) return kvs[i + 1];
      } else {
        for (let i = 0; i < kvs.length; i += 2) if (keyEquals(kvs[i], key)) return kvs[i + 1];
      }
      return nf;
    }
    return nodeGet(this.root!, hash(key), key, nf);
  }

  /** Set `key` to `val` (last write wins). */
  set(key: Value, val: Value): this {
    let kvs = this.kvs;
    if (kvs !== null) {
      if (this.shared) {
        this.kvs = kvs = kvs.slice();
        this.shared = false;
      }
      const idk = identityKey(key);
      for (let i = 0; i < kvs.length; i += 2) {
        if (kvs[i] === key || (!idk && keyEquals(kvs[i], key))) {
          kvs[i + 1] = val;
          return this;
        }
      }
      if (this.size < SMALL) {
        kvs.push(key, val);
        this.size++;
        return this;
      }
      const edit = this.edit ??= {};
      let root: HNode = new BNode(0, [], edit);
      const added = { v: false };
      for (let i = 0; i < kvs.length; i += 2) root = nodeAssoc(root, edit, 0, hash(kvs[i]), kvs[i], kvs[i + 1], added);
      this.kvs = null;
      this.root = root;
    }
    const added = { v: false };
    this.root = nodeAssoc(this.root!, this.edit ??= {}, 0, hash(key), key, val, added);
    if (added.v) this.size++;
    return this;
  }

  /** Remove `key` (exact). */
  delete(key: Value): this {
    const m = this.build().dissoc(key);
    const b = MapBuilder.from(m);
    this.kvs = b.kvs;
    this.shared = b.shared;
    this.root = b.root;
    this.size = b.size;
    return this;
  }

  /** The persistent map. The builder stays usable (later writes do not affect the returned map). */
  build(): PMap {
    if (this.size === 0) return EMPTY_MAP;
    const m = new PMap(this.size, this.kvs, this.root);
    this.edit = null;
    if (this.kvs !== null) this.shared = true;
    return m;
  }
}

/** A map from a flat `[k0, v0, k1, v1, …]` array (last duplicate wins). The array is not kept. */
export function mapFromArray(kvs: Value[]): PMap {
  if (kvs.length <= 2 * SMALL) {
    const out: Value[] = [];
    let strings = true;
    outer: for (let i = 0; i + 1 < kvs.length; i += 2) {
      const k = kvs[i];
      const idk = identityKey(k);
      for (let j = 0; j < out.length; j += 2) {
        if (out[j] === k || (!idk && keyEquals(out[j], k))) {
          out[j + 1] = kvs[i + 1];
          continue outer;
        }
      }
      if (typeof k !== "string") strings = false;
      out.push(k, kvs[i + 1]);
    }
    return out.length === 0 ? EMPTY_MAP : new PMap(out.length >> 1, out, null, strings);
  }
  const b = new MapBuilder();
  for (let i = 0; i + 1 < kvs.length; i += 2) b.set(kvs[i], kvs[i + 1]);
  return b.build();
}

/** Most entries {@link smallMapOfDistinct} takes: a map this small is a flat array. */
export const SMALL_MAP_MAX = SMALL;

/**
 * A small map straight from a flat `[k0, v0, …]` array whose keys are known to be distinct (a map literal's
 * constant keywords and strings, checked when the program was analyzed): no scan, and the array becomes the map's own
 * (the caller must not keep it). `strings` says every key is a string. At most `SMALL_MAP_MAX` entries.
 */
export function smallMapOfDistinct(kvs: Value[], strings: boolean): PMap {
  return kvs.length === 0 ? EMPTY_MAP : new PMap(kvs.length >> 1, kvs, null, strings);
}

/** A map from alternating keys and values (last duplicate wins). */
export function mapOf(...kvs: Value[]): PMap {
  return mapFromArray(kvs);
}

/** A persistent set (members are the keys of an internal map). */
export class PSet {
  /** Members as map keys (value = the member). */
  readonly m: PMap;
  /** Cached hash (0 = not computed). */
  h = 0;
  /** @internal use `EMPTY_SET`, `setOf`, `SetBuilder` */
  constructor(m: PMap) {
    this.m = m;
  }
  /** Number of members. */
  get size(): number {
    return this.m.size;
  }
  /** Exact membership. */
  has(x: Value): boolean {
    return this.m.get(x, NOT_FOUND) !== NOT_FOUND;
  }
  /** Set with `x` added. */
  add(x: Value): PSet {
    const m = this.m.assoc(x, x);
    return m === this.m ? this : new PSet(m);
  }
  /** Set without `x`. */
  delete(x: Value): PSet {
    const m = this.m.dissoc(x);
    return m === this.m ? this : new PSet(m);
  }
  /** Members (unspecified order; fresh array). */
  members(): Value[] {
    const out: Value[] = [];
    this.m.forEach((k) => out.push(k));
    return out;
  }
  /** Visit every member. */
  forEach(f: (x: Value) => void): void {
    this.m.forEach((k) => f(k));
  }
}

/** The empty set. */
export const EMPTY_SET: PSet = new PSet(EMPTY_MAP);

/** A transient set builder. */
export class SetBuilder {
  private b: MapBuilder;
  constructor(from?: PSet) {
    this.b = from ? MapBuilder.from(from.m) : new MapBuilder();
  }
  /** Number of members so far. */
  get size(): number {
    return this.b.size;
  }
  /** Add a member. */
  add(x: Value): this {
    this.b.set(x, x);
    return this;
  }
  /** Exact membership. */
  has(x: Value): boolean {
    return this.b.get(x, NOT_FOUND) !== NOT_FOUND;
  }
  /** Remove a member. */
  delete(x: Value): this {
    this.b.delete(x);
    return this;
  }
  /** The persistent set. */
  build(): PSet {
    const m = this.b.build();
    return m.size === 0 ? EMPTY_SET : new PSet(m);
  }
}

/** A set of the given members. */
export function setOf(...xs: Value[]): PSet {
  const b = new SetBuilder();
  for (const x of xs) b.add(x);
  return b.build();
}
