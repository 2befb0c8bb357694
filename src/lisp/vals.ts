/**
 * The evaluator's view of the value model and the builtin registry: one place importing `values/` and `builtins/`
 * for the analyzer and the special forms.
 * @module
 */
import type { EvalContext } from "./runtime.ts";
import { type LRegex, MapBuilder, type PMap, type PSet, SetBuilder, type Value } from "./values/mod.ts";
import { lookupBuiltin } from "./builtins/registry.ts";
import { tryCompileRegex } from "./builtins/regex.ts";

export {
  callValue,
  describe,
  EMPTY_MAP,
  EMPTY_VEC,
  equals,
  flexGet,
  fromJson,
  Keyword,
  kw,
  LispFn,
  LRegex,
  MapBuilder,
  mapFlexGet,
  mkFloat,
  NOT_FOUND,
  PMap,
  PSet,
  PVec,
  seqView,
  SymbolRef,
  toJson,
  toToolArgs,
  type Value,
  Var,
  vecFrom,
} from "./values/mod.ts";
export { printLine, prStr } from "./printer.ts";

/** A map from alternating keys and values (runtime duplicates: last wins). */
export function mapFromKvs(kvs: Value[]): PMap {
  const b = new MapBuilder();
  for (let i = 0; i + 1 < kvs.length; i += 2) b.set(kvs[i], kvs[i + 1]);
  return b.build();
}

/** A set of the given members. */
export function setFromItems(items: Value[]): PSet {
  const b = new SetBuilder();
  for (const x of items) b.add(x);
  return b.build();
}

/** Compile a regex literal's pattern text. Throws an Error with the engine's message when invalid. */
export function makeRegex(source: string): LRegex {
  const r = tryCompileRegex(source);
  if (!r.ok) throw new Error(r.message);
  return r.regex;
}

/**
 * The value a builtin symbol evaluates to in evaluation context `run` (constant or function value), or undefined
 * when unknown.
 */
export function builtinValue(ns: string | null, name: string, run: EvalContext): Value | undefined {
  const b = lookupBuiltin(ns, name);
  if (b === undefined) return undefined;
  return b.constant !== undefined ? b.constant : run.builtinFn(b);
}
