/**
 * User functions at run time: `Closure` implements the values' `LispFn` so builtins (map, filter, reduce, sort-by …)
 * call it directly. A call allocates one frame, binds the parameters into their slots and runs the body as a loop
 * (`recur` in tail position rebinds the parameters and jumps back without growing the JS stack).
 * @module
 */
import type { FnScope } from "./scope.ts";
import { type Frame, type Node, RECUR } from "./nodes.ts";
import type { EvalContext } from "./runtime.ts";
import { LispError } from "./errors.ts";
import { LispFn, type Value, vecFrom } from "./vals.ts";

/** Analysis result of one `fn`. */
export interface FnInfo {
  name: string;
  /** Frame slots of the required parameters, in order. */
  paramSlots: number[];
  /** Slot of the `& rest` parameter, or -1. */
  restSlot: number;
  /** Slot bound to the closure itself (`(fn name [..] ..)`), or -1. */
  selfSlot: number;
  scope: FnScope;
  body: Node;
  /** Parameter names as printed by `#fn[x y]` (destructured ones print `_`). */
  printedParams: string[];
  /** Documentation (defn docstring). */
  doc?: string;
  /** The evaluation context whose budgets calls charge (that of the program the fn was written in). */
  run: EvalContext;
}

function arityText(info: FnInfo): string {
  const n = info.paramSlots.length;
  const s = info.restSlot >= 0 ? `at least ${n}` : `${n}`;
  return `${s} argument${n === 1 && info.restSlot < 0 ? "" : "s"}`;
}

/** A user-defined function value. */
export class Closure extends LispFn {
  readonly name: string;
  /** What the fn's own name (`(fn name [..] ..)`) refers to: this closure, or the multi-arity function holding it. */
  self: LispFn = this;
  constructor(readonly info: FnInfo, readonly captured: Value[]) {
    super();
    this.name = info.name;
  }

  /** Call with evaluated arguments. */
  call(args: Value[]): Value {
    const info = this.info;
    const n = args.length;
    const ps = info.paramSlots;
    const np = ps.length;
    if (n !== np && (info.restSlot < 0 || n < np)) {
      throw new LispError(
        "arity_error",
        `Function ${info.name || "fn"} expects ${arityText(info)}, got ${n}`,
      );
    }
    const R = info.run;
    if (++R.steps >= R.nextCheck) R.slowCheck();
    if (++R.depth > R.maxCallDepth) R.tooDeep();
    const f: Frame = new Array(info.scope.nslots);
    f[0] = this.captured;
    for (let i = 0; i < np; i++) f[ps[i]] = args[i];
    if (info.restSlot >= 0) f[info.restSlot] = n > np ? vecFrom(args.slice(np)) : null;
    if (info.selfSlot >= 0) f[info.selfSlot] = this.self;
    // No try/finally: an exception ends the evaluation, and pmap branches restore `depth` themselves.
    const body = info.body;
    let v = body(f);
    while (v === RECUR) {
      if (++R.steps >= R.nextCheck) R.slowCheck();
      v = body(f);
    }
    R.depth--;
    return v;
  }

  /** Call with one argument without an argument array (used by map, filter, some, sort-by … in their loops). */
  override call1(x: Value): Value {
    const info = this.info;
    if (info.paramSlots.length !== 1 || info.restSlot >= 0) return this.call([x]);
    const R = info.run;
    if (++R.steps >= R.nextCheck) R.slowCheck();
    if (++R.depth > R.maxCallDepth) R.tooDeep();
    const f: Frame = new Array(info.scope.nslots);
    f[0] = this.captured;
    f[info.paramSlots[0]] = x;
    if (info.selfSlot >= 0) f[info.selfSlot] = this.self;
    const body = info.body;
    let v = body(f);
    while (v === RECUR) {
      if (++R.steps >= R.nextCheck) R.slowCheck();
      v = body(f);
    }
    R.depth--;
    return v;
  }

  /** Call with two arguments without an argument array (used by reduce, sort comparators, merge-with …). */
  override call2(x: Value, y: Value): Value {
    const info = this.info;
    const ps = info.paramSlots;
    if (ps.length !== 2 || info.restSlot >= 0) return this.call([x, y]);
    const R = info.run;
    if (++R.steps >= R.nextCheck) R.slowCheck();
    if (++R.depth > R.maxCallDepth) R.tooDeep();
    const f: Frame = new Array(info.scope.nslots);
    f[0] = this.captured;
    f[ps[0]] = x;
    f[ps[1]] = y;
    if (info.selfSlot >= 0) f[info.selfSlot] = this.self;
    const body = info.body;
    let v = body(f);
    while (v === RECUR) {
      if (++R.steps >= R.nextCheck) R.slowCheck();
      v = body(f);
    }
    R.depth--;
    return v;
  }

  /** `#fn[x y]`. */
  printed(): string {
    return `#fn[${this.info.printedParams.join(" ")}]`;
  }
}
