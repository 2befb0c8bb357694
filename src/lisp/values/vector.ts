/**
 * Persistent vector over an append-only shared backing array.
 *
 * A `PVec` is a view `buf[off .. off+n)`. `conj` on a version whose view ends at the backing array's end pushes in
 * place and shares the array, so `(reduce conj [] xs)` is amortized O(1) per step; `conj` on an older version copies.
 * `slice` (rest, next, drop, subvec, `[x & xs]`) shares the backing array too, so walking a vector with
 * `(recur (rest xs))` is O(1) per step. Elements inside a view are never mutated.
 *
 * Retention: a slice keeps its whole backing array alive. To bound that, `slice` copies when the result is small
 * (≤ 16 elements) or less than a quarter of the backing array; repeated `rest` therefore copies a geometrically
 * shrinking tail now and then, which is still O(1) amortized per step, and a view never retains more than 4× its size.
 *
 * `assoc` on a vector of 64+ elements records the replacement in a small `patch` (index → value) shared with the
 * backing array instead of copying the vector; when the patch reaches √n/4 entries the vector is copied once with
 * all of them applied. Repeated `assoc` in a loop therefore costs O(√n) instead of O(n) (100,000 assocs on a
 * 100,000-element vector: ~0.7 s instead of ~22 s). Unpatched vectors (everything not produced by assoc) read straight
 * from the array; patched ones check the patch first. A patch is copied on each assoc (it is small).
 *
 * Reading: `v.at(i)` for `0 <= i < n`, or `v.view()` / `v.toArray()` for a JS array. Only this module reads `buf`
 * and `off` directly (they do not reflect a pending patch).
 * @module
 */

import type { Value } from "./types.ts";

/** Slices at most this long are copied rather than shared. */
const SMALL_SLICE = 16;

/** Vectors shorter than this copy on assoc (a copy is as cheap as patch bookkeeping). */
const PATCH_MIN = 64;

/** A patch holds at most `PATCH_RATIO * √n` entries before the vector is copied with them applied. */
const PATCH_RATIO = 0.25;

/** A persistent vector. */
export class PVec {
  /** Backing array (shared; only indices `off .. off+n-1` belong to this vector). Internal: see `at`. */
  buf: Value[];
  /** Index in `buf` of element 0. Internal. */
  off: number;
  /** Number of elements. */
  readonly n: number;
  /** Replaced elements (index → value) not written into `buf`, or null. Never mutated once shared. */
  private patch: Map<number, Value> | null;
  /** Cached hash (0 = not computed). */
  h = 0;
  /** @internal use `vecFrom`/`vecOf`/`EMPTY_VEC` */
  constructor(buf: Value[], n: number, off = 0, patch: Map<number, Value> | null = null) {
    this.buf = buf;
    this.n = n;
    this.off = off;
    this.patch = patch;
  }

  /** Element at `i` (no bounds check beyond `n`: returns undefined outside). */
  get(i: number): Value | undefined {
    return i >= 0 && i < this.n ? this.at(i) : undefined;
  }

  /** Element at `i` for `0 <= i < n` (unchecked). */
  at(i: number): Value {
    const p = this.patch;
    if (p !== null) {
      const x = p.get(i);
      if (x !== undefined) return x;
    }
    return this.buf[this.off + i];
  }

  /** Write a pending patch into a private copy of the elements (the value is unchanged). */
  private flatten(): void {
    const p = this.patch;
    if (p === null) return;
    const c = this.buf.slice(this.off, this.off + this.n);
    for (const [i, x] of p) c[i] = x;
    this.buf = c;
    this.off = 0;
    this.patch = null;
  }

  /** Append one value (amortized O(1) when this view ends at the backing array's end). */
  conj(x: Value): PVec {
    const a = this.buf;
    if (this.n === 0) return new PVec([x], 1);
    if (a.length === this.off + this.n) {
      a.push(x);
      return new PVec(a, this.n + 1, this.off, this.patch);
    }
    const c = this.toArray();
    c.push(x);
    return new PVec(c, this.n + 1);
  }

  /** Append many values. */
  conjAll(xs: readonly Value[], count = xs.length): PVec {
    let a = this.buf;
    let o = this.off;
    let p = this.patch;
    if (a.length !== o + this.n || this.n === 0) {
      a = this.toArray();
      o = 0;
      p = null;
    }
    for (let i = 0; i < count; i++) a.push(xs[i]);
    return new PVec(a, a.length - o, o, p);
  }

  /** Replace the element at `i` (0 <= i < n); i === n appends. O(√n) amortized on vectors of 64+ elements. */
  assoc(i: number, x: Value): PVec {
    const n = this.n;
    if (i === n) return this.conj(x);
    const p = this.patch;
    if (n >= PATCH_MIN && (p === null || p.size < PATCH_RATIO * Math.sqrt(n))) {
      const q = p === null ? new Map<number, Value>() : new Map(p);
      q.set(i, x);
      return new PVec(this.buf, n, this.off, q);
    }
    const c = this.toArray();
    c[i] = x;
    return new PVec(c, n);
  }

  /** A fresh JS array with the elements (safe to mutate). */
  toArray(): Value[] {
    const c = this.buf.slice(this.off, this.off + this.n);
    const p = this.patch;
    if (p !== null) { for (const [i, x] of p) c[i] = x; }
    return c;
  }

  /**
   * The elements as a JS array WITHOUT copying when possible (a view starting at 0 and ending at the backing array's
   * end); otherwise a copy. The result must not be mutated; iterate it with a length captured up front.
   */
  view(): Value[] {
    this.flatten();
    return this.off === 0 && this.buf.length === this.n ? this.buf : this.buf.slice(this.off, this.off + this.n);
  }

  /** Elements [from, to) (clamped to 0..n) as a vector sharing the backing array (see the module notes). */
  slice(from: number, to: number): PVec {
    if (from < 0) from = 0;
    if (to > this.n) to = this.n;
    if (from === 0 && to === this.n) return this;
    const len = to - from;
    if (len <= 0) return EMPTY_VEC;
    this.flatten();
    const s = this.off + from;
    if (len <= SMALL_SLICE || len * 4 < this.buf.length) return new PVec(this.buf.slice(s, s + len), len);
    return new PVec(this.buf, len, s);
  }
}

/** The empty vector. Conj onto it copies (its array is frozen-empty), so sharing it is safe. */
export const EMPTY_VEC: PVec = new PVec(Object.freeze([]) as unknown as Value[], 0);

/** Adopt `arr` as a vector WITHOUT copying. The caller must not mutate `arr` afterwards. */
export function vecFrom(arr: Value[]): PVec {
  return arr.length === 0 ? EMPTY_VEC : new PVec(arr, arr.length);
}

/** A vector of the given values. */
export function vecOf(...xs: Value[]): PVec {
  return vecFrom(xs);
}
