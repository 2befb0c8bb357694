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
import type { Libraries } from "./library.ts";
import { SPECIALS } from "./specials.ts";
import "./compile.ts";

export type * from "./api.ts";
export { type LastError, Session } from "./session.ts";
export { readerStatus } from "./reader.ts";
export { Libraries, loadLibraries } from "./library.ts";
export { isProtectedNamespace } from "./library_refs.ts";
export type { LibraryFunction, LibraryNamespace, LibrarySource } from "./library_types.ts";
export { builtinDoc, builtinNames, searchBuiltins } from "./builtins/registry.ts";

/** A new session with an empty user namespace (seeing `libraries`, when given). */
export function createSession(libraries?: Libraries): Session {
  return new Session(libraries);
}

/** Evaluate `source` once, statelessly (seeing `libraries`, when given). */
export function evaluate(source: string, options: EvalOptions = {}, libraries?: Libraries): EvalResult {
  return new Session(libraries).eval(source, options);
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
