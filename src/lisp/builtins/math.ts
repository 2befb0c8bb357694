/**
 * Builtins: arithmetic and math (`Math/` aliases). Integers are exact (bigint beyond 2^53), any float operand makes
 * the result a float, `/` always returns a float and raises on an integer zero divisor.
 * @module
 */

import { LispError } from "../errors.ts";
import { LFloat, type Value } from "../values/types.ts";
import {
  add,
  float,
  intFromNumber,
  isFloat,
  mul,
  neg,
  normBig,
  type Num,
  numCompare,
  sub,
  toNumber,
} from "../values/numbers.ts";
import { alias, define, type NsGroup } from "./table.ts";
import { argError, numArg } from "./util.ts";
import { numberText } from "../values/kinds.ts";

const LONG_LIMIT = 2n ** 63n;

const M: NsGroup[] = ["math"];

function isNaNNum(v: Num): boolean {
  return typeof v === "number" && v !== v;
}

function isZeroInt(v: Num): boolean {
  return v === 0;
}

function divide(a: Num, b: Num): Num {
  if (isZeroInt(b)) throw new LispError("arithmetic_error", "/: division by zero (integer divisor 0)");
  return float(toNumber(a) / toNumber(b));
}

function intDivArgs(fn: string, a: Value[]): [Num, Num] {
  const x = numArg(fn, a, 0);
  const y = numArg(fn, a, 1);
  if (toNumber(y) === 0 && !isNaNNum(y)) throw new LispError("arithmetic_error", `${fn}: division by zero`);
  return [x, y];
}

type IntOp = (x: bigint, y: bigint) => bigint;

/**
 * `quot`/`rem`/`mod`: exact on integers; with a float, Clojure's double rules — the quotient must be finite (a NaN
 * or infinite quotient raises, as Java's BigDecimal conversion does), `quot` truncates it, `rem` is
 * `x - (quot x y) * y` (so `(rem 2 ##Inf)` is ##NaN) and `mod` adds `y` when the signs differ.
 */
function intDiv(fn: string, a: Value[], big: IntOp, num: (x: number, y: number) => number): Num {
  const [x, y] = intDivArgs(fn, a);
  if (isFloat(x) || isFloat(y)) {
    const p = toNumber(x), q = toNumber(y);
    const t = p / q;
    if (!Number.isFinite(t)) {
      throw new LispError(
        "arithmetic_error",
        `${fn}: the quotient of ${numberText(p, isFloat(x))} by ${numberText(q, isFloat(y))} is not finite`,
      );
    }
    const r = p - Math.trunc(t) * q;
    if (fn === "quot") return float(Math.trunc(t) + 0);
    if (fn === "rem" || r === 0 || r !== r || (p > 0) === (q > 0)) return float(r);
    return float(r + q);
  }
  if (typeof x === "number" && typeof y === "number") return num(x, y) + 0;
  return normBig(big(BigInt(x as number | bigint), BigInt(y as number | bigint)));
}

function roundLike(fn: string, a: Value[], f: (x: number) => number): Value {
  const v = numArg(fn, a, 0);
  if (typeof v === "bigint") return v;
  const x = toNumber(v);
  if (!Number.isFinite(x)) return x;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  return intFromNumber(f(x) + 0);
}

function bigInt(fn: string, a: Value[], i: number): bigint {
  const v = a[i];
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  if (typeof v === "bigint") return v;
  return argError(fn, i + 1, "an integer", v);
}

function bitOp(fn: string, op: IntOp) {
  return (a: Value[]): Value => {
    let acc = bigInt(fn, a, 0);
    for (let i = 1; i < a.length; i++) acc = op(acc, bigInt(fn, a, i));
    return normBig(acc);
  };
}

function bitIndex(fn: string, a: Value[]): bigint {
  const n = bigInt(fn, a, 1);
  if (n < 0n) return argError(fn, 2, "a non-negative bit index", a[1]);
  if (n > 65536n) throw new LispError("arithmetic_error", `${fn}: bit index ${n} is too large (max 65536)`);
  return n;
}

function plus(a: Value[]): Value {
  let acc: Num = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (typeof v === "number" && typeof acc === "number") {
      const r: number = acc + v;
      if (Number.isInteger(r) && !(Number.isInteger(acc) && Number.isInteger(v) && Number.isSafeInteger(r))) {
        acc = add(acc, v);
      } else acc = r;
    } else acc = add(acc, numArg("+", a, i));
  }
  return acc;
}

function minus(a: Value[]): Value {
  if (a.length === 1) return neg(numArg("-", a, 0));
  let acc = numArg("-", a, 0);
  for (let i = 1; i < a.length; i++) acc = sub(acc, numArg("-", a, i));
  return acc;
}

function times(a: Value[]): Value {
  let acc: Num = 1;
  for (let i = 0; i < a.length; i++) acc = mul(acc, numArg("*", a, i));
  return acc;
}

/**
 * `max`/`min` as Clojure's Numbers.max/min: numbers only; a NaN argument wins; of equal numbers the later one wins
 * (`(max 1 1.0)` is `1.0`).
 */
function extreme(fn: string, a: Value[], sign: 1 | -1): Value {
  if (a.length === 1) return a[0]; // Clojure: ([x] x), whatever x is
  let best: Num = numArg(fn, a, 0, " (max and min take numbers; to rank other values use sort, max-by or min-by)");
  for (let i = 1; i < a.length; i++) {
    const x = numArg(fn, a, i, " (max and min take numbers; to rank other values use sort, max-by or min-by)");
    if (isNaNNum(best)) continue;
    if (isNaNNum(x) || !(sign * numCompare(best, x) > 0)) best = x;
  }
  return best;
}

/**
 * `(int "5")` is a ClassCastException in Clojure; PTC-Lisp has no character type (`\5` is the string "5"), so a code
 * point would be silently wrong for the common mistake of converting text. Refuse and say what to write.
 */
function stringToInt(fn: string, s: string): never {
  throw new LispError(
    "type_error",
    `${fn}: expected a number, got the string ${JSON.stringify(s.slice(0, 40))}; to read a number from text write ` +
      `(parse-long ${JSON.stringify(s.slice(0, 40))}) (nil when it is not one)`,
  );
}

define("math", {
  "+": { arity: [0, Infinity], args: ["[& xs]"], doc: "Sum (exact integers; (+) is 0).", groups: M, fn: plus },
  "-": {
    arity: [1, Infinity],
    args: ["[x]", "[x & ys]"],
    doc: "Subtract the ys from x, or negate x.",
    groups: M,
    fn: minus,
  },
  "*": { arity: [0, Infinity], args: ["[& xs]"], doc: "Product (exact integers; (*) is 1).", groups: M, fn: times },
  "/": {
    arity: [1, Infinity],
    args: ["[x]", "[x & ys]"],
    doc: "Float division, left to right; (/ x) is 1/x; an integer 0 divisor raises.",
    groups: M,
    fn: (a) => {
      if (a.length === 1) {
        // Clojure's one-argument (/ x) raises for any zero, a float 0.0 included (only (/ 1 0.0) is ##Inf)
        const x = numArg("/", a, 0);
        if (toNumber(x) === 0) throw new LispError("arithmetic_error", "/: division by zero ((/ x) of a zero)");
        return divide(1, x);
      }
      let acc = numArg("/", a, 0);
      for (let i = 1; i < a.length; i++) acc = divide(acc, numArg("/", a, i));
      return isFloat(acc) ? acc : float(toNumber(acc));
    },
  },
  "quot": {
    arity: [2, 2],
    args: ["[n d]"],
    doc: "Quotient truncated toward zero.",
    groups: M,
    fn: (a) => intDiv("quot", a, (x, y) => x / y, (x, y) => Math.trunc(x / y)),
  },
  "rem": {
    arity: [2, 2],
    args: ["[n d]"],
    doc: "Remainder with the sign of the dividend.",
    groups: M,
    fn: (a) => intDiv("rem", a, (x, y) => x % y, (x, y) => x % y),
  },
  "mod": {
    arity: [2, 2],
    args: ["[n d]"],
    doc: "Modulus with the sign of the divisor.",
    groups: M,
    fn: (a) =>
      intDiv("mod", a, (x, y) => ((x % y) + y) % y, (x, y) => {
        const r = x % y;
        return r !== 0 && (r < 0) !== (y < 0) ? r + y : r;
      }),
  },
  "inc": { arity: [1, 1], args: ["[x]"], doc: "x + 1.", groups: M, fn: (a) => add(numArg("inc", a, 0), 1) },
  "dec": { arity: [1, 1], args: ["[x]"], doc: "x - 1.", groups: M, fn: (a) => sub(numArg("dec", a, 0), 1) },
  "abs": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Absolute value.",
    groups: M,
    fn: (a) => {
      const v = numArg("abs", a, 0);
      if (typeof v === "bigint") return v < 0n ? -v : v;
      if (v instanceof LFloat) return new LFloat(Math.abs(v.v));
      return Math.abs(v);
    },
  },
  "max": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "Greatest number (##NaN if any is NaN; of equal numbers the last).",
    groups: M,
    fn: (a) => extreme("max", a, 1),
  },
  "min": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "Least number (##NaN if any is NaN; of equal numbers the last).",
    groups: M,
    fn: (a) => extreme("min", a, -1),
  },
  "round": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Nearest integer, halves away from zero; specials unchanged.",
    groups: M,
    fn: (a) => roundLike("round", a, (x) => Math.sign(x) * Math.round(Math.abs(x))),
  },
  "floor": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Largest integer ≤ x.",
    groups: M,
    fn: (a) => roundLike("floor", a, Math.floor),
  },
  "ceil": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Smallest integer ≥ x.",
    groups: M,
    fn: (a) => roundLike("ceil", a, Math.ceil),
  },
  "trunc": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Integer part of x (toward zero).",
    groups: M,
    fn: (a) => roundLike("trunc", a, Math.trunc),
  },
  "double": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "x as a float.",
    groups: M,
    fn: (a) => float(toNumber(numArg("double", a, 0))),
  },
  "float": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "x as a float.",
    groups: M,
    fn: (a) => float(toNumber(numArg("float", a, 0))),
  },
  "int": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "x truncated to an integer (32-bit range). A string is refused: parse text with parse-long.",
    groups: M,
    fn: (a) => {
      const v = a[0];
      if (typeof v === "string") stringToInt("int", v);
      const x = toNumber(numArg("int", a, 0));
      if (x !== x) return 0;
      const t = Math.trunc(x);
      if (!Number.isFinite(x) || t > 2147483647 || t < -2147483648) {
        throw new LispError(
          "arithmetic_error",
          `int: ${numberText(typeof v === "bigint" ? v : x, isFloat(v))} is outside the 32-bit integer range`,
        );
      }
      return t + 0;
    },
  },
  "long": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "x truncated to an integer (64-bit range). A string is refused: parse text with parse-long.",
    groups: M,
    fn: (a) => {
      const v = a[0];
      if (typeof v === "string") stringToInt("long", v);
      const n = numArg("long", a, 0);
      if (typeof n === "bigint") {
        if (n >= -LONG_LIMIT && n < LONG_LIMIT) return n;
      } else {
        const x = toNumber(n);
        if (x !== x) return 0;
        const t = Math.trunc(x);
        if (Number.isFinite(x) && t >= -(2 ** 63) && t < 2 ** 63) return intFromNumber(t + 0);
      }
      throw new LispError(
        "arithmetic_error",
        `long: ${numberText(typeof n === "bigint" ? n : toNumber(n), isFloat(n))} is outside the 64-bit integer range`,
      );
    },
  },
  "sqrt": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Square root as a float (negative → ##NaN).",
    groups: M,
    fn: (a) => float(Math.sqrt(toNumber(numArg("sqrt", a, 0)))),
  },
  "pow": {
    arity: [2, 2],
    args: ["[x y]"],
    doc: "x to the power y as a float.",
    groups: M,
    fn: (a) => float(Math.pow(toNumber(numArg("pow", a, 0)), toNumber(numArg("pow", a, 1)))),
  },
  "bit-and": {
    arity: [2, Infinity],
    args: ["[x y & more]"],
    doc: "Bitwise and of integers.",
    fn: bitOp("bit-and", (x, y) => x & y),
  },
  "bit-or": {
    arity: [2, Infinity],
    args: ["[x y & more]"],
    doc: "Bitwise or of integers.",
    fn: bitOp("bit-or", (x, y) => x | y),
  },
  "bit-xor": {
    arity: [2, Infinity],
    args: ["[x y & more]"],
    doc: "Bitwise exclusive or of integers.",
    fn: bitOp("bit-xor", (x, y) => x ^ y),
  },
  "bit-and-not": {
    arity: [2, Infinity],
    args: ["[x y & more]"],
    doc: "Bitwise x and not y.",
    fn: bitOp("bit-and-not", (x, y) => x & ~y),
  },
  "bit-not": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Bitwise complement.",
    fn: (a) => normBig(~bigInt("bit-not", a, 0)),
  },
  "bit-shift-left": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "x shifted left by n bits (no 64-bit wrap).",
    fn: (a) => normBig(bigInt("bit-shift-left", a, 0) << bitIndex("bit-shift-left", a)),
  },
  "bit-shift-right": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "x shifted right by n bits (arithmetic).",
    fn: (a) => normBig(bigInt("bit-shift-right", a, 0) >> bitIndex("bit-shift-right", a)),
  },
  "bit-set": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "x with bit n set.",
    fn: (a) => normBig(bigInt("bit-set", a, 0) | (1n << bitIndex("bit-set", a))),
  },
  "bit-clear": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "x with bit n cleared.",
    fn: (a) => normBig(bigInt("bit-clear", a, 0) & ~(1n << bitIndex("bit-clear", a))),
  },
  "bit-flip": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "x with bit n flipped.",
    fn: (a) => normBig(bigInt("bit-flip", a, 0) ^ (1n << bitIndex("bit-flip", a))),
  },
  "bit-test": {
    arity: [2, 2],
    args: ["[x n]"],
    doc: "True when bit n of x is set.",
    fn: (a) => ((bigInt("bit-test", a, 0) >> bitIndex("bit-test", a)) & 1n) === 1n,
  },
});

alias("+'", "+");
alias("-'", "-");
alias("*'", "*");
alias("inc'", "inc");
alias("dec'", "dec");
