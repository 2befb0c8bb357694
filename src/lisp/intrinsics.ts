/**
 * Fast paths for the hottest builtins when both operands are plain JS numbers (safe integers or non-integral
 * floats). They return `MISS` whenever the general builtin must decide (bigints, boxed floats, mixed types,
 * overflow), so semantics stay exactly those of the builtin.
 * @module
 */
import { Keyword, type Value } from "./vals.ts";

/** "No fast answer: call the builtin." */
export const MISS: unique symbol = Symbol("miss");

type Op2 = (x: Value, y: Value) => Value | typeof MISS;
type Op1 = (x: Value) => Value | typeof MISS;

/** Result of an arithmetic op on two plain numbers, if it is representable as a plain number. */
function arith(r: number, x: number, y: number): number | typeof MISS {
  if (!Number.isInteger(r)) return r; // a float operand took part: non-integral floats are plain numbers
  return Number.isSafeInteger(r) && Number.isInteger(x) && Number.isInteger(y) ? r : MISS;
}

/** Two-argument intrinsics by builtin name. */
export const INTRINSIC2: Record<string, Op2> = {
  "+": (x, y) => (typeof x === "number" && typeof y === "number" ? arith(x + y, x, y) : MISS),
  "-": (x, y) => (typeof x === "number" && typeof y === "number" ? arith(x - y, x, y) : MISS),
  "*": (x, y) => (typeof x === "number" && typeof y === "number" ? arith(x * y, x, y) : MISS),
  "<": (x, y) => (typeof x === "number" && typeof y === "number" ? x < y : MISS),
  ">": (x, y) => (typeof x === "number" && typeof y === "number" ? x > y : MISS),
  "<=": (x, y) => (typeof x === "number" && typeof y === "number" ? x <= y : MISS),
  ">=": (x, y) => (typeof x === "number" && typeof y === "number" ? x >= y : MISS),
  "=": (x, y) => {
    if (typeof x === "number" && typeof y === "number") return x === y;
    if (typeof x === "string" && typeof y === "string") return x === y;
    if (x === null || y === null || typeof x === "boolean" || typeof y === "boolean") return x === y;
    if (x instanceof Keyword && y instanceof Keyword) return x === y;
    return MISS;
  },
};

/** One-argument intrinsics by builtin name. */
export const INTRINSIC1: Record<string, Op1> = {
  inc: (x) => (typeof x === "number" ? arith(x + 1, x, 1) : MISS),
  dec: (x) => (typeof x === "number" ? arith(x - 1, x, 1) : MISS),
  "nil?": (x) => x === null,
  "some?": (x) => x !== null,
  not: (x) => x === null || x === false,
  "zero?": (x) => (typeof x === "number" ? x === 0 : MISS),
};
