/**
 * The one literal pattern that gives a zero-step `range` a meaning (docs/language.md §5): `(take n (range a b 0))` is `n`
 * copies of `a` (none when `a` = `b`), as Clojure's infinite `(range a b 0)` would give. There are no lazy sequences,
 * so the analyzer recognises the pattern as written; `(range a b 0)` anywhere else stays a `type_error`.
 * @module
 */
import type { Form } from "./forms.ts";
import type { Ana, Node } from "./nodes.ts";
import { staticBuiltin } from "./calls.ts";
import type { EvalContext } from "./runtime.ts";
import type { Builtin } from "./builtins/registry.ts";
import { countArg } from "./builtins/colls.ts";
import { numArg, slots } from "./builtins/util.ts";
import { numCompare } from "./values/numbers.ts";
import { EMPTY_VEC, type Value, vecFrom } from "./vals.ts";

function isZeroLiteral(f: Form): boolean {
  return (f.type === "int" && f.value === 0) || (f.type === "float" && f.value === 0);
}

/**
 * When `items` (the call `(take …)` to builtin `b`) is that pattern, the forms `[n a b]` to analyze and hand to
 * `takeRangeZero`; else null.
 */
export function takeRangeZeroForms(b: Builtin, items: Form[], a: Ana): Form[] | null {
  if (b.name !== "take" || items.length !== 3) return null;
  const r = items[2];
  if (r.type !== "list" || r.items.length !== 4 || r.items[0].type !== "symbol" || !isZeroLiteral(r.items[3])) {
    return null;
  }
  if (staticBuiltin(r.items[0], a)?.name !== "range") return null;
  return [items[1], r.items[1], r.items[2]];
}

/** The node of `(take n (range a b 0))` from the analyzed `[n a b]`. */
export function takeRangeZero([nNode, startNode, endNode]: Node[], R: EvalContext): Node {
  return (f) => {
    const n0 = nNode(f);
    const bounds: Value[] = [startNode(f), endNode(f)];
    if (++R.steps >= R.nextCheck) R.slowCheck();
    const start = numArg("range", bounds, 0);
    const end = numArg("range", bounds, 1);
    const n = countArg("take", [n0], 0);
    if (n <= 0 || numCompare(start, end) === 0) return EMPTY_VEC;
    R.alloc(slots(n));
    return vecFrom(new Array<Value>(n).fill(start));
  };
}
