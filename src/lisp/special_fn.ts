/**
 * Functions: analysis of one arity (closures with destructured and variadic parameters, optional self name; the `fn`
 * form itself is in special_arity.ts) and the `#(…)` shorthand with `%`, `%1..%20` and `%&` placeholders.
 * @module
 */
import { type Form, formText, isSym } from "./forms.ts";
import { type Ana, type FnLitState, formError, type Frame, type Node, type RecurTarget } from "./nodes.ts";
import { analyze, analyzeBody } from "./analyze.ts";
import { defSpecial } from "./specials.ts";
import { FnScope, LexScope, type LocalRef } from "./scope.ts";
import { type Binder, compilePattern, restArgsMap } from "./destructure.ts";
import { Closure, type FnInfo } from "./closure.ts";
import type { Value } from "./vals.ts";

function loadRef(ref: LocalRef): (f: Frame) => Value {
  const i = ref.index;
  return ref.kind === "slot" ? (f) => f[i] : (f) => f[0][i];
}

/** Build the node creating a closure for an analyzed fn. */
export function closureNode(info: FnInfo): Node {
  const from = info.scope.captureFrom.map(loadRef);
  const k = from.length;
  if (k === 0) return () => new Closure(info, []);
  const R = info.run;
  return (f) => {
    const cap = new Array(k);
    for (let i = 0; i < k; i++) cap[i] = from[i](f);
    R.alloc(48 + 8 * k);
    return new Closure(info, cap);
  };
}

/** Analyze `[params] body…` into a FnInfo. */
export function analyzeFn(
  a: Ana,
  name: string,
  params: Form,
  body: Form[],
  _form: Form,
  selfName: string | null,
  doc?: string,
): FnInfo {
  if (params.type !== "vector") {
    throw formError(a, "invalid_form", `fn requires a parameter vector, got ${formText(params)}`, params);
  }
  const fnScope = new FnScope(a.scope);
  const scope = new LexScope(fnScope, null);
  const selfSlot = selfName === null ? -1 : scope.bind(selfName);
  const paramSlots: number[] = [];
  let restSlot = -1;
  const prologue: [Binder, number][] = [];
  const printed: string[] = [];
  const items = params.items;
  const inner: Ana = { p: a.p, scope, tail: false, recur: null, fnlit: a.fnlit, cond: true };
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    let isRest = false;
    let pat = it;
    if (isSym(it, "&")) {
      if (i !== items.length - 2) {
        throw formError(a, "invalid_form", "fn parameters: '&' must be followed by exactly one parameter", it);
      }
      isRest = true;
      pat = items[++i];
    }
    let slot: number;
    if (pat.type === "symbol" && pat.ns === null) {
      slot = scope.bind(pat.name);
      printed.push(isRest ? `& ${pat.name}` : pat.name);
    } else {
      slot = fnScope.alloc();
      const b = compilePattern(pat, inner, scope, "fn parameters");
      const mapRest = isRest && pat.type === "map";
      prologue.push([mapRest ? (f, v) => b(f, restArgsMap(v, "fn parameters")) : b, slot]);
      printed.push(isRest ? "& _" : "_");
    }
    if (isRest) restSlot = slot;
    else paramSlots.push(slot);
  }
  const target: RecurTarget = { slots: restSlot >= 0 ? [...paramSlots, restSlot] : paramSlots, what: "fn" };
  const bodyNode = analyzeBody(body, { ...inner, tail: true, recur: target });
  let full = bodyNode;
  if (prologue.length > 0) {
    full = (f) => {
      for (const [b, s] of prologue) b(f, f[s]);
      return bodyNode(f);
    };
  }
  return {
    name,
    paramSlots,
    restSlot,
    selfSlot,
    scope: fnScope,
    body: full,
    printedParams: printed,
    doc,
    run: a.p.run,
  };
}

defSpecial("#()", ["#(expr)"], "Anonymous function shorthand: % or %1..%20 are the arguments, %& the rest.", (
  items,
  form,
  a,
) => {
  if (a.fnlit !== null) throw formError(a, "invalid_form", "Nested #() anonymous functions are not allowed", form);
  const fnScope = new FnScope(a.scope);
  const scope = new LexScope(fnScope, null);
  const st: FnLitState = { max: 0, rest: false, slots: new Map(), scope };
  const bodyForm: Form = items.length === 1 && items[0].type !== "symbol"
    ? items[0]
    : { type: "list", items, at: form.at };
  if (items.length === 0) throw formError(a, "invalid_form", "Empty #() is not a valid function", form);
  const paramSlots: number[] = [];
  const target: RecurTarget = { slots: paramSlots, what: "fn" };
  const body = analyze(bodyForm, { p: a.p, scope, tail: true, recur: target, fnlit: st, cond: true });
  for (let k = 1; k <= st.max; k++) {
    let s = st.slots.get(`%${k}`);
    if (s === undefined) s = scope.bind(`%${k}`);
    paramSlots.push(s);
  }
  const restSlot = st.rest ? st.slots.get("%&")! : -1;
  const required = paramSlots.slice();
  if (restSlot >= 0) paramSlots.push(restSlot);
  const printed = required.map((_, k) => `%${k + 1}`);
  if (restSlot >= 0) printed.push("& %&");
  return closureNode({
    name: "fn",
    paramSlots: required,
    restSlot,
    selfSlot: -1,
    scope: fnScope,
    body,
    printedParams: printed,
    run: a.p.run,
  });
});
