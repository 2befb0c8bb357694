/**
 * Number helpers (docs/language.md §2): exact integers (number when safe, bigint beyond), float contagion, `LFloat` boxing
 * of integral floats.
 * @module
 */

import { LFloat, type Value } from "./types.ts";
import { LispError } from "../errors.ts";

/** Any numeric value. */
export type Num = number | bigint | LFloat;

/** True for integer values (safe `number` integers and bigints). */
export function isInt(v: Value): v is number | bigint {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

/** True for float values (non-integral numbers, specials, `LFloat`). */
export function isFloat(v: Value): boolean {
  return (typeof v === "number" && !Number.isInteger(v)) || v instanceof LFloat;
}

/** Normalize a bigint: back to number when it is a safe integer. */
export function normBig(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

/** Integer from a JS integral number that may be beyond the safe range (→ bigint, exact as the double). */
export function intFromNumber(x: number): number | bigint {
  return Number.isSafeInteger(x) ? x : BigInt(x);
}

/** The JS number of a numeric value (bigints may lose precision). */
export function toNumber(v: Num): number {
  return typeof v === "number" ? v : v instanceof LFloat ? v.v : Number(v);
}

/** A float result from a JS number (boxes integral values). */
export function float(x: number): number | LFloat {
  return Number.isInteger(x) ? new LFloat(x) : x;
}

function bigOf(v: number | bigint): bigint {
  return typeof v === "bigint" ? v : BigInt(v);
}

/** `(+ a b)` for numeric a, b. */
export function add(a: Num, b: Num): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b)) {
        return Number.isSafeInteger(r) ? r : normBig(BigInt(a) + BigInt(b));
      }
      return new LFloat(r);
    }
    return r;
  }
  if (isFloat(a) || isFloat(b)) return float(toNumber(a) + toNumber(b));
  return normBig(bigOf(a as number | bigint) + bigOf(b as number | bigint));
}

/** `(- a b)` for numeric a, b. */
export function sub(a: Num, b: Num): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b)) {
        return Number.isSafeInteger(r) ? r : normBig(BigInt(a) - BigInt(b));
      }
      return new LFloat(r);
    }
    return r;
  }
  if (isFloat(a) || isFloat(b)) return float(toNumber(a) - toNumber(b));
  return normBig(bigOf(a as number | bigint) - bigOf(b as number | bigint));
}

/** `(* a b)` for numeric a, b. */
export function mul(a: Num, b: Num): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (Number.isInteger(r)) {
      if (Number.isInteger(a) && Number.isInteger(b)) {
        return Number.isSafeInteger(r) ? (r === 0 ? 0 : r) : normBig(BigInt(a) * BigInt(b));
      }
      return new LFloat(r);
    }
    return r;
  }
  if (isFloat(a) || isFloat(b)) return float(toNumber(a) * toNumber(b));
  const x = bigOf(a as number | bigint);
  const y = bigOf(b as number | bigint);
  // A product has about as many bits as its factors together; repeated squaring would otherwise double the size
  // (and more than double the time) of every step, inside one uninterruptible multiplication.
  if (bitLength(x) + bitLength(y) > MAX_INT_BITS + 1) {
    throw new LispError(
      "arithmetic_error",
      `*: the exact integer result would exceed ${MAX_INT_BITS} bits; multiply floats instead, e.g. (* (double x) y)`,
    );
  }
  return normBig(x * y);
}

/** Largest exact integer result of `*`, in bits. */
export const MAX_INT_BITS = 65_536;

function bitLength(x: bigint): number {
  if (x >= -(2n ** 53n) && x <= 2n ** 53n) return 54;
  return (x < 0n ? -x : x).toString(16).length * 4;
}

/** Negation. */
export function neg(a: Num): Num {
  if (typeof a === "number") return Number.isInteger(a) ? (a === 0 ? 0 : -a) : -a;
  if (a instanceof LFloat) return new LFloat(-a.v);
  return normBig(-a);
}

/** Sign-aware numeric comparison: negative, zero or positive; NaN gives NaN. */
export function numCompare(a: Num, b: Num): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  const x = a instanceof LFloat ? a.v : a;
  const y = b instanceof LFloat ? b.v : b;
  if (typeof x === "bigint" && typeof y === "bigint") return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  // mixed bigint / number
  const n = (typeof x === "number" ? x : y) as number;
  const big = (typeof x === "bigint" ? x : y) as bigint;
  if (Number.isNaN(n)) return NaN;
  let c: number;
  if (n === Infinity) c = 1;
  else if (n === -Infinity) c = -1;
  else {
    const fl = BigInt(Math.floor(n));
    c = fl > big ? 1 : fl < big ? -1 : n > Math.floor(n) ? 1 : 0;
  }
  return typeof x === "number" ? c : -c;
}
