/**
 * Builtins: equality, ordering and logic (=, not=, ==, <, >, <=, >=, compare, not, boolean).
 * @module
 */

import type { Value } from "../values/types.ts";
import { equals } from "../values/equality.ts";
import { javaCompare, ordered } from "../values/compare.ts";
import { isNumber } from "../values/equality.ts";
import { argError } from "./util.ts";
import { truthy } from "../values/kinds.ts";
import { type BuiltinContext, define } from "./table.ts";
import { PVec } from "../values/vector.ts";
import { PMap, PSet } from "../values/hashmap.ts";

/** Items of a collection compared per step when charging equality of collections. */
const ITEMS_PER_STEP = 16;

function eqAll(a: Value[], ctx: BuiltinContext): boolean {
  const x = a[0];
  if (x instanceof PVec) ctx.step(Math.floor(x.n / ITEMS_PER_STEP));
  else if (x instanceof PMap || x instanceof PSet) ctx.step(Math.floor(x.size / ITEMS_PER_STEP));
  for (let i = 1; i < a.length; i++) if (!equals(a[i - 1], a[i])) return false;
  return true;
}

const OPS = { [-2]: "<", [-1]: "<=", [1]: ">=", [2]: ">" } as const;

/** `<`, `<=`, `>=`, `>`: numbers only, as in Clojure (a NaN answers false); other values raise with a pointer to compare. */
function chain(op: -2 | -1 | 1 | 2) {
  const name = OPS[op];
  return (a: Value[]): Value => {
    for (let i = 0; i < a.length; i++) {
      if (a.length > 1 && !isNumber(a[i])) {
        argError(name, i + 1, "a number", a[i], "; to order strings, keywords or vectors use compare");
      }
    }
    for (let i = 1; i < a.length; i++) if (!ordered(a[i - 1], a[i], op)) return false;
    return true;
  };
}

define("comparison", {
  "=": { arity: [1, Infinity], args: ["[x & ys]"], doc: "True when all arguments are equal (1 = 1.0).", fn: eqAll },
  "==": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when all the numbers are equal by value (1 == 1.0); other values raise (use =).",
    fn: (a) => {
      for (let i = 0; i < a.length; i++) {
        if (a.length > 1 && !isNumber(a[i])) argError("==", i + 1, "a number", a[i], "; compare other values with =");
      }
      for (let i = 1; i < a.length; i++) if (!equals(a[i - 1], a[i])) return false;
      return true;
    },
  },
  "not=": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when not all arguments are equal.",
    fn: (a, ctx) => !eqAll(a, ctx),
  },
  "<": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when the numbers strictly increase (NaN → false; other values raise: use compare).",
    fn: chain(-2),
  },
  ">": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when the numbers strictly decrease.",
    fn: chain(2),
  },
  "<=": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when the numbers never decrease.",
    fn: chain(-1),
  },
  ">=": {
    arity: [1, Infinity],
    args: ["[x & ys]"],
    doc: "True when the numbers never increase.",
    fn: chain(1),
  },
  "compare": {
    arity: [2, 2],
    args: ["[x y]"],
    doc: "Negative, 0 or positive as x is before, equal to or after y: nil first, then numbers, strings, keywords, " +
      "booleans or vectors (by length, then items) compared with their own kind; other kinds raise.",
    fn: (a) => {
      return javaCompare(a[0], a[1]);
    },
  },
  "not": { arity: [1, 1], args: ["[x]"], doc: "True for nil and false, else false.", fn: (a) => !truthy(a[0]) },
  "boolean": { arity: [1, 1], args: ["[x]"], doc: "Truthiness of x as a boolean.", fn: (a) => truthy(a[0]) },
});
