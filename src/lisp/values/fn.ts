/**
 * Calling values: functions, keywords (`(:k m)`), maps (`(m k)`) and sets (`(s x)`) are callable (docs/language.md §3).
 * Higher-order builtins convert their function argument once with `fn1`/`fnN`/`keyFn` and call the result in the
 * loop.
 * @module
 */

import { LispError } from "../errors.ts";
import { Keyword, LispFn, type Value } from "./types.ts";
import { PVec } from "./vector.ts";
import { PMap, PSet } from "./hashmap.ts";
import { flexGet, getIn } from "./flex.ts";
import { describe } from "./kinds.ts";

/** Values that can be called. */
export type Callable = LispFn | Keyword | PMap | PSet;

/** True for callable values. */
export function isCallable(v: Value): v is Callable {
  return v instanceof LispFn || v instanceof Keyword || v instanceof PMap || v instanceof PSet;
}

/** Call any callable value with evaluated arguments; raises `not_callable` for other values. */
export function callValue(f: Value, args: Value[]): Value {
  if (f instanceof LispFn) return f.call(args);
  if (f instanceof Keyword) {
    if (args.length === 1) return flexGet(args[0], f, null);
    if (args.length === 2) return flexGet(args[0], f, args[1]);
    throw new LispError(
      "arity_error",
      `keyword :${f.name} called with ${args.length} arguments; use (:${f.name} m) or (:${f.name} m default)`,
    );
  }
  if (f instanceof PMap) {
    if (args.length === 1) return flexGet(f, args[0], null);
    if (args.length === 2) return flexGet(f, args[0], args[1]);
    throw new LispError("arity_error", `a map called as a function takes 1 or 2 arguments, got ${args.length}`);
  }
  if (f instanceof PSet) {
    if (args.length === 1) return f.has(args[0]) ? args[0] : null;
    throw new LispError("arity_error", `a set called as a function takes 1 argument, got ${args.length}`);
  }
  throw new LispError("not_callable", `${describe(f)} is not a function and cannot be called`);
}

function badFn(f: Value, fnName: string, pos: number, hint: string): never {
  let msg = `${fnName}: expected a function as argument ${pos}, got ${describe(f)}`;
  if (f instanceof PMap) msg += "; wrap a map in a function: #(m %)";
  else if (hint) msg += hint;
  throw new LispError("type_error", msg);
}

/**
 * A unary JS function for the HOF argument `f` (fn, keyword = field access, set = membership). Maps are rejected
 * (wrap them in `#(m %)`). `hint` is appended to the type error (e.g. a "did you swap the arguments?" hint).
 */
export function fn1(f: Value, fnName: string, pos: number, hint = ""): (x: Value) => Value {
  if (f instanceof LispFn) return f.call1.bind(f);
  if (f instanceof Keyword) return (x) => flexGet(x, f, null);
  if (f instanceof PSet) return (x) => (f.has(x) ? x : null);
  return badFn(f, fnName, pos, hint);
}

/** A binary JS function for the HOF argument `f`. */
export function fn2(f: Value, fnName: string, pos: number, hint = ""): (x: Value, y: Value) => Value {
  if (f instanceof LispFn) return f.call2.bind(f);
  if (f instanceof Keyword) return (x, y) => flexGet(x, f, y);
  return badFn(f, fnName, pos, hint);
}

/** An n-ary JS function for the HOF argument `f`. */
export function fnN(f: Value, fnName: string, pos: number, hint = ""): (args: Value[]) => Value {
  if (f instanceof LispFn) return f.call.bind(f);
  if (f instanceof Keyword || f instanceof PSet) return (args) => callValue(f, args);
  return badFn(f, fnName, pos, hint);
}

/**
 * A key function ("kf"): keyword or string key (flex), vector path (nested flex get-in), or any callable.
 */
export function keyFn(kf: Value, fnName: string, pos: number, hint = ""): (x: Value) => Value {
  if (kf instanceof Keyword || typeof kf === "string") return (x) => flexGet(x, kf, null);
  if (kf instanceof PVec) return (x) => getIn(x, kf, null);
  return fn1(kf, fnName, pos, hint);
}
