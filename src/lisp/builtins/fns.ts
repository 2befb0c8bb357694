/**
 * Builtins: functional tools (identity, apply, partial, comp, complement, constantly, every-pred, some-fn, fnil).
 * @module
 */

import { LispError } from "../errors.ts";
import { LispFn, type Value } from "../values/types.ts";
import { PMap, PSet } from "../values/hashmap.ts";
import { PVec } from "../values/vector.ts";
import { mapEntries, seqView } from "../values/seq.ts";
import { callValue, isCallable } from "../values/fn.ts";
import { truthy } from "../values/kinds.ts";
import { define } from "./table.ts";
import { argError, slots } from "./util.ts";

/** A function value built by a combinator (`partial`, `comp`, …); prints `#fn[...]`. */
export class CombinatorFn extends LispFn {
  readonly name: string;
  private readonly impl: (args: Value[]) => Value;
  constructor(name: string, impl: (args: Value[]) => Value) {
    super();
    this.name = name;
    this.impl = impl;
  }
  call(args: Value[]): Value {
    return this.impl(args);
  }
  printed(): string {
    return "#fn[...]";
  }
}

function callableArg(fn: string, a: Value[], i: number): Value {
  const f = a[i];
  if (isCallable(f)) return f;
  return argError(fn, i + 1, "a function", f);
}

/** Spread the last argument of `apply` (any collection, a string's characters, nil for none), as Clojure does. */
export function spreadArgs(a: Value[]): Value[] {
  const last = a[a.length - 1];
  let tail: Value[];
  if (last instanceof PVec) tail = last.view();
  else if (last instanceof PSet) tail = last.members();
  else if (last instanceof PMap) tail = mapEntries(last);
  else if (last === null) tail = [];
  else if (typeof last === "string") tail = seqView(last, "apply", a.length);
  else {
    return argError(
      "apply",
      a.length,
      "a collection as the last argument",
      last,
      "; (apply f x y coll) spreads only its last argument: write (apply f x [y]) or (f x y)",
    );
  }
  const out = a.slice(1, -1);
  for (let i = 0; i < tail.length; i++) out.push(tail[i]);
  return out;
}

define("functions", {
  "identity": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Returns its argument.",
    fn: (a) => a[0],
  },
  "apply": {
    arity: [2, Infinity],
    args: ["[f args]", "[f x & args]"],
    doc: "Call f with the items of the last argument (vector, set or map entries) after any leading arguments.",
    fn: (a, ctx) => {
      const f = callableArg("apply", a, 0);
      const last = a[a.length - 1];
      if (last instanceof PVec) ctx.alloc(slots(last.n + a.length));
      else if (last instanceof PMap || last instanceof PSet) ctx.alloc(slots(last.size + a.length));
      return callValue(f, spreadArgs(a));
    },
  },
  "partial": {
    arity: [1, Infinity],
    args: ["[f & args]"],
    doc: "A function calling f with the given leading arguments followed by its own.",
    fn: (a) => {
      const f = callableArg("partial", a, 0);
      const pre = a.slice(1);
      return new CombinatorFn("partial", (args) => callValue(f, pre.length ? [...pre, ...args] : args));
    },
  },
  "comp": {
    arity: [0, Infinity],
    args: ["[& fs]"],
    doc: "Right-to-left composition: ((comp f g) x) = (f (g x)); (comp) is identity.",
    fn: (a) => {
      const fs = a.map((_, i) => callableArg("comp", a, i));
      if (fs.length === 0) return new CombinatorFn("comp", (args) => args[0] ?? null);
      return new CombinatorFn("comp", (args) => {
        let r = callValue(fs[fs.length - 1], args);
        for (let i = fs.length - 2; i >= 0; i--) r = callValue(fs[i], [r]);
        return r;
      });
    },
  },
  "complement": {
    arity: [1, 1],
    args: ["[f]"],
    doc: "A function returning the boolean negation of f.",
    fn: (a) => {
      const f = callableArg("complement", a, 0);
      return new CombinatorFn("complement", (args) => !truthy(callValue(f, args)));
    },
  },
  "constantly": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "A function that ignores its arguments and returns x.",
    fn: (a) => {
      const x = a[0];
      return new CombinatorFn("constantly", () => x);
    },
  },
  "every-pred": {
    arity: [1, Infinity],
    args: ["[p & ps]"],
    doc: "A predicate true when every p holds for every argument.",
    fn: (a) => {
      const ps = a.map((_, i) => callableArg("every-pred", a, i));
      return new CombinatorFn("every-pred", (args) => {
        for (const p of ps) for (const x of args) if (!truthy(callValue(p, [x]))) return false;
        return true;
      });
    },
  },
  "some-fn": {
    arity: [1, Infinity],
    args: ["[f & fs]"],
    doc:
      "A function returning the first truthy (f x) over all fs and arguments, else the last falsy result (nil/false).",
    fn: (a) => {
      const fs = a.map((_, i) => callableArg("some-fn", a, i));
      return new CombinatorFn("some-fn", (args) => {
        let r: Value = null;
        for (const f of fs) {
          for (const x of args) {
            r = callValue(f, [x]);
            if (truthy(r)) return r;
          }
        }
        return r;
      });
    },
  },
  "fnil": {
    arity: [2, 4],
    args: ["[f default]", "[f default-1 default-2]", "[f default-1 default-2 default-3]"],
    doc: "A function like f but replacing a nil first (second, third) argument with its default.",
    fn: (a) => {
      const f = callableArg("fnil", a, 0);
      const ds = a.slice(1);
      return new CombinatorFn("fnil", (args) => {
        if (args.length === 0) throw new LispError("arity_error", "fnil function called with no arguments");
        let c = args;
        for (let i = 0; i < ds.length && i < args.length; i++) {
          if (args[i] === null) {
            if (c === args) c = args.slice();
            c[i] = ds[i];
          }
        }
        return callValue(f, c);
      });
    },
  },
});
