/**
 * Core special forms: do, if, let, loop, recur, quote, comment (fn: special_fn.ts; defs: special_def.ts).
 * @module
 */
import type { Form, SymbolForm } from "./forms.ts";
import {
  type Ana,
  conditional,
  constNode,
  formError,
  type Frame,
  type Node,
  nonTail,
  RECUR,
  type RecurTarget,
} from "./nodes.ts";
import { analyze, analyzeBody } from "./analyze.ts";
import { defSpecial } from "./specials.ts";
import type { LexScope } from "./scope.ts";
import { type Binder, compilePattern } from "./destructure.ts";

/** Raise invalid_arity for a special form used with the wrong shape. */
export function arityFail(a: Ana, form: Form, message: string): never {
  throw formError(a, "invalid_arity", message, form);
}

defSpecial("do", ["(do exprs*)"], "Evaluates the expressions in order and returns the last (nil when empty).", (
  items,
  _form,
  a,
) => analyzeBody(items.slice(1), a), true);

defSpecial("if", ["(if test then)", "(if test then else)"], "Evaluates then when test is truthy, else `else`.", (
  items,
  form,
  a,
) => {
  if (items.length < 3 || items.length > 4) {
    arityFail(a, form, `if expects 2 or 3 arguments (test then else?), got ${items.length - 1}`);
  }
  const test = analyze(items[1], nonTail(a));
  const b = conditional(a);
  const th = analyze(items[2], b);
  const el = items.length === 4 ? analyze(items[3], b) : constNode(null);
  return (f) => {
    const t = test(f);
    return t !== null && t !== false ? th(f) : el(f);
  };
}, true);

/** Check a binding vector `[p v …]`. */
export function bindingVector(a: Ana, form: Form | undefined, what: string, whole: Form): Form[] {
  if (form === undefined || form.type !== "vector") {
    throw formError(a, "invalid_form", `${what} requires a binding vector, e.g. (${what} [x 1] ...)`, form ?? whole);
  }
  if (form.items.length % 2 !== 0) {
    throw formError(
      a,
      "invalid_form",
      `${what} binding vector needs an even number of forms (pattern value pairs)`,
      form,
    );
  }
  return form.items;
}

/**
 * One or two bindings of plain names (`[m (:model t) cur (get acc m)]`) compiled into `scope` as their slots and
 * init nodes, or null (nothing bound) when there are more or one destructures.
 */
function simpleBindings(pairs: Form[], a: Ana, scope: LexScope): { slots: number[]; inits: Node[] } | null {
  if (pairs.length !== 2 && pairs.length !== 4) return null;
  for (let i = 0; i < pairs.length; i += 2) {
    const p = pairs[i];
    if (p.type !== "symbol" || p.ns !== null || p.name === "&") return null;
  }
  const slots: number[] = [];
  const inits: Node[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    // Analyzed before the name is bound, as compileBindings does: an init sees the earlier names only.
    inits.push(analyze(pairs[i + 1], { ...a, scope, tail: false }));
    slots.push(scope.bind((pairs[i] as SymbolForm).name));
  }
  return { slots, inits };
}

/** Compile sequential bindings into `scope`: returns a node that evaluates and binds them all. */
export function compileBindings(pairs: Form[], a: Ana, scope: LexScope, what: string): (f: Frame) => void {
  const inits: Node[] = [];
  const binders: Binder[] = [];
  const slots: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const inner: Ana = { ...a, scope, tail: false };
    inits.push(analyze(pairs[i + 1], inner));
    const p = pairs[i];
    if (p.type === "symbol" && p.ns === null && p.name !== "&") {
      slots.push(scope.bind(p.name));
      binders.push(null as unknown as Binder);
    } else {
      slots.push(-1);
      binders.push(compilePattern(p, inner, scope, what));
    }
  }
  const n = inits.length;
  if (n === 1 && slots[0] >= 0) {
    const [init] = inits;
    const s = slots[0];
    return (f) => {
      f[s] = init(f);
    };
  }
  return (f) => {
    for (let i = 0; i < n; i++) {
      const v = inits[i](f);
      if (slots[i] >= 0) f[slots[i]] = v;
      else binders[i](f, v);
    }
  };
}

defSpecial(
  "let",
  ["(let [bindings*] exprs*)"],
  "Binds names (with destructuring) sequentially, then evaluates the body.",
  (
    items,
    form,
    a,
  ) => {
    const pairs = bindingVector(a, items[1], "let", form);
    const scope = a.scope.child();
    const simple = simpleBindings(pairs, a, scope);
    const bind = simple === null ? compileBindings(pairs, a, scope, "let") : null;
    const body = analyzeBody(items.slice(2), { ...a, scope });
    if (simple !== null && simple.slots.length === 1) {
      // One or two plain names: bound inline, no binding loop and no extra node call.
      const [s0] = simple.slots, [i0] = simple.inits;
      return (f) => {
        f[s0] = i0(f);
        return body(f);
      };
    }
    if (simple !== null) {
      const [s0, s1] = simple.slots, [i0, i1] = simple.inits;
      return (f) => {
        f[s0] = i0(f);
        f[s1] = i1(f);
        return body(f);
      };
    }
    return (f) => {
      bind!(f);
      return body(f);
    };
  },
);

defSpecial(
  "loop",
  ["(loop [bindings*] exprs*)"],
  "Like let, but (recur ...) in tail position rebinds the bindings and jumps back to the top.",
  (items, form, a) => {
    const pairs = bindingVector(a, items[1], "loop", form);
    const scope = a.scope.child();
    const raw: number[] = [];
    const inits: Node[] = [];
    const binders: (Binder | null)[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const inner: Ana = { ...a, scope, tail: false };
      inits.push(analyze(pairs[i + 1], inner));
      const p = pairs[i];
      if (p.type === "symbol" && p.ns === null) {
        raw.push(scope.bind(p.name));
        binders.push(null);
      } else {
        raw.push(scope.fn.alloc());
        binders.push(compilePattern(p, inner, scope, "loop"));
      }
    }
    const target: RecurTarget = { slots: raw, what: "loop" };
    const body = analyzeBody(items.slice(2), { ...a, scope, tail: true, recur: target });
    const n = raw.length;
    const destructured = binders.some((b) => b !== null);
    const R = a.p.run;
    return (f) => {
      for (let i = 0; i < n; i++) {
        const v = inits[i](f);
        f[raw[i]] = v;
        if (binders[i] !== null) binders[i]!(f, v);
      }
      for (;;) {
        const v = body(f);
        if (v !== RECUR) return v;
        if (++R.steps >= R.nextCheck) R.slowCheck();
        if (destructured) { for (let i = 0; i < n; i++) if (binders[i] !== null) binders[i]!(f, f[raw[i]]); }
      }
    };
  },
);

defSpecial(
  "recur",
  ["(recur exprs*)"],
  "Jumps back to the enclosing loop or fn with new bindings (tail position only).",
  (
    items,
    form,
    a,
  ) => {
    if (a.recur === null || !a.tail) {
      throw formError(
        a,
        "invalid_form",
        a.recur === null
          ? "recur is only allowed inside loop or fn"
          : "recur must be in tail position (the last expression of its loop or fn)",
        form,
      );
    }
    const slots = a.recur.slots;
    const args = items.slice(1).map((x) => analyze(x, nonTail(a)));
    if (args.length !== slots.length) {
      throw formError(
        a,
        "arity_mismatch",
        `recur expects ${slots.length} argument${
          slots.length === 1 ? "" : "s"
        } (the ${a.recur.what} bindings), got ${args.length}`,
        form,
      );
    }
    if (args.length === 1) {
      const [x] = args;
      const [s] = slots;
      return (f) => {
        f[s] = x(f);
        return RECUR;
      };
    }
    if (args.length === 2) {
      const [x, y] = args;
      const [s, t] = slots;
      return (f) => {
        const vx = x(f);
        f[t] = y(f);
        f[s] = vx;
        return RECUR;
      };
    }
    const n = args.length;
    return (f) => {
      const tmp = new Array(n);
      for (let i = 0; i < n; i++) tmp[i] = args[i](f);
      for (let i = 0; i < n; i++) f[slots[i]] = tmp[i];
      return RECUR;
    };
  },
  true,
);

defSpecial("comment", ["(comment forms*)"], "Ignores its body and returns nil.", () => constNode(null));
