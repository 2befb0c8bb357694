/**
 * Call nodes: generic calls of any callable value, and direct calls of statically resolved builtins (arity checked
 * at analysis time, with number fast paths for the hottest arithmetic and comparisons).
 * @module
 */
import { type Form, lineCol, type SymbolForm } from "./forms.ts";
import { type Ana, constOf, formError, type Node, slotOf, UNBOUND } from "./nodes.ts";
import { LispError } from "./errors.ts";
import type { EvalContext } from "./runtime.ts";
import { INTRINSIC1, INTRINSIC2, INTRINSIC3, MISS } from "./intrinsics.ts";
import { type Builtin, checkArity, lookupBuiltin } from "./builtins/registry.ts";
import { callValue, LispFn } from "./vals.ts";

/** The builtin a head symbol denotes, unless a local, user var or global shadows it. */
export function staticBuiltin(s: SymbolForm, a: Ana): Builtin | undefined {
  if (s.ns === null) {
    if (a.scope.has(s.name) || a.p.defined.has(s.name) || a.p.globals.has(s.name)) return undefined;
    const cell = a.p.cells.get(s.name);
    if (cell !== undefined && cell.value !== UNBOUND) return undefined;
  }
  const b = lookupBuiltin(s.ns, s.name);
  return b !== undefined && b.constant === undefined ? b : undefined;
}

/** Where a call form sits in its program's source: found lazily, only when the call fails. */
export interface CallSite {
  source: string;
  at: number;
  /** The evaluation context the call runs in (its `source` is the program now running). */
  run: EvalContext;
  /** The library file the call is written in (absent in programs). */
  file?: string;
}

/** The call site of `form` in the program being analyzed. */
export function callSite(form: Form, a: Ana): CallSite {
  return { source: a.p.source, at: form.at, run: a.p.run, file: a.p.file };
}

/**
 * Give a runtime error the position of the innermost call that raised it: `(line L, column C)` is appended to the
 * message (as analysis errors have it) and set as the error's line/column. Errors that already carry a position,
 * budget errors, non-Lisp values (signals, host faults) and calls written in an earlier evaluation's source (a
 * function a REPL or session defined before) pass through unchanged; an outer call of the current program then
 * locates them.
 */
export function located(e: unknown, site: CallSite): unknown {
  if (site.file !== undefined) return inLibrary(e, site);
  if (e instanceof LispError && e.line === undefined && !e.uncatchable && site.source === site.run.source) {
    const { line, column } = lineCol(site.source, site.at);
    e.line = line;
    e.column = column;
    e.message = `${e.message} (line ${line}, column ${column})`;
  }
  return e;
}

/**
 * An error raised inside a library function gets the library's position once (the innermost call in the library
 * file), as `(in FILE line L, column C)`; the calling program's own call site is added later by `located`.
 */
function inLibrary(e: unknown, site: CallSite): unknown {
  if (e instanceof LispError && !e.uncatchable && e.line === undefined && !e.libraryPlace) {
    const { line, column } = lineCol(site.source, site.at);
    e.libraryPlace = `${site.file}:${line}:${column}`;
    e.message = `${e.message} (in ${site.file} line ${line}, column ${column})`;
  }
  return e;
}

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
  const R = a.p.run;
  const n = args.length;
  const site = callSite(form, a);
  switch (n) {
    case 0:
      return () => {
        if (++R.steps >= R.nextCheck) R.slowCheck();
        try {
          return fn([], R);
        } catch (e) {
          throw located(e, site);
        }
      };
    case 1: {
      const [a0] = args;
      const op = Object.hasOwn(INTRINSIC1, b.name) ? INTRINSIC1[b.name] : undefined;
      const s0 = slotOf(a0);
      if (op !== undefined && s0 >= 0) {
        // The argument is a local: read from the frame (one node call fewer per call).
        return (f) => {
          const x = f[s0];
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x);
            return r !== MISS ? r : fn([x], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      if (op !== undefined) {
        return (f) => {
          const x = a0(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x);
            return r !== MISS ? r : fn([x], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      return (f) => {
        const x = a0(f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        try {
          return fn([x], R);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    case 2: {
      const [a0, a1] = args;
      const op = Object.hasOwn(INTRINSIC2, b.name) ? INTRINSIC2[b.name] : undefined;
      const c1 = constOf(a1);
      if (op !== undefined && c1 !== undefined) {
        // A constant second operand (`(= (:status t) "error")`, `(+ n 1)`, `(get m :k)`): no node call for it.
        const y = c1.v;
        const s0 = slotOf(a0);
        if (s0 >= 0) {
          return (f) => {
            const x = f[s0];
            if (++R.steps >= R.nextCheck) R.slowCheck();
            try {
              const r = op(x, y);
              return r !== MISS ? r : fn([x, y], R);
            } catch (e) {
              throw located(e, site);
            }
          };
        }
        return (f) => {
          const x = a0(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x, y);
            return r !== MISS ? r : fn([x, y], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      if (op !== undefined) {
        return (f) => {
          const x = a0(f);
          const y = a1(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x, y);
            return r !== MISS ? r : fn([x, y], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      return (f) => {
        const x = a0(f);
        const y = a1(f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        try {
          return fn([x, y], R);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    case 3: {
      const [a0, a1, a2] = args;
      const op = Object.hasOwn(INTRINSIC3, b.name) ? INTRINSIC3[b.name] : undefined;
      const s0 = slotOf(a0), s1 = slotOf(a1);
      if (op !== undefined && s0 >= 0 && s1 >= 0) {
        // A map and a key held in locals (`(assoc acc k v)`, `(get m k default)` in a reduce): read from the frame.
        return (f) => {
          const x = f[s0];
          const y = f[s1];
          const z = a2(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x, y, z, R);
            return r !== MISS ? r : fn([x, y, z], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      if (op !== undefined) {
        return (f) => {
          const x = a0(f);
          const y = a1(f);
          const z = a2(f);
          if (++R.steps >= R.nextCheck) R.slowCheck();
          try {
            const r = op(x, y, z, R);
            return r !== MISS ? r : fn([x, y, z], R);
          } catch (e) {
            throw located(e, site);
          }
        };
      }
      return (f) => {
        const x = a0(f);
        const y = a1(f);
        const z = a2(f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        try {
          return fn([x, y, z], R);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    default:
      return (f) => {
        const arr = new Array(n);
        for (let i = 0; i < n; i++) arr[i] = args[i](f);
        if (++R.steps >= R.nextCheck) R.slowCheck();
        try {
          return fn(arr, R);
        } catch (e) {
          throw located(e, site);
        }
      };
  }
}

/**
 * Build a call node: evaluates `head` and the arguments, then calls the value. Functions are called inline (no helper
 * frame: the JS stack bounds how deep non-tail recursion can go), with `call1`/`call2` for one or two arguments so no
 * argument array is allocated; other callables go through `callValue`. A failure not located deeper (an uncallable
 * value, a wrong arity, a bad destructuring of the arguments) gets the call's position.
 */
export function callNode(head: Node, args: Node[], site: CallSite): Node {
  const n = args.length;
  switch (n) {
    case 0:
      return (f) => {
        const h = head(f);
        try {
          return h instanceof LispFn ? h.call([]) : callValue(h, []);
        } catch (e) {
          throw located(e, site);
        }
      };
    case 1: {
      const [a0] = args;
      return (f) => {
        const h = head(f);
        const x = a0(f);
        try {
          return h instanceof LispFn ? h.call1(x) : callValue(h, [x]);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    case 2: {
      const [a0, a1] = args;
      return (f) => {
        const h = head(f);
        const x = a0(f);
        const y = a1(f);
        try {
          return h instanceof LispFn ? h.call2(x, y) : callValue(h, [x, y]);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    case 3: {
      const [a0, a1, a2] = args;
      return (f) => {
        const h = head(f);
        const xs = [a0(f), a1(f), a2(f)];
        try {
          return h instanceof LispFn ? h.call(xs) : callValue(h, xs);
        } catch (e) {
          throw located(e, site);
        }
      };
    }
    default:
      return (f) => {
        const h = head(f);
        const arr = new Array(n);
        for (let i = 0; i < n; i++) arr[i] = args[i](f);
        try {
          return h instanceof LispFn ? h.call(arr) : callValue(h, arr);
        } catch (e) {
          throw located(e, site);
        }
      };
  }
}
