/**
 * Builtins: `reductions`, `take-nth` and `rseq` (sequence steps Clojure programs reach for).
 * @module
 */

import { LispError } from "../errors.ts";
import { Reduced, type Value } from "../values/types.ts";
import { PVec, vecFrom } from "../values/vector.ts";
import { fn2 } from "../values/fn.ts";
import { define } from "./table.ts";
import { argError, intArg, slots, swapHint } from "./util.ts";
import { collArg } from "./seq.ts";

define("sequences", {
  "reductions": {
    arity: [2, 3],
    args: ["[f coll]", "[f init coll]"],
    doc: "Vector of the intermediate values of (reduce f init coll), init first; a reduced value ends it.",
    fn: (a, ctx) => {
      const f = fn2(a[0], "reductions", 1, swapHint("reductions", a));
      const xs = collArg("reductions", a, a.length - 1);
      const n = xs.length;
      ctx.alloc(slots(n + 1));
      let i = 0;
      let acc: Value;
      if (a.length === 3) acc = a[1];
      else if (n === 0) return vecFrom([ctx.callFn(a[0], [])]);
      else acc = xs[i++];
      const out: Value[] = [acc];
      for (; i < n; i++) {
        acc = f(acc, xs[i]);
        if (acc instanceof Reduced) {
          out.push(acc.v);
          break;
        }
        out.push(acc);
      }
      return vecFrom(out);
    },
  },
  "take-nth": {
    arity: [2, 2],
    args: ["[n coll]"],
    doc: "Every nth item of coll, starting with the first (n ≥ 1).",
    fn: (a, ctx) => {
      const n = intArg("take-nth", a, 0);
      const xs = collArg("take-nth", a, 1);
      if (n < 1) {
        if (xs.length === 0) return vecFrom([]);
        throw new LispError(
          "type_error",
          `take-nth: n must be at least 1, got ${n} (Clojure repeats the first item forever)`,
        );
      }
      ctx.alloc(slots(Math.ceil(xs.length / n)));
      const out: Value[] = [];
      for (let i = 0; i < xs.length; i += n) out.push(xs[i]);
      return vecFrom(out);
    },
  },
  "rseq": {
    arity: [1, 1],
    args: ["[v]"],
    doc: "The items of a vector in reverse order (an empty vector → nil).",
    fn: (a, ctx) => {
      const v = a[0];
      if (!(v instanceof PVec)) return argError("rseq", 1, "a vector", v, "; use reverse for other collections");
      if (v.n === 0) return null;
      ctx.alloc(slots(v.n));
      return vecFrom(v.view().slice(0, v.n).reverse());
    },
  },
});
