/**
 * Argument checking helpers shared by the builtin families. Every failure is a `type_error` naming the function
 * and the 1-based argument position.
 * @module
 */

import { LispError } from "../errors.ts";
import { Keyword, LFloat, LispFn, type Value } from "../values/types.ts";
import { PSet } from "../values/hashmap.ts";
import { type PVec, vecFrom } from "../values/vector.ts";
import { describe } from "../values/kinds.ts";
import type { Num } from "../values/numbers.ts";

/** Raise a `type_error` for argument `pos` of `fn`. */
export function argError(fn: string, pos: number, expected: string, got: Value, hint = ""): never {
  throw new LispError("type_error", `${fn}: expected ${expected} as argument ${pos}, got ${describe(got)}${hint}`);
}

/** A numeric argument. */
export function numArg(fn: string, args: Value[], i: number, hint = ""): Num {
  const v = args[i];
  if (typeof v === "number" || typeof v === "bigint" || v instanceof LFloat) return v;
  return argError(fn, i + 1, "a number", v, hint);
}

/** An integer argument as a JS number (bigints beyond the safe range are rejected). */
export function intArg(fn: string, args: Value[], i: number): number {
  const v = args[i];
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (v instanceof LFloat && Number.isSafeInteger(v.v)) return v.v;
  return argError(fn, i + 1, "an integer", v);
}

/** A string argument. */
export function strArg(fn: string, args: Value[], i: number, hint = ""): string {
  const v = args[i];
  if (typeof v === "string") return v;
  return argError(fn, i + 1, "a string", v, hint);
}

/** A set argument. */
export function setArg(fn: string, args: Value[], i: number): PSet {
  const v = args[i];
  if (v instanceof PSet) return v;
  return argError(fn, i + 1, "a set", v);
}

/** True for function-like values (used for "did you swap the arguments?" hints). */
export function fnLike(v: Value): boolean {
  return v instanceof LispFn || v instanceof Keyword;
}

/** A hint appended when a HOF got (coll f) instead of (f coll). */
export function swapHint(fn: string, args: Value[]): string {
  return args.length >= 2 && fnLike(args[args.length - 1]) ? `; did you swap the arguments? Usage: (${fn} f coll)` : "";
}

/** The approximate allocation size of `n` slots (for ctx.alloc). */
export function slots(n: number): number {
  return 8 * n + 16;
}

/**
 * Bytes charged per entry a map or set gains: key and value slots plus the share of trie nodes (measured ~36 live
 * bytes per entry with the heap after GC), rounded up for the GC's slack.
 */
export const ENTRY_BYTES = 48;

/** Bytes charged for `n` new map or set entries (for ctx.alloc). */
export function entries(n: number): number {
  return n > 0 ? ENTRY_BYTES * n : 0;
}

/** Bytes charged for a new string of `length` UTF-16 units: header plus two bytes a unit (for ctx.alloc). */
export function stringBytes(length: number): number {
  return 32 + 2 * length;
}

/** Bytes charged for `n` new vectors of `k` slots each plus the vector holding them (for ctx.alloc). */
export function nested(n: number, k: number): number {
  return slots(n) + n * slots(k);
}

/** One vector of all items of `parts`, charged (slots and a step per item) before it is built. */
export function concatCharged(parts: Value[][], ctx: { alloc(bytes: number): void; step(n: number): void }): PVec {
  let total = 0;
  for (const xs of parts) total += xs.length;
  ctx.alloc(slots(total));
  ctx.step(total);
  const out = new Array<Value>(total);
  let o = 0;
  for (const xs of parts) for (let j = 0; j < xs.length; j++) out[o++] = xs[j];
  return vecFrom(out);
}
