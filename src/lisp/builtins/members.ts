/**
 * Builtins: membership tests (contains?, find, distinct?) and sets built from items (hash-set, sorted-set, set).
 * @module
 */

import type { Value } from "../values/types.ts";
import { PVec, vecFrom } from "../values/vector.ts";
import { PMap, PSet, SetBuilder } from "../values/hashmap.ts";
import { equals } from "../values/equality.ts";
import { LispError } from "../errors.ts";
import { describe } from "../values/kinds.ts";
import { mapEntries, seqView } from "../values/seq.ts";
import { flexGet, flexHas, writeKey } from "../values/flex.ts";
import { define } from "./table.ts";
import { argError, entries, slots } from "./util.ts";

/** A set of the given items. */
function setOf(items: Value[], ctx: { alloc(bytes: number): void }): Value {
  ctx.alloc(slots(2) + entries(items.length));
  const b = new SetBuilder();
  for (const x of items) b.add(x);
  return b.build();
}

define("sequences", {
  "contains?": {
    arity: [2, 2],
    args: ["[coll key]"],
    doc: "Map: key present (flexible); set: member; nil → false. A vector is refused (Clojure tests an index there).",
    fn: (a) => {
      const c = a[0];
      if (c instanceof PMap) return flexHas(c, a[1]);
      if (c instanceof PSet) return c.has(a[1]);
      if (c instanceof PVec || typeof c === "string") {
        // Clojure's (contains? [10 20] 1) is true: it asks for an index, which is rarely what is meant.
        throw new LispError(
          "type_error",
          `contains?: on ${describe(c)} Clojure tests an index, not membership; write (some #{x} coll) for ` +
            "membership or (< -1 i (count coll)) for an index",
        );
      }
      if (c === null) return false;
      return argError("contains?", 1, "a map, set or vector", c);
    },
  },
  "find": {
    arity: [2, 2],
    args: ["[coll key]"],
    doc: "[key value] entry of a map key or vector index, nil when absent.",
    fn: (a) => {
      const c = a[0];
      const k = a[1];
      if (c instanceof PMap) {
        if (!flexHas(c, k)) return null;
        return vecFrom([writeKey(c, k), flexGet(c, k, null)]);
      }
      if (c instanceof PVec) {
        return typeof k === "number" && Number.isInteger(k) && k >= 0 && k < c.n ? vecFrom([k, c.at(k)]) : null;
      }
      if (c === null) return null;
      return argError("find", 1, "a map or vector", c);
    },
  },
  "distinct?": {
    arity: [1, Infinity],
    args: ["[x & more]"],
    doc: "True when no two arguments are equal.",
    fn: (a, ctx) => {
      ctx.step(Math.floor((a.length * (a.length - 1)) / 2));
      for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (equals(a[i], a[j])) return false;
      return true;
    },
  },
  "hash-set": {
    arity: [0, Infinity],
    args: ["[& items]"],
    doc: "A set of the arguments.",
    fn: setOf,
  },
  "sorted-set": {
    arity: [0, Infinity],
    args: ["[& items]"],
    doc: "Same as hash-set: every set already prints and iterates in sorted order.",
    fn: setOf,
  },
  "set": {
    arity: [1, 1],
    args: ["[coll]"],
    doc: "A set of the items of a collection (maps give entries, strings their characters; nil → #{}).",
    fn: (a, ctx) => {
      const v = a[0];
      if (v instanceof PSet) return v;
      const xs = v instanceof PMap ? mapEntries(v) : seqView(v, "set", 1);
      ctx.alloc(slots(2) + entries(xs.length));
      const b = new SetBuilder();
      for (let i = 0; i < xs.length; i++) b.add(xs[i]);
      return b.build();
    },
  },
});
