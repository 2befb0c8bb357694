/**
 * Call nodes: generic calls of any callable value, and direct calls of statically resolved builtins (arity checked
 * at analysis time, with number fast paths for the hottest arithmetic and comparisons).
 * @module
 */
import type { Form, SymbolForm } from "./forms.ts";
import { type Ana, formError, type Node, UNBOUND } from "./analyze.ts";
import { RUN } from "./runtime.ts";
import { INTRINSIC1, INTRINSIC2, MISS } from "./intrinsics.ts";
import { type Builtin, type BuiltinContext, checkArity, resolveBuiltin } from "./builtins/registry.ts";
import { callValue, LispFn } from "./vals.ts";

/** The builtin a head symbol denotes, unless a local, user var or global shadows it. */
export function staticBuiltin(s: SymbolForm, a: Ana): Builtin | undefined {
  if (s.ns === null) {
    if (a.scope.has(s.name) || a.p.defined.has(s.name) || a.p.globals.has(s.name)) return undefined;
    const cell = a.p.cells.get(s.name);
    if (cell !== undefined && cell.value !== UNBOUND) return undefined;
  }
  const r = resolveBuiltin(s.ns, s.name);
  return r.ok && r.builtin.constant === undefined ? r.builtin : undefined;
}

/** The context builtins receive: budgets of the running evaluation. */
export const CTX: BuiltinContext = {
  print: (line) => RUN.print(line),
  alloc: (bytes) => RUN.alloc(bytes),
  step: (n) => RUN.step(n),
  callFn: (f, args) => callValue(f, args),
};

/** A direct call of a statically known builtin (arity checked now). */
export function builtinCall(b: Builtin, args: Node[], form: Form, a: Ana): Node {
  const [min, max] = b.arity;
  if (args.length < min || args.length > max) {
    try {
      checkArity(b, args.length);
    } catch (e) {
      throw formError(a, "arity_error", (e as Error).message, form);
    }
  }
  const fn = b.fn;
  const R = RUN;
  const n = args.length;
  switch (n) {
    case 0:
      return () => {
        if (++R.steps >= R.nextCheck) R.slowCheck();
        return fn([], CTX);
      };
    case 1: {
      const [a0] = args;
      const op = Object.hasOwn(INTRINSIC1, b.name) ? INTRINSIC1[b.name] : undefined;
      if (op !== undefined) {
        return (f) => {
          const x = a0(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          const r = op(x);
          return r !== MISS ? r : fn([x], CTX);
        };
      }
      return (f) => {
        const x = a0(f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        return fn([x], CTX);
      };
    }
    case 2: {
      const [a0, a1] = args;
      const op = Object.hasOwn(INTRINSIC2, b.name) ? INTRINSIC2[b.name] : undefined;
      if (op !== undefined) {
        return (f) => {
          const x = a0(f);
          const y = a1(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          const r = op(x, y);
          return r !== MISS ? r : fn([x, y], CTX);
        };
      }
      return (f) => {
        const x = a0(f);
        const y = a1(f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        return fn([x, y], CTX);
      };
    }
    default:
      return (f) => {
        const arr = new Array(n);
        for (let i = 0; i < n; i++) arr[i] = args[i](f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        return fn(arr, CTX);
      };
  }
}

/**
 * Build a call node: evaluates `head` and the arguments, then calls the value. Functions are called inline (no helper
 * frame: the JS stack bounds how deep non-tail recursion can go), with `call1`/`call2` for one or two arguments so no
 * argument array is allocated; other callables go through `callValue`.
 */
export function callNode(head: Node, args: Node[]): Node {
  const n = args.length;
  switch (n) {
    case 0:
      return (f) => {
        const h = head(f);
        return h instanceof LispFn ? h.call([]) : callValue(h, []);
      };
    case 1: {
      const [a0] = args;
      return (f) => {
        const h = head(f);
        const x = a0(f);
        return h instanceof LispFn ? h.call1(x) : callValue(h, [x]);
      };
    }
    case 2: {
      const [a0, a1] = args;
      return (f) => {
        const h = head(f);
        const x = a0(f);
        const y = a1(f);
        return h instanceof LispFn ? h.call2(x, y) : callValue(h, [x, y]);
      };
    }
    case 3: {
      const [a0, a1, a2] = args;
      return (f) => {
        const h = head(f);
        const xs = [a0(f), a1(f), a2(f)];
        return h instanceof LispFn ? h.call(xs) : callValue(h, xs);
      };
    }
    default:
      return (f) => {
        const h = head(f);
        const arr = new Array(n);
        for (let i = 0; i < n; i++) arr[i] = args[i](f);
        return h instanceof LispFn ? h.call(arr) : callValue(h, arr);
      };
  }
}
