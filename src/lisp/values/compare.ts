/**
 * The total order across all values (docs/language.md §2). Ranks: numbers < nil/booleans/keywords (by name text) <
 * functions/regexes/refs/dates < maps and sets (size, then keys, then values) < vectors (lexicographic) < strings
 * (code-unit order). Numeric specials sort numerically.
 * @module
 */

import { LispError } from "../errors.ts";
import { Keyword, LDate, LFloat, SymbolRef, type Value } from "./types.ts";
import { PVec } from "./vector.ts";
import { PMap, PSet } from "./hashmap.ts";
import { type Num, numCompare } from "./numbers.ts";

function rank(v: Value): number {
  switch (typeof v) {
    case "number":
    case "bigint":
      return 1;
    case "boolean":
      return 2;
    case "string":
      return 6;
  }
  if (v === null || v instanceof Keyword) return 2;
  if (v instanceof LFloat) return 1;
  if (v instanceof PVec) return 5;
  if (v instanceof PMap || v instanceof PSet) return 4;
  return 3;
}

function atomName(v: Value): string {
  return v === null ? "nil" : v === true ? "true" : v === false ? "false" : (v as Keyword).name;
}

function strCmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Compare two values under the total order: -1, 0 or 1. Raises `type_error` when a NaN is compared (the `compare`
 * builtin and sorting); use `lessThan`-style helpers for `<` which answer false instead.
 */
export function compare(a: Value, b: Value): number {
  if (typeof a === "number" && typeof b === "number") {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b) return 0;
    throw new LispError("type_error", "compare: cannot compare ##NaN");
  }
  if (typeof a === "string" && typeof b === "string") return strCmp(a, b);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1: {
      const c = numCompare(a as Num, b as Num);
      if (Number.isNaN(c)) throw new LispError("type_error", "compare: cannot compare ##NaN");
      return c;
    }
    case 2:
      return strCmp(atomName(a), atomName(b));
    case 4:
      return compareMapsSets(a as PMap | PSet, b as PMap | PSet);
    case 5: {
      const x = a as PVec;
      const y = b as PVec;
      const n = Math.min(x.n, y.n);
      for (let i = 0; i < n; i++) {
        const c = compare(x.at(i), y.at(i));
        if (c !== 0) return c;
      }
      return x.n < y.n ? -1 : x.n > y.n ? 1 : 0;
    }
    case 6:
      return strCmp(a as string, b as string);
    default:
      return 0;
  }
}

/** Sort a JS array of values in place under the total order (stable). */
export function sortValues(xs: Value[]): Value[] {
  return xs.sort(compare);
}

function compareMapsSets(a: PMap | PSet, b: PMap | PSet): number {
  if (a.size !== b.size) return a.size < b.size ? -1 : 1;
  const am = a instanceof PMap;
  const bm = b instanceof PMap;
  if (am !== bm) return am ? -1 : 1;
  if (a instanceof PSet) {
    const xs = sortValues(a.members());
    const ys = sortValues((b as PSet).members());
    for (let i = 0; i < xs.length; i++) {
      const c = compare(xs[i], ys[i]);
      if (c !== 0) return c;
    }
    return 0;
  }
  const ea = sortedEntries(a);
  const eb = sortedEntries(b as PMap);
  for (let i = 0; i < ea.length; i += 2) {
    const c = compare(ea[i], eb[i]);
    if (c !== 0) return c;
  }
  for (let i = 1; i < ea.length; i += 2) {
    const c = compare(ea[i], eb[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** Map entries as a flat `[k0, v0, …]` array sorted by key under the total order. */
export function sortedEntries(m: PMap): Value[] {
  const flat = m.flat();
  const n = flat.length / 2;
  if (n <= 1) return flat;
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((i, j) => compare(flat[2 * i], flat[2 * j]));
  const out = new Array<Value>(flat.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = flat[2 * idx[i]];
    out[2 * i + 1] = flat[2 * idx[i] + 1];
  }
  return out;
}

/** Keys of a map sorted under the total order. */
export function sortedKeys(m: PMap): Value[] {
  const ks: Value[] = [];
  m.forEach((k) => ks.push(k));
  return ks.length > 1 ? ks.sort(compare) : ks;
}

/**
 * `(< a b)`-style comparison that never raises: NaN on either side (numbers) answers false.
 * `op`: -2 `<`, -1 `<=`, 1 `>=`, 2 `>`.
 */
export function ordered(a: Value, b: Value, op: -2 | -1 | 1 | 2): boolean {
  if (typeof a === "number" && typeof b === "number") {
    return op === -2 ? a < b : op === -1 ? a <= b : op === 1 ? a >= b : a > b;
  }
  let c: number;
  const ra = rank(a);
  if (ra === 1 && rank(b) === 1) {
    c = numCompare(a as Num, b as Num);
    if (Number.isNaN(c)) return false;
  } else {
    if (isNaNValue(a) || isNaNValue(b)) return false;
    c = compare(a, b);
  }
  return op === -2 ? c < 0 : op === -1 ? c <= 0 : op === 1 ? c >= 0 : c > 0;
}

function isNaNValue(v: Value): boolean {
  return typeof v === "number" && v !== v;
}

/**
 * Clojure's `compare` (clojure.lang.Util/compare), used by the `compare` builtin, `sort` and `sort-by`: `nil` comes
 * before everything; numbers compare numerically (`##NaN` compares equal to anything, as in Java); strings, keywords
 * and symbols by text (code units); booleans false < true; vectors first by length, then item by item; dates by
 * time. Anything else, or two values of different kinds, raises `type_error` as Clojure does (ClassCastException):
 * maps, sets and functions have no order. Strings answer -1/0/1 here; `javaCompare` gives Java's exact value.
 */
export function clojureCompare(a: Value, b: Value): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const ka = orderKind(a), kb = orderKind(b);
  if (ka === null || kb === null || ka !== kb) throw unordered(a, b, ka === null ? a : b, ka !== null && kb !== null);
  switch (ka) {
    case "number": {
      const c = numCompare(a as Num, b as Num);
      return c !== c ? 0 : c;
    }
    case "boolean":
      return a === b ? 0 : a ? 1 : -1;
    case "vector": {
      const x = a as PVec, y = b as PVec;
      if (x.n !== y.n) return x.n < y.n ? -1 : 1;
      for (let i = 0; i < x.n; i++) {
        const c = clojureCompare(x.at(i), y.at(i));
        if (c !== 0) return c;
      }
      return 0;
    }
    case "date":
      return Math.sign((a as LDate).ms - (b as LDate).ms);
    default:
      return strCmp(textOf(a), textOf(b));
  }
}

/** Java's `compareTo` value for two strings (the first differing code unit's difference, else the length's). */
export function javaStringCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The `compare` builtin's answer: `clojureCompare`, with Java's exact value for strings, keywords and symbols. */
export function javaCompare(a: Value, b: Value): number {
  if (typeof a === "string" && typeof b === "string") return javaStringCompare(a, b);
  const k = a !== null && b !== null ? orderKind(a) : null;
  if (k !== null && (k === "keyword" || k === "symbol") && orderKind(b) === k) {
    return javaStringCompare(textOf(a), textOf(b));
  }
  return clojureCompare(a, b);
}

type OrderKind = "number" | "string" | "keyword" | "symbol" | "boolean" | "vector" | "date";

function orderKind(v: Value): OrderKind | null {
  switch (typeof v) {
    case "number":
    case "bigint":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
  }
  if (v instanceof LFloat) return "number";
  if (v instanceof Keyword) return "keyword";
  if (v instanceof SymbolRef) return "symbol";
  if (v instanceof PVec) return "vector";
  if (v instanceof LDate) return "date";
  return null;
}

function textOf(v: Value): string {
  if (typeof v === "string") return v;
  if (v instanceof Keyword) return v.name;
  return (v as SymbolRef).full;
}

/** The kind of a value in words (no printing here: the printer depends on this module). */
function kindOf(v: Value): string {
  const k = orderKind(v);
  if (k === "keyword") return `a keyword (:${(v as Keyword).name})`;
  if (k !== null) return `a ${k}`;
  return v instanceof PMap ? "a map" : v instanceof PSet ? "a set" : "a function or other value";
}

function unordered(a: Value, b: Value, culprit: Value, mixed: boolean): LispError {
  return new LispError(
    "type_error",
    mixed
      ? `compare: cannot compare ${kindOf(a)} with ${kindOf(b)} (Clojure raises ClassCastException); ` +
        "sort values of one kind, or sort-by a key function that returns one kind"
      : `compare: ${kindOf(culprit)} has no order (Clojure raises ClassCastException); ` +
        "sort-by a key function that returns a number, string, keyword or vector",
  );
}
