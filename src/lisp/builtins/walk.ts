/**
 * Builtins: tree walking (`clojure.walk/` aliases): walk, prewalk, postwalk, tree-seq, keywordize-keys,
 * stringify-keys.
 * @module
 */

import { Keyword, kw, type Value } from "../values/types.ts";
import { PVec, vecFrom } from "../values/vector.ts";
import { MapBuilder, NOT_FOUND, PMap, PSet, SetBuilder } from "../values/hashmap.ts";
import { fn1 } from "../values/fn.ts";
import { truthy } from "../values/kinds.ts";
import { seqView } from "../values/seq.ts";
import { define } from "./table.ts";
import type { Meter } from "../values/expansion.ts";
import { argError, entries, slots } from "./util.ts";
import { LispError } from "../errors.ts";

/** Apply inner to each child of form, rebuild the same collection type (charged before it is rebuilt), then outer. */
function walk(inner: (x: Value) => Value, outer: (x: Value) => Value, form: Value, meter: Meter): Value {
  if (form instanceof PVec || form instanceof PMap || form instanceof PSet) {
    const n = form instanceof PVec ? form.n : form.size;
    meter.step(1 + n);
    meter.alloc(form instanceof PVec ? slots(n) : slots(2) + entries(n));
  }
  if (form instanceof PVec) {
    const out = new Array<Value>(form.n);
    for (let i = 0; i < form.n; i++) out[i] = inner(form.at(i));
    return outer(vecFrom(out));
  }
  if (form instanceof PMap) {
    const b = new MapBuilder();
    form.forEach((k, v) => {
      const e = inner(vecFrom([k, v]));
      if (e instanceof PVec && e.n === 2) b.set(e.at(0), e.at(1));
      else if (e !== null) {
        throw new LispError("type_error", "walk: a map entry must stay a [k v] pair after transformation");
      }
    });
    return outer(b.build());
  }
  if (form instanceof PSet) {
    const b = new SetBuilder();
    form.forEach((x) => b.add(inner(x)));
    return outer(b.build());
  }
  return outer(form);
}

function postwalk(f: (x: Value) => Value, form: Value, depth: number, m: Meter): Value {
  if (depth > 10_000) throw new LispError("stack_overflow", "postwalk: data nested too deeply");
  return walk((x) => postwalk(f, x, depth + 1, m), f, form, m);
}

function prewalk(f: (x: Value) => Value, form: Value, depth: number, m: Meter): Value {
  if (depth > 10_000) throw new LispError("stack_overflow", "prewalk: data nested too deeply");
  return walk((x) => prewalk(f, x, depth + 1, m), (x) => x, f(form), m);
}

function mapKeys(form: Value, conv: (k: Value) => Value, m: Meter): Value {
  return postwalk(
    (x) => {
      if (!(x instanceof PMap)) return x;
      const b = new MapBuilder();
      x.forEach((k, v) => b.set(conv(k), v));
      return b.build();
    },
    form,
    0,
    m,
  );
}

/** `(fn [x] (if (contains? smap x) (smap x) x))`, with exact keys as Clojure's contains? on a map. */
function replacer(fn: string, smap: Value): (x: Value) => Value {
  if (!(smap instanceof PMap)) return argError(fn, 1, "a map", smap);
  return (x) => {
    const r = smap.get(x, NOT_FOUND);
    return r === NOT_FOUND || r === undefined ? x : r;
  };
}

define("walk", {
  "walk": {
    arity: [3, 3],
    args: ["[inner outer form]"],
    doc: "Apply inner to each element of form (keeping vector/map/set type), then outer to the result.",
    groups: ["walk"],
    fn: (a, ctx) => walk(fn1(a[0], "walk", 1), fn1(a[1], "walk", 2), a[2], ctx),
  },
  "prewalk": {
    arity: [2, 2],
    args: ["[f form]"],
    doc: "Top-down transform: f is applied to each node before its children.",
    groups: ["walk"],
    fn: (a, ctx) => prewalk(fn1(a[0], "prewalk", 1), a[1], 0, ctx),
  },
  "postwalk": {
    arity: [2, 2],
    args: ["[f form]"],
    doc: "Bottom-up transform: f is applied to each node after its children.",
    groups: ["walk"],
    fn: (a, ctx) => postwalk(fn1(a[0], "postwalk", 1), a[1], 0, ctx),
  },
  "prewalk-replace": {
    arity: [2, 2],
    args: ["[smap form]"],
    doc: "Replace, top-down, every node of form that is a key of smap with its value.",
    groups: ["walk"],
    qualifiedOnly: true,
    fn: (a, ctx) => prewalk(replacer("prewalk-replace", a[0]), a[1], 0, ctx),
  },
  "postwalk-replace": {
    arity: [2, 2],
    args: ["[smap form]"],
    doc: "Replace, bottom-up, every node of form that is a key of smap with its value.",
    groups: ["walk"],
    qualifiedOnly: true,
    fn: (a, ctx) => postwalk(replacer("postwalk-replace", a[0]), a[1], 0, ctx),
  },
  "tree-seq": {
    arity: [3, 3],
    args: ["[branch? children root]"],
    doc: "Depth-first vector of the nodes of a tree given branch? and children functions.",
    fn: (a, ctx) => {
      const br = fn1(a[0], "tree-seq", 1);
      const ch = fn1(a[1], "tree-seq", 2);
      const out: Value[] = [];
      const stack: Value[] = [a[2]];
      while (stack.length > 0) {
        const node = stack.pop()!;
        out.push(node);
        if (truthy(br(node))) {
          const kids = seqView(ch(node), "tree-seq (children)", 1);
          for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
        }
        if ((out.length & 1023) === 0) {
          ctx.step(1024);
          ctx.alloc(slots(1024));
        }
      }
      return vecFrom(out);
    },
  },
  "keywordize-keys": {
    arity: [1, 1],
    args: ["[form]"],
    doc: "Turn every string map key (recursively) into a keyword.",
    groups: ["walk"],
    fn: (a, ctx) => mapKeys(a[0], (k) => (typeof k === "string" ? kw(k) : k), ctx),
  },
  "stringify-keys": {
    arity: [1, 1],
    args: ["[form]"],
    doc: "Turn every keyword map key (recursively) into a string.",
    groups: ["walk"],
    fn: (a, ctx) => mapKeys(a[0], (k) => (k instanceof Keyword ? k.name : k), ctx),
  },
});
