/**
 * Builtins: early exit from `reduce` / `reduce-kv` with `reduced` (the loops check for the wrapper after each step).
 * @module
 */

import { Reduced, type Value } from "../values/types.ts";
import { define } from "./table.ts";

define("sequences", {
  "reduced": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Wraps x so that reduce / reduce-kv stop at once and return x.",
    fn: (a, ctx) => {
      ctx.alloc(16);
      return new Reduced(a[0]);
    },
  },
  "reduced?": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "True when x was wrapped by reduced.",
    fn: (a) => a[0] instanceof Reduced,
  },
  "unreduced": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "The value wrapped by reduced, or x itself.",
    fn: (a) => (a[0] instanceof Reduced ? a[0].v : a[0]),
  },
  "ensure-reduced": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "x when already wrapped by reduced, else (reduced x).",
    fn: (a: Value[], ctx) => {
      if (a[0] instanceof Reduced) return a[0];
      ctx.alloc(16);
      return new Reduced(a[0]);
    },
  },
});
