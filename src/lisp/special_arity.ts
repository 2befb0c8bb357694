/**
 * The `fn` form with one or several arities — `(fn name? [x] …)`, `(fn name? ([x] …) ([x y] …) ([x & more] …))`, the
 * same in `defn` — and `letfn` (local, mutually recursive functions). Each arity is an ordinary closure; `MultiFn`
 * picks one by argument count.
 * @module
 */
import { type Form, formText, isSym, type SymbolForm } from "./forms.ts";
import { type Ana, formError, type Frame, type Node } from "./nodes.ts";
import { analyzeBody } from "./analyze.ts";
import { defSpecial } from "./specials.ts";
import { analyzeFn, closureNode } from "./special_fn.ts";
import { arityFail } from "./special_core.ts";
import { Closure } from "./closure.ts";
import { LispError } from "./errors.ts";
import { LispFn, type Value } from "./vals.ts";

/** A function with several arities: at most one per fixed argument count, plus at most one variadic one. */
export class MultiFn extends LispFn {
  readonly name: string;
  constructor(
    name: string,
    /** Fixed arities by argument count. */
    readonly fixed: (Closure | undefined)[],
    readonly variadic: Closure | null,
  ) {
    super();
    this.name = name;
  }

  /** Every arity, fixed ones first. */
  arities(): Closure[] {
    const out = this.fixed.filter((c): c is Closure => c !== undefined);
    if (this.variadic !== null) out.push(this.variadic);
    return out;
  }

  private pick(n: number): Closure {
    const c = this.fixed[n];
    if (c !== undefined) return c;
    const v = this.variadic;
    if (v !== null && n >= v.info.paramSlots.length) return v;
    const counts = this.fixed.flatMap((x, i) => (x === undefined ? [] : [String(i)]));
    if (v !== null) counts.push(`${v.info.paramSlots.length} or more`);
    const want = counts.length > 1 ? `${counts.slice(0, -1).join(", ")} or ${counts.at(-1)}` : counts[0];
    throw new LispError("arity_error", `Function ${this.name} expects ${want} arguments, got ${n}`);
  }

  call(args: Value[]): Value {
    return this.pick(args.length).call(args);
  }

  override call1(x: Value): Value {
    return this.pick(1).call1(x);
  }

  override call2(x: Value, y: Value): Value {
    return this.pick(2).call2(x, y);
  }

  /** `#fn[[x] [x y]]`. */
  printed(): string {
    return `#fn[${this.arities().map((c) => `[${c.info.printedParams.join(" ")}]`).join(" ")}]`;
  }
}

/**
 * Analyze what follows a fn's name: either `[params] body…` (one arity) or `([params] body…)+` (several).
 * `form` is the whole fn/defn form (for error positions).
 */
export function analyzeFnForms(
  a: Ana,
  name: string,
  rest: Form[],
  form: Form,
  selfName: string | null,
  doc?: string,
): Node {
  const first = rest[0];
  if (first === undefined || first.type !== "list") {
    return closureNode(analyzeFn(a, name, first ?? form, rest.slice(1), form, selfName, doc));
  }
  const fixed: Node[] = [];
  let variadic: Node | null = null;
  let variadicMin = -1;
  let maxFixed = -1;
  for (const arity of rest) {
    if (arity.type !== "list" || arity.items[0]?.type !== "vector") {
      throw formError(
        a,
        "invalid_form",
        `${name}: each arity of a multi-arity function is ([params] body…), got ${formText(arity)}`,
        arity,
      );
    }
    const params = arity.items[0];
    const amp = params.items.findIndex((p) => isSym(p, "&"));
    const info = analyzeFn(a, name, params, arity.items.slice(1), arity, selfName, doc);
    if (amp >= 0) {
      if (variadic !== null) {
        throw formError(a, "invalid_form", `${name}: a function can have only one variadic (&) arity`, arity);
      }
      variadic = closureNode(info);
      variadicMin = info.paramSlots.length;
    } else {
      const n = info.paramSlots.length;
      if (fixed[n] !== undefined) {
        throw formError(a, "invalid_form", `${name}: two arities take ${n} argument${n === 1 ? "" : "s"}`, arity);
      }
      fixed[n] = closureNode(info);
      maxFixed = Math.max(maxFixed, n);
    }
  }
  if (variadic !== null && maxFixed > variadicMin) {
    throw formError(
      a,
      "invalid_form",
      `${name}: a fixed arity (${maxFixed} arguments) cannot take more parameters than the variadic one (${variadicMin} + rest)`,
      form,
    );
  }
  const v = variadic;
  return (f) => {
    const cs = fixed.map((n) => (n === undefined ? undefined : n(f) as Closure));
    const m = new MultiFn(name, cs, v === null ? null : v(f) as Closure);
    for (const c of m.arities()) c.self = m;
    return m;
  };
}

/** Point the captures of `fnv` that refer to the letfn slots `slots` at the functions now stored there. */
function tieKnot(fnv: Value, slots: Set<number>, f: Frame): void {
  const closures = fnv instanceof MultiFn ? fnv.arities() : fnv instanceof Closure ? [fnv] : [];
  for (const c of closures) {
    const from = c.info.scope.captureFrom;
    for (let j = 0; j < from.length; j++) {
      const r = from[j];
      if (r.kind === "slot" && slots.has(r.index)) c.captured[j] = f[r.index];
    }
  }
}

defSpecial(
  "fn",
  ["(fn name? [params*] exprs*)", "(fn name? ([params*] exprs*)+)"],
  "Creates a function (closure); params may destructure; & rest; one or several arities.",
  (items, form, a) => {
    let i = 1;
    let selfName: string | null = null;
    if (isSym(items[1])) {
      selfName = (items[1] as SymbolForm).name;
      i = 2;
    }
    if (items[i] === undefined) arityFail(a, form, "fn requires a parameter vector: (fn [x] ...)");
    return analyzeFnForms(a, selfName ?? "fn", items.slice(i), form, selfName);
  },
);

defSpecial(
  "letfn",
  ["(letfn [(name [params*] exprs*)+] body*)"],
  "Local functions that may call each other (and themselves), visible in the body.",
  (items, form, a) => {
    const specs = items[1];
    if (specs === undefined || specs.type !== "vector") {
      throw formError(a, "invalid_form", "letfn requires a vector of function specs: (letfn [(f [x] …)] body…)", form);
    }
    const scope = a.scope.child();
    const names: SymbolForm[] = [];
    for (const s of specs.items) {
      const head = s.type === "list" ? s.items[0] : undefined;
      if (head === undefined || head.type !== "symbol" || head.ns !== null) {
        throw formError(a, "invalid_form", `letfn: each spec is (name [params] body…), got ${formText(s)}`, s);
      }
      names.push(head);
    }
    const slots = names.map((n) => scope.bind(n.name));
    const inner: Ana = { ...a, scope, tail: false };
    const fns = specs.items.map((s, i) =>
      analyzeFnForms(inner, names[i].name, (s as { items: Form[] }).items.slice(1), s, null)
    );
    const slotSet = new Set(slots);
    const body = analyzeBody(items.slice(2), { ...a, scope });
    const n = fns.length;
    return (f) => {
      for (let i = 0; i < n; i++) f[slots[i]] = fns[i](f);
      for (let i = 0; i < n; i++) tieKnot(f[slots[i]], slotSet, f);
      return body(f);
    };
  },
);
