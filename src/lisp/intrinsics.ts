/**
 * Fast paths for the hottest builtins: arithmetic and comparisons when the operands are plain JS numbers (safe
 * integers or non-integral floats), `get`/`assoc` on a map with a keyword or string key (the shape of every
 * aggregation over JSON records) and `includes?` on two strings (a search over payloads). They return `MISS` whenever
 * the general builtin must decide (bigints, boxed floats, mixed types, overflow, other collections), so semantics stay
 * exactly those of the builtin; the map paths call the same flexible lookup and the same write (key rule and
 * allocation charge included) the builtins call, `includes?` the builtin's own search.
 * @module
 */
import { Keyword, type Value } from "./vals.ts";
import { NOT_FOUND, PMap } from "./values/hashmap.ts";
import { mapFlexGet } from "./values/flex.ts";
import { textIncludes } from "./values/text_search.ts";
import { assoc1 } from "./builtins/maps.ts";
import type { BuiltinContext } from "./builtins/table.ts";

/** "No fast answer: call the builtin." */
export const MISS: unique symbol = Symbol("miss");

type Op2 = (x: Value, y: Value) => Value | typeof MISS;
type Op1 = (x: Value) => Value | typeof MISS;
type Op3 = (x: Value, y: Value, z: Value, ctx: BuiltinContext) => Value | typeof MISS;

/** A keyword or string key: the keys whose flexible lookup `mapFlexGet` decides alone. */
const nameKey = (k: Value): boolean => k instanceof Keyword || typeof k === "string";

/** `(get m k nf)` on a map with a name key; `MISS` otherwise. */
function getName(m: Value, k: Value, nf: Value): Value | typeof MISS {
  if (!(m instanceof PMap) || !nameKey(k)) return MISS;
  const r = mapFlexGet(m, k);
  return r === NOT_FOUND ? nf : r;
}

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
  get: (m, k) => getName(m, k, null),
  // The builtin's own search (values/text_search.ts); nil text, non-string operands: the builtin decides.
  "includes?": (t, sub) => (typeof t === "string" && typeof sub === "string" ? textIncludes(t, sub) : MISS),
};

/** Three-argument intrinsics by builtin name (they get the evaluation context to charge allocation). */
export const INTRINSIC3: Record<string, Op3> = {
  "+": (x, y, z) => {
    if (typeof x !== "number" || typeof y !== "number" || typeof z !== "number") return MISS;
    const r = arith(x + y, x, y);
    return r === MISS ? MISS : arith(r + z, r, z);
  },
  get: (m, k, nf) => getName(m, k, nf),
  assoc: (m, k, v, ctx) => (m instanceof PMap ? assoc1("assoc", m, k, v, ctx) : MISS),
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
