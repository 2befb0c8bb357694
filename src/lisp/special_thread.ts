/**
 * Threading macros (->, ->>, as->, cond->, cond->>, some->, some->>), rewritten to forms and analyzed.
 * @module
 */
import type { Form, SymbolForm } from "./forms.ts";
import { type Ana, conditional, formError, type Node, nonTail } from "./nodes.ts";
import { analyze } from "./analyze.ts";
import { defSpecial } from "./specials.ts";

let gensymCounter = 0;
/** A local name no program can spell (the reader never produces '#' inside a symbol). */
export function gensym(at: number, base = "t"): SymbolForm {
  return { type: "symbol", ns: null, name: `${base}#${++gensymCounter}`, at };
}

/** Insert `x` into step `step` as the first (`last=false`) or last argument. */
export function threadStep(x: Form, step: Form, last: boolean): Form {
  if (step.type === "list" && step.items.length > 0) {
    const items = last ? [...step.items, x] : [step.items[0], x, ...step.items.slice(1)];
    return { type: "list", items, at: step.at };
  }
  return { type: "list", items: [step, x], at: step.at };
}

function thread(name: string, last: boolean) {
  defSpecial(name, [`(${name} x forms*)`], `Threads x through the forms as the ${last ? "last" : "first"} argument.`, (
    items,
    form,
    a,
  ) => {
    if (items.length < 2) throw formError(a, "invalid_thread_form", `${name} requires an initial value`, form);
    let acc = items[1];
    for (const step of items.slice(2)) acc = threadStep(acc, step, last);
    return analyze(acc, a);
  });
}
thread("->", false);
thread("->>", true);

defSpecial("as->", ["(as-> expr name forms*)"], "Binds name to expr, then to each form's value in turn.", (
  items,
  form,
  a,
) => {
  const name = items[2];
  if (items.length < 3 || name.type !== "symbol") {
    throw formError(a, "invalid_thread_form", "as-> requires an expression and a name: (as-> x n forms...)", form);
  }
  const bindings: Form[] = [name, items[1]];
  for (const step of items.slice(3)) bindings.push(name, step);
  const letForm: Form = {
    type: "list",
    items: [
      { type: "symbol", ns: null, name: "let", at: form.at },
      { type: "vector", items: bindings, at: form.at },
      name,
    ],
    at: form.at,
  };
  return analyze(letForm, a);
});

function condThread(name: string, last: boolean) {
  defSpecial(name, [`(${name} x test form ...)`], "Threads x through each form whose test is truthy.", (
    items,
    form,
    a,
  ) => {
    if (items.length < 2 || (items.length - 2) % 2 !== 0) {
      throw formError(a, "invalid_thread_form", `${name} requires an initial value and test/form pairs`, form);
    }
    const scope = a.scope.child();
    const g = gensym(form.at);
    const slot = scope.bind(g.name);
    const inner: Ana = { ...nonTail(a), scope };
    const init = analyze(items[1], nonTail(a));
    const tests: Node[] = [];
    const steps: Node[] = [];
    for (let i = 2; i < items.length; i += 2) {
      tests.push(analyze(items[i], inner));
      steps.push(analyze(threadStep(g, items[i + 1], last), conditional(inner)));
    }
    const n = tests.length;
    return (f) => {
      f[slot] = init(f);
      for (let i = 0; i < n; i++) {
        const t = tests[i](f);
        if (t !== null && t !== false) f[slot] = steps[i](f);
      }
      return f[slot];
    };
  });
}
condThread("cond->", false);
condThread("cond->>", true);

function someThread(name: string, last: boolean) {
  defSpecial(name, [`(${name} x forms*)`], "Threads x through the forms, stopping with nil at the first nil value.", (
    items,
    form,
    a,
  ) => {
    if (items.length < 2) throw formError(a, "invalid_thread_form", `${name} requires an initial value`, form);
    const scope = a.scope.child();
    const g = gensym(form.at);
    const slot = scope.bind(g.name);
    const inner: Ana = { ...nonTail(a), scope };
    const init = analyze(items[1], nonTail(a));
    const steps = items.slice(2).map((s) => analyze(threadStep(g, s, last), conditional(inner)));
    const n = steps.length;
    return (f) => {
      let v = init(f);
      for (let i = 0; i < n && v !== null; i++) {
        f[slot] = v;
        v = steps[i](f);
      }
      return v;
    };
  });
}
someThread("some->", false);
someThread("some->>", true);
