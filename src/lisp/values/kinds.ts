/**
 * Type names, truthiness and human-readable type descriptions for error messages.
 * @module
 */

import { Keyword, LDate, LDuration, LFloat, LispFn, LRegex, Reduced, SymbolRef, type Value, Var } from "./types.ts";
import { PVec } from "./vector.ts";
import { PMap, PSet } from "./hashmap.ts";
import { strFloat } from "../printer.ts";

/** Short readable text of a number for messages: `42`, `1.5`, `1.0e300`, `##Inf`, `##NaN`. */
export function numberText(x: number | bigint, isFloat = false): string {
  if (typeof x === "bigint") return x.toString();
  if (x !== x) return "##NaN";
  if (x === Infinity) return "##Inf";
  if (x === -Infinity) return "##-Inf";
  return isFloat || !Number.isInteger(x) ? strFloat(x) : String(x);
}

/** Only nil and false are falsy. */
export function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

/** The `(type x)` keyword name: number, string, keyword, boolean, vector, map, set, function, regex, unknown; nil → null. */
export function typeName(v: Value): string | null {
  switch (typeof v) {
    case "number":
    case "bigint":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
  }
  if (v === null) return null;
  if (v instanceof Keyword) return "keyword";
  if (v instanceof LFloat) return "number";
  if (v instanceof PVec) return "vector";
  if (v instanceof PMap) return "map";
  if (v instanceof PSet) return "set";
  if (v instanceof LispFn) return "function";
  if (v instanceof LRegex) return "regex";
  return "unknown";
}

/** A short description for messages: `a string ("abc")`, `a vector`, `nil`, `the number 5`. */
export function describe(v: Value): string {
  switch (typeof v) {
    case "number":
    case "bigint":
      return `a number (${numberText(v)})`;
    case "string":
      return `a string (${JSON.stringify(v.length > 20 ? v.slice(0, 17) + "..." : v)})`;
    case "boolean":
      return `a boolean (${v})`;
  }
  if (v === null) return "nil";
  if (v instanceof Keyword) return `a keyword (:${v.name})`;
  if (v instanceof LFloat) return `a number (${numberText(v.v, true)})`;
  if (v instanceof PVec) return `a vector (${v.n} items)`;
  if (v instanceof PMap) return `a map (${v.size} entries)`;
  if (v instanceof PSet) return `a set (${v.size} items)`;
  if (v instanceof LispFn) return "a function";
  if (v instanceof LRegex) return "a regex";
  if (v instanceof SymbolRef) return `a quoted symbol ('${v.full})`;
  if (v instanceof Var) return `a var (#'${v.name})`;
  if (v instanceof LDate) return "a date";
  if (v instanceof LDuration) return "a duration";
  if (v instanceof Reduced) return "a reduced value";
  return "an unknown value";
}
