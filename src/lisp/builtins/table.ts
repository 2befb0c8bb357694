/**
 * The builtin table and its definition helpers. Family modules (`seq.ts`, `maps.ts`, …) call `define`; the public
 * API lives in `registry.ts`, which loads every family.
 * @module
 */

import type { BuiltinDoc } from "../api.ts";
import { LispError } from "../errors.ts";
import { transducerHint } from "../clojure_gaps.ts";
import { LispFn, type Value } from "../values/types.ts";

/**
 * What a builtin may ask of the running evaluation. The evaluation context (runtime.ts `EvalContext`) implements it:
 * direct calls hand it in, and each builtin function value (`BuiltinFn`) is bound to one.
 */
export interface BuiltinContext {
  /** Append one `println` line (the evaluator enforces the print budget). */
  print(line: string): void;
  /** Account for roughly `bytes` of newly allocated collection/string memory (raises `memory_limit`). */
  alloc(bytes: number): void;
  /** Account for `n` interpreter steps of builtin work (raises `step_limit_exceeded`, `timeout`). */
  step(n: number): void;
  /** Call any callable value (closures, builtins, keywords, maps, sets). */
  callFn(f: Value, args: Value[]): Value;
}

/** The implementation of one builtin: evaluated arguments in, value out. */
export type BuiltinImpl = (args: Value[], ctx: BuiltinContext) => Value;

/** Namespace groups a builtin can be reached through when qualified (see registry.ts `NAMESPACES`). */
export type NsGroup =
  | "core"
  | "string"
  | "set"
  | "walk"
  | "regex"
  | "json"
  | "math"
  | "Double"
  | "Float"
  | "Integer"
  | "Long"
  | "Boolean"
  | "System"
  | "LocalDate"
  | "Instant"
  | "Duration";

/** One registered builtin. */
export interface Builtin {
  /** Canonical name (`map`, `json/parse-string`, `Integer/parseInt`, `.indexOf`). */
  readonly name: string;
  readonly fn: BuiltinImpl;
  /** `[min, max]`; max may be `Infinity`. */
  readonly arity: readonly [number, number];
  readonly doc: BuiltinDoc;
  /** Extra namespace groups (besides core for unqualified names). */
  readonly groups: readonly NsGroup[];
  /** True when the builtin exists only qualified (`json/…`, `Integer/parseInt`). */
  readonly qualifiedOnly: boolean;
  /** For constants (`Double/NaN`, `POSITIVE_INFINITY`): the value the symbol evaluates to (not a function). */
  readonly constant?: Value;
}

/** Raise `arity_error` unless `n` fits the builtin's arity. */
export function checkArity(b: Builtin, n: number): void {
  const [min, max] = b.arity;
  if (n < min || n > max) {
    const want = min === max
      ? `${min} argument${min === 1 ? "" : "s"}`
      : max === Infinity
      ? `at least ${min} argument${min === 1 ? "" : "s"}`
      : `${min} to ${max} arguments`;
    throw new LispError(
      "arity_error",
      `${b.name} expects ${want}, got ${n}. Usage: ${
        b.doc.arglists.map((a) => `(${b.name} ${a.slice(1, -1)})`.replace(" )", ")")).join(" or ")
      }${transducerHint(b.name, n)}`,
    );
  }
}

/** A builtin as a first-class function value, bound to the evaluation context whose budgets its calls charge. */
export class BuiltinFn extends LispFn {
  readonly name: string;
  readonly b: Builtin;
  readonly ctx: BuiltinContext;
  constructor(b: Builtin, ctx: BuiltinContext) {
    super();
    this.name = b.name;
    this.b = b;
    this.ctx = ctx;
  }
  call(args: Value[]): Value {
    const [min, max] = this.b.arity;
    if (args.length < min || args.length > max) checkArity(this.b, args.length);
    return this.b.fn(args, this.ctx);
  }
  printed(): string {
    return "#<builtin>";
  }
}

/** Every builtin by canonical name. */
export const TABLE = new Map<string, Builtin>();

/** Definition of one builtin as written in a family module. */
export interface BuiltinSpec {
  /** `[min, max]`, max may be Infinity. */
  arity: [number, number];
  /** Arglists like `"[f coll]"`. */
  args: string[];
  doc: string;
  fn: BuiltinImpl;
  /** Namespace groups besides core. */
  groups?: NsGroup[];
  /** Reachable only qualified. */
  qualifiedOnly?: boolean;
  constant?: Value;
  /**
   * False for a builtin that never reads its string arguments' text (concatenation only links them), so no text
   * work is charged for them (see `textCharged`).
   */
  scansText?: boolean;
}

/** UTF-16 units of string arguments charged as one step (a plain pass over text costs well under a step a unit). */
export const TEXT_UNITS_PER_STEP = 16;

/**
 * `fn` charging, before it runs, one step per `TEXT_UNITS_PER_STEP` units of its string arguments: every builtin
 * that takes a string makes at least one pass over it (an ASCII check, a copy, grapheme segmentation), so a loop over
 * a big string reaches the deadline check in proportion to the work, not only every few thousand calls.
 */
function textCharged(fn: BuiltinImpl): BuiltinImpl {
  return (args, ctx) => {
    let units = 0;
    for (let i = 0; i < args.length; i++) {
      const x = args[i];
      if (typeof x === "string") units += x.length;
    }
    if (units >= TEXT_UNITS_PER_STEP) ctx.step(Math.floor(units / TEXT_UNITS_PER_STEP));
    return fn(args, ctx);
  };
}

/** Register the builtins of one section (`sequences`, `maps`, …). */
export function define(section: string, specs: Record<string, BuiltinSpec>): void {
  for (const [name, s] of Object.entries(specs)) {
    const doc: BuiltinDoc = { name, arglists: s.args, doc: s.doc, section };
    const b: Builtin = {
      name,
      fn: s.scansText === false ? s.fn : textCharged(s.fn),
      arity: s.arity,
      doc,
      groups: s.groups ?? [],
      qualifiedOnly: s.qualifiedOnly ?? false,
      constant: s.constant,
    };
    TABLE.set(name, b);
  }
}

/** Register `alias` as another name of the existing builtin `target` (same implementation and doc text). */
export function alias(aliasName: string, target: string, groups?: NsGroup[]): void {
  const t = TABLE.get(target);
  if (!t) throw new Error(`alias ${aliasName}: unknown builtin ${target}`);
  const b: Builtin = {
    ...t,
    name: aliasName,
    doc: { ...t.doc, name: aliasName, doc: `${t.doc.doc} (alias of ${target})` },
    groups: groups ?? t.groups,
  };
  TABLE.set(aliasName, b);
}
