/**
 * Public API of the PTC-Lisp language (what src/sandbox, the REPL and tests use).
 *
 * - `createSession()` → a `Session` (implements `LispSession`; also `lastError()` for the REPL's `*e`).
 * - `evaluate(source, options)` → `EvalResult` (stateless: a fresh session per call).
 * - `readerStatus(source)` → `"complete" | "incomplete" | {error}` for multi-line REPL input.
 * - `builtinDoc`, `searchBuiltins`, `builtinNames` from the builtin registry; `specialFormDoc`/`specialFormNames`.
 * @module
 */
import type { BuiltinDoc, EvalOptions, EvalResult } from "./api.ts";
import { Session } from "./session.ts";
import { SPECIALS } from "./specials.ts";
import "./compile.ts";

export type * from "./api.ts";
export { type LastError, Session } from "./session.ts";
export { readerStatus } from "./reader.ts";
export { builtinDoc, builtinNames, searchBuiltins } from "./builtins/registry.ts";

/** A new session with an empty user namespace. */
export function createSession(): Session {
  return new Session();
}

/** Evaluate `source` once, statelessly. */
export function evaluate(source: string, options: EvalOptions = {}): EvalResult {
  return new Session().eval(source, options);
}

/** Names of the special forms and macros, sorted (internal helper forms excluded). */
export function specialFormNames(): string[] {
  return [...SPECIALS.keys()].filter((n) => !n.startsWith("#")).sort();
}

/** Documentation of a special form or macro. */
export function specialFormDoc(name: string): BuiltinDoc | undefined {
  const s = SPECIALS.get(name);
  if (s === undefined || name.startsWith("#")) return undefined;
  return { name, arglists: s.doc.arglists, doc: s.doc.doc, section: "special forms" };
}
