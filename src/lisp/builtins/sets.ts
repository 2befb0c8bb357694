/**
 * Builtins: sets (`clojure.set/` aliases) and `disj`.
 * @module
 */

import type { Value } from "../values/types.ts";
import { EMPTY_SET, PSet, SetBuilder } from "../values/hashmap.ts";
import { define } from "./table.ts";
import { argError, entries, setArg, slots } from "./util.ts";

function sets(fn: string, a: Value[]): PSet[] {
  return a.map((_, i) => setArg(fn, a, i));
}

define("sets", {
  "union": {
    arity: [0, Infinity],
    args: ["[& sets]"],
    doc: "Set of the members of all sets.",
    groups: ["set"],
    fn: (a, ctx) => {
      const ss = sets("union", a);
      if (ss.length === 0) return EMPTY_SET;
      let big = ss[0];
      let added = 0;
      for (const s of ss) if (s.size > big.size) big = s;
      for (const s of ss) if (s !== big) added += s.size;
      ctx.alloc(slots(2) + entries(added));
      const b = new SetBuilder(big);
      for (const s of ss) if (s !== big) s.forEach((x) => b.add(x));
      return b.build();
    },
  },
  "intersection": {
    arity: [1, Infinity],
    args: ["[s & sets]"],
    doc: "Set of the members present in every set.",
    groups: ["set"],
    fn: (a, ctx) => {
      const ss = sets("intersection", a);
      ctx.alloc(slots(2) + entries(ss[0].size));
      const b = new SetBuilder();
      ss[0].forEach((x) => {
        for (let i = 1; i < ss.length; i++) if (!ss[i].has(x)) return;
        b.add(x);
      });
      return b.build();
    },
  },
  "difference": {
    arity: [1, Infinity],
    args: ["[s & sets]"],
    doc: "Members of the first set that are in none of the others.",
    groups: ["set"],
    fn: (a, ctx) => {
      const ss = sets("difference", a);
      ctx.alloc(slots(2) + entries(ss[0].size));
      const b = new SetBuilder();
      ss[0].forEach((x) => {
        for (let i = 1; i < ss.length; i++) if (ss[i].has(x)) return;
        b.add(x);
      });
      return b.build();
    },
  },
  "subset?": {
    arity: [2, 2],
    args: ["[s1 s2]"],
    doc: "True when every member of s1 is in s2.",
    groups: ["set"],
    fn: (a) => {
      const [x, y] = sets("subset?", a);
      let ok = true;
      x.forEach((m) => {
        if (ok && !y.has(m)) ok = false;
      });
      return ok;
    },
  },
  "superset?": {
    arity: [2, 2],
    args: ["[s1 s2]"],
    doc: "True when every member of s2 is in s1.",
    groups: ["set"],
    fn: (a) => {
      const [x, y] = sets("superset?", a);
      let ok = true;
      y.forEach((m) => {
        if (ok && !x.has(m)) ok = false;
      });
      return ok;
    },
  },
  "disj": {
    arity: [1, Infinity],
    args: ["[s & xs]"],
    doc: "Set without the given members (nil → nil).",
    fn: (a) => {
      const s = a[0];
      if (s === null) return null;
      if (!(s instanceof PSet)) return argError("disj", 1, "a set", s);
      let r = s;
      for (let i = 1; i < a.length; i++) r = r.delete(a[i]);
      return r;
    },
  },
});
