/**
 * The PTC-Lisp value model (docs/language.md §2).
 *
 * | PTC type           | JS representation                                                            |
 * |--------------------|------------------------------------------------------------------------------|
 * | nil / boolean      | `null` / `boolean`                                                           |
 * | integer            | `number` when a safe integer, `bigint` beyond 2^53 (normalized back)         |
 * | float              | non-integral `number` (incl. ±Infinity, NaN); integral floats are `LFloat`    |
 * | string             | `string` (grapheme-aware operations in `strings.ts`)                          |
 * | keyword            | interned `Keyword` (compare by identity)                                     |
 * | vector / map / set | `PVec` / `PMap` / `PSet` (persistent)                                        |
 * | function           | subclasses of `LispFn`                                                       |
 * | regex, 'sym, #'x   | `LRegex`, `SymbolRef`, `Var`                                                 |
 * @module
 */

import type { PVec } from "./vector.ts";
import type { PMap, PSet } from "./hashmap.ts";

/** Any PTC-Lisp value. */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | Keyword
  | LFloat
  | PVec
  | PMap
  | PSet
  | LispFn
  | LRegex
  | SymbolRef
  | Var
  | LDate
  | LDuration
  | Reduced;

/** Hash of a string (Java-style 31 polynomial, 32-bit). */
export function stringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Strings up to this length are worth making the engine's unique copy of (see {@link internalized}). */
export const INTERNALIZE_MAX = 64;

/**
 * The JS engine's unique ("internalized") copy of `s`, for the strings programs compare over and over: keyword names,
 * string constants of a program, the short repeated strings of JSON data. Two internalized copies of one text are the
 * same object, so `===` between them is one pointer comparison where two separate copies compare their characters
 * (a keyword lookup in a JSON record compares the keyword's name with the record's keys, which the engine already
 * internalized as property names). Property keys are internalized, so this is the key of a one-property object; a key
 * that reads as an array index stays a plain copy (same text; only slower to compare).
 */
export function internalized(s: string): string {
  if (s.length > INTERNALIZE_MAX) return s;
  for (const k in { [s]: 0 }) return k;
  return s;
}

/** An interned keyword. Use `kw(name)`; two keywords are equal iff they are the same object. */
export class Keyword {
  readonly name: string;
  /** Precomputed hash. */
  readonly h: number;
  /** The same name with every `-` replaced by `_` (flex lookup), or null when the name has no `-`. */
  readonly underscored: string | null;
  /** Lazily interned keyword form of `underscored`. */
  uKw: Keyword | null = null;
  /** Where this keyword's name was last found in a small string-keyed map (a lookup hint, not semantics). */
  hint = 0;
  /** @internal use `kw()` */
  constructor(name: string) {
    this.name = internalized(name);
    this.h = (stringHash(name) ^ 0x5bd1e995) | 0;
    this.underscored = name.includes("-") ? name.replaceAll("-", "_") : null;
  }
  toString(): string {
    return ":" + this.name;
  }
}

const keywords = new Map<string, Keyword>();

/** The interned keyword named `name` (without the colon). */
export function kw(name: string): Keyword {
  let k = keywords.get(name);
  if (k === undefined) {
    k = new Keyword(name);
    keywords.set(name, k);
  }
  return k;
}

/** A float whose value is integral (so `5.0` keeps printing as `5.0`). Non-integral floats are plain numbers. */
export class LFloat {
  readonly v: number;
  constructor(v: number) {
    this.v = v;
  }
}

/** Make a float value from a JS number: boxes integral values, leaves non-integral (and specials) plain. */
export function mkFloat(x: number): number | LFloat {
  return Number.isInteger(x) ? new LFloat(x) : x;
}

/**
 * A function value. The evaluator's closures and the builtin function values extend this class; every higher-order
 * builtin calls functions through `call(args)`.
 */
export abstract class LispFn {
  /** Name for messages (`map`, `fact`, `fn`); may be empty. */
  abstract readonly name: string;
  /** Apply the function to already-evaluated arguments. Raises `LispError` on arity/type problems. */
  abstract call(args: Value[]): Value;
  /**
   * Call with one argument. Higher-order builtins use this in their loops; subclasses may override it to avoid
   * allocating an argument array (the default delegates to `call`).
   */
  call1(x: Value): Value {
    return this.call([x]);
  }
  /** Call with two arguments (see `call1`). */
  call2(x: Value, y: Value): Value {
    return this.call([x, y]);
  }
  /** Printer form: `#fn[x y]` for closures, `#<builtin>` for builtins. */
  abstract printed(): string;
}

/** A compiled regex plus its source text (prints `#"…"`). */
export class LRegex {
  readonly source: string;
  readonly re: RegExp;
  readonly groups: number;
  constructor(source: string, re: RegExp, groups: number) {
    this.source = source;
    this.re = re;
    this.groups = groups;
  }
}

/** A quoted symbol `'x` / `'ns/x` (prints `'x`). */
export class SymbolRef {
  readonly ns: string | null;
  readonly name: string;
  constructor(ns: string | null, name: string) {
    this.ns = ns;
    this.name = name;
  }
  /** `ns/name` or `name`. */
  get full(): string {
    return this.ns === null ? this.name : `${this.ns}/${this.name}`;
  }
}

/** The result of `def` (prints `#'x`). */
export class Var {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** Interop date: `dateOnly` → a LocalDate (`YYYY-MM-DD`), else an instant (epoch ms). */
export class LDate {
  readonly ms: number;
  readonly dateOnly: boolean;
  constructor(ms: number, dateOnly: boolean) {
    this.ms = ms;
    this.dateOnly = dateOnly;
  }
  /** ISO text: `2024-01-02` or `2024-01-02T03:04:05Z`. */
  iso(): string {
    const s = new Date(this.ms).toISOString();
    if (this.dateOnly) return s.slice(0, 10);
    return s.endsWith(".000Z") ? s.slice(0, -5) + "Z" : s;
  }
}

/** Interop duration in milliseconds (prints `#duration[1500ms]`). */
export class LDuration {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
}

/** `(reduced x)`: ends a `reduce` early with `x` (prints `#reduced[x]` if it escapes one). */
export class Reduced {
  constructor(readonly v: Value) {}
}

/** The interned keyword named `name` if one exists (never creates one). */
export function findKw(name: string): Keyword | undefined {
  return keywords.get(name);
}
