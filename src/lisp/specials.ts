/**
 * The table of special forms and macros, keyed by the unqualified head symbol. Special-form modules register
 * themselves here (see compile.ts); the analyzer consults it for every list form.
 * @module
 */
import type { Form } from "./forms.ts";
import type { Ana, Node } from "./nodes.ts";
import type { EvalContext } from "./runtime.ts";
import type { Value } from "./vals.ts";

/** Analyze one special form `(head …)`; `items[0]` is the head symbol. */
export type SpecialHandler = (items: Form[], form: Form, a: Ana) => Node;

/** A registered special form. */
export interface Special {
  handler: SpecialHandler;
  /** True for `if def do recur quote`: a local binding of the same name does not shadow them. */
  core?: boolean;
  /** Documentation shown by `doc`, `:doc` and the language card. */
  doc: { arglists: string[]; doc: string };
}

/** Every special form, by name. */
export const SPECIALS: Map<string, Special> = new Map();

/**
 * Special forms that are functions in Clojure (`pmap`, `pcalls`, `juxt`) also have a value, so they can be passed to
 * other functions: name → the function value for one evaluation.
 */
export const SPECIAL_VALUES: Map<string, (run: EvalContext) => Value> = new Map();

/** Register special forms. */
export function defSpecial(name: string, arglists: string[], doc: string, handler: SpecialHandler, core = false) {
  SPECIALS.set(name, { handler, core, doc: { arglists, doc } });
}
