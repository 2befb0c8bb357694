/**
 * Persistent vector over an append-only shared backing array.
 *
 * A `PVec` is a view `arr[0..n)`. `conj` on the newest version (the one whose `n` equals the backing array's length)
 * pushes in place and shares the array, so `(reduce conj [] xs)` is amortized O(1) per step; `conj` on an older
 * version copies. Reads are plain array reads. Elements below `n` are never mutated after creation.
 *
 * Iterating: `for (let i = 0; i < v.n; i++) v.arr[i]` — always bound by `n`, never by `arr.length`.
 * @module
 */

import type { Value } from "./types.ts";

/** A persistent vector. */
export class PVec {
  /** Backing array (shared; only indices below `n` belong to this vector). */
  readonly arr: Value[];
  /** Number of elements. */
  readonly n: number;
  /** Cached hash (0 = not computed). */
  h = 0;
  /** @internal use `vecFrom`/`vecOf`/`EMPTY_VEC` */
  constructor(arr: Value[], n: number) {
    this.arr = arr;
    this.n = n;
  }

  /** Element at `i` (no bounds check beyond `n`: returns undefined outside). */
  get(i: number): Value | undefined {
    return i >= 0 && i < this.n ? this.arr[i] : undefined;
  }

  /** Append one value (amortized O(1) on the newest version). */
  conj(x: Value): PVec {
    const a = this.arr;
    if (this.n === 0) return new PVec([x], 1);
    if (a.length === this.n) {
      a.push(x);
      return new PVec(a, this.n + 1);
    }
    const c = a.slice(0, this.n);
    c.push(x);
    return new PVec(c, this.n + 1);
  }

  /** Append many values. */
  conjAll(xs: readonly Value[], count = xs.length): PVec {
    let a = this.arr;
    if (a.length !== this.n || this.n === 0) a = a.slice(0, this.n);
    for (let i = 0; i < count; i++) a.push(xs[i]);
    return new PVec(a, a.length);
  }

  /** Replace the element at `i` (0 <= i < n); i === n appends. Copies (O(n)). */
  assoc(i: number, x: Value): PVec {
    if (i === this.n) return this.conj(x);
    const c = this.arr.slice(0, this.n);
    c[i] = x;
    return new PVec(c, this.n);
  }

  /** A fresh JS array with the elements (safe to mutate). */
  toArray(): Value[] {
    return this.arr.slice(0, this.n);
  }

  /**
   * The elements as a JS array WITHOUT copying when possible. The result must not be mutated; iterate it with a
   * length captured up front.
   */
  view(): Value[] {
    return this.arr.length === this.n ? this.arr : this.arr.slice(0, this.n);
  }

  /** Elements [from, to) as a new vector. */
  slice(from: number, to: number): PVec {
    if (from === 0 && to === this.n) return this;
    return new PVec(this.arr.slice(from, to), Math.max(0, to - from));
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
