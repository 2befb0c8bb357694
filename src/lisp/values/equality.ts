/**
 * Equality and hashing (docs/language.md §2).
 *
 * - `equals` is `=`: structural, numbers by value across int/float (`(= 1 1.0)`), NaN never equal.
 * - `keyEquals` is the exact equality used for map keys and set members (1 and 1.0 are distinct keys).
 * - `hash` is consistent with `keyEquals`.
 * @module
 */

import { Keyword, LDate, LFloat, stringHash, SymbolRef, type Value, Var } from "./types.ts";
import { PVec } from "./vector.ts";
import { NOT_FOUND, PMap, PSet } from "./hashmap.ts";

const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);

function numHash(x: number): number {
  if (Number.isInteger(x)) {
    if (x >= -0x80000000 && x <= 0x7fffffff) return x | 0;
    return ((x % 4294967296) | 0) ^ ((x / 4294967296) | 0);
  }
  f64[0] = x;
  return i32[0] ^ i32[1];
}

let nextId = 1;
const ids = new WeakMap<object, number>();

function identityHash(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = (Math.imul(nextId++, 0x9e3779b1) | 0) || 1;
    ids.set(o, id);
  }
  return id;
}

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** Hash consistent with `keyEquals`. */
export function hash(v: Value): number {
  switch (typeof v) {
    case "string":
      return stringHash(v);
    case "number":
      return numHash(v);
    case "boolean":
      return v ? 1231 : 1237;
    case "bigint":
      return stringHash(v.toString());
    default:
      break;
  }
  if (v === null) return 0;
  if (v instanceof Keyword) return v.h;
  if (v instanceof LFloat) return numHash(v.v) ^ 0x3f3f;
  if (v instanceof PVec) {
    if (v.h !== 0) return v.h;
    let h = 1;
    for (let i = 0; i < v.n; i++) h = (Math.imul(h, 31) + hash(v.at(i))) | 0;
    return (v.h = mix(h) || 1);
  }
  if (v instanceof PMap) {
    if (v.h !== 0) return v.h;
    let h = 0;
    v.forEach((k, x) => {
      h = (h + (hash(k) ^ mix(hash(x)))) | 0;
    });
    return (v.h = mix(h) || 2);
  }
  if (v instanceof PSet) {
    if (v.h !== 0) return v.h;
    let h = 0;
    v.forEach((x) => {
      h = (h + hash(x)) | 0;
    });
    return (v.h = mix(h ^ 0x51ed) || 3);
  }
  if (v instanceof SymbolRef) return stringHash("'" + v.full);
  if (v instanceof Var) return stringHash("#'" + v.name);
  if (v instanceof LDate) return numHash(v.ms);
  return identityHash(v as object);
}

/** Exact equality for map keys and set members (no int/float crossing). */
export function keyEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof LFloat) return b instanceof LFloat && a.v === b.v;
  if (a instanceof PVec) {
    if (!(b instanceof PVec) || a.n !== b.n) return false;
    for (let i = 0; i < a.n; i++) if (!keyEquals(a.at(i), b.at(i))) return false;
    return true;
  }
  if (a instanceof PMap) return b instanceof PMap && mapEq(a, b, keyEquals);
  if (a instanceof PSet) return b instanceof PSet && setEq(a, b);
  return sameAtom(a, b);
}

function sameAtom(a: object, b: object): boolean {
  if (a instanceof SymbolRef) return b instanceof SymbolRef && a.full === b.full;
  if (a instanceof Var) return b instanceof Var && a.name === b.name;
  if (a instanceof LDate) return b instanceof LDate && a.ms === b.ms && a.dateOnly === b.dateOnly;
  return false;
}

function mapEq(a: PMap, b: PMap, eq: (x: Value, y: Value) => boolean): boolean {
  if (a.size !== b.size) return false;
  if (a.h !== 0 && b.h !== 0 && a.h !== b.h) return false;
  let ok = true;
  a.forEach((k, v) => {
    if (!ok) return;
    const w = b.get(k, NOT_FOUND);
    if (w === NOT_FOUND || !eq(v, w!)) ok = false;
  });
  return ok;
}

function setEq(a: PSet, b: PSet): boolean {
  if (a.size !== b.size) return false;
  let ok = true;
  a.forEach((x) => {
    if (ok && !b.has(x)) ok = false;
  });
  return ok;
}

/** True for integers, floats and specials (`number?`). */
export function isNumber(v: Value): v is number | bigint | LFloat {
  return typeof v === "number" || typeof v === "bigint" || v instanceof LFloat;
}

/** Numeric equality across int/float/bigint (NaN never equal). */
export function numEquals(a: number | bigint | LFloat, b: number | bigint | LFloat): boolean {
  const x = a instanceof LFloat ? a.v : a;
  const y = b instanceof LFloat ? b.v : b;
  if (typeof x === "number" && typeof y === "number") return x === y;
  if (typeof x === "bigint" && typeof y === "bigint") return x === y;
  const big = (typeof x === "bigint" ? x : y) as bigint;
  const n = (typeof x === "number" ? x : y) as number;
  return Number.isInteger(n) ? BigInt(n) === big : false;
}

/** `=` equality (docs/language.md §2). */
export function equals(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== "number" || a === a;
  const ta = typeof a;
  if (ta === "string" || typeof b === "string") return false;
  if (isNumber(a)) return isNumber(b) && numEquals(a, b);
  if (a === null || b === null || ta !== "object" || typeof b !== "object") return false;
  if (a instanceof PVec) {
    if (!(b instanceof PVec) || a.n !== b.n) return false;
    for (let i = 0; i < a.n; i++) if (!equals(a.at(i), b.at(i))) return false;
    return true;
  }
  if (a instanceof PMap) return b instanceof PMap && mapEq(a, b, equals);
  if (a instanceof PSet) return b instanceof PSet && setEq(a, b);
  return sameAtom(a as object, b as object);
}
