/**
 * Definitions in the user namespace: `def`, `defonce`, `defn`, `defn-`, `declare`. Writes go through the evaluation's undo log so a
 * failed evaluation rolls them back.
 * @module
 */
import { type Form, formText, type SymbolForm } from "./forms.ts";
import { type Ana, constNode, formError, type Node, nonTail, UNBOUND } from "./nodes.ts";
import { analyze } from "./analyze.ts";
import { cellOf } from "./symbols.ts";
import { defSpecial, SPECIALS } from "./specials.ts";
import type { EvalContext } from "./runtime.ts";
import { type Value, Var } from "./vals.ts";
import { arityFail } from "./special_core.ts";
import { analyzeFnForms } from "./special_arity.ts";

/** Record a namespace write in the evaluation's undo log and perform it. */
export function writeCell(run: EvalContext, cell: { value: unknown }, v: Value): void {
  run.defLog.push([cell, cell.value]);
  cell.value = v;
}

function defName(a: Ana, form: Form, items: Form[], what: string): SymbolForm {
  const s = items[1];
  if (s === undefined || s.type !== "symbol") {
    throw formError(a, "invalid_form", `${what} requires a name symbol: (${what} name ...)`, form);
  }
  if (s.ns !== null) {
    throw formError(a, "invalid_form", `${what}: cannot define the qualified name ${formText(s)}; use a plain name`, s);
  }
  if (SPECIALS.has(s.name)) {
    // A call (pmap …) always means the special form, so a definition would be used only as a value: refuse it.
    throw formError(
      a,
      "invalid_form",
      `${what}: ${s.name} is a special form of PTC-Lisp and cannot be redefined; give yours another name, e.g. my-${s.name}`,
      s,
    );
  }
  return s;
}

/** Analyze the value of a def with its name statically visible inside (recursive defn). */
function withDefName(a: Ana, name: string, analyzeValue: () => Node): Node {
  const had = a.p.defined.has(name);
  a.p.defined.add(name);
  const n = analyzeValue();
  if (a.cond && !had) a.p.defined.delete(name);
  return n;
}

function defNode(a: Ana, name: string, value: Node, once: boolean, doc?: string): Node {
  const cell = cellOf(a.p, name);
  const v = new Var(name);
  const R = a.p.run;
  if (once) {
    return (f) => {
      if (cell.value === UNBOUND) writeCell(R, cell, value(f));
      return v;
    };
  }
  return (f) => {
    writeCell(R, cell, value(f));
    if (doc !== undefined) cell.doc = doc;
    return v;
  };
}

function analyzeDef(items: Form[], form: Form, a: Ana, once: boolean): Node {
  const what = once ? "defonce" : "def";
  const s = defName(a, form, items, what);
  let valueForm: Form;
  let doc: string | undefined;
  if (items.length === 3) valueForm = items[2];
  else if (items.length === 4 && items[2].type === "string") {
    doc = items[2].value;
    valueForm = items[3];
  } else {
    arityFail(a, form, `${what} expects a name and a value: (${what} name value), got ${items.length - 1} arguments`);
  }
  const value = withDefName(a, s.name, () => analyze(valueForm, nonTail(a)));
  return defNode(a, s.name, value, once, doc);
}

defSpecial("def", ["(def name doc? value)"], "Defines name in the user namespace (persists across evaluations).", (
  items,
  form,
  a,
) => analyzeDef(items, form, a, false), true);

defSpecial("defonce", ["(defonce name doc? value)"], "Like def, but only when name is not defined yet.", (
  items,
  form,
  a,
) => analyzeDef(items, form, a, true));

function analyzeDefn(items: Form[], form: Form, a: Ana, what: string): Node {
  const s = defName(a, form, items, what);
  let i = 2;
  let doc: string | undefined;
  if (items[i]?.type === "string" && items.length > i + 1) doc = (items[i++] as { value: string }).value;
  if (items[i]?.type === "map") i++; // attribute map: ignored
  if (items[i] === undefined) arityFail(a, form, `${what} ${s.name} requires a parameter vector`);
  const pIndex = i;
  const value = withDefName(a, s.name, () => analyzeFnForms(a, s.name, items.slice(pIndex), form, null, doc));
  return defNode(a, s.name, value, false, doc);
}

defSpecial(
  "defn",
  ["(defn name doc? [params*] exprs*)", "(defn name doc? ([params*] exprs*)+)"],
  "Defines a named function: (def name (fn [params] ...)); one or several arities.",
  (items, form, a) => analyzeDefn(items, form, a, "defn"),
);

defSpecial(
  "defn-",
  ["(defn- name doc? [params*] exprs*)"],
  "Same as defn (a program has one namespace, so there is nothing to hide a function from).",
  (items, form, a) => analyzeDefn(items, form, a, "defn-"),
);

defSpecial("declare", ["(declare names*)"], "Declares names defined later, so earlier code may refer to them.", (
  items,
  _form,
  a,
) => {
  for (const s of items.slice(1)) {
    if (s.type !== "symbol" || s.ns !== null) {
      throw formError(a, "invalid_form", `declare expects plain symbols, got ${formText(s)}`, s);
    }
    cellOf(a.p, s.name);
    if (!a.cond) a.p.defined.add(s.name);
  }
  return constNode(null);
});
