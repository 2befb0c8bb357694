/**
 * Builtins: text conversion, formatting, parsing and output (str, pr-str, format, parse-long, parse-double,
 * parse-boolean, println).
 * @module
 */

import { Keyword, SymbolRef, type Value } from "../values/types.ts";
import { gCount } from "../values/strings.ts";
import { float, normBig } from "../values/numbers.ts";
import { printLine, prStr, strOf } from "../printer.ts";
import { define } from "./table.ts";
import { argError, strArg, stringBytes } from "./util.ts";
import { format } from "./format.ts";
import { chargeExpansion } from "../values/expansion.ts";

/**
 * The text argument of `parse-long` & co: a string, or nil (a missing field parses to nil). Any other value is a
 * `type_error` like Clojure's, so `(parse-long 5)` cannot pass for "not a number".
 */
function parseText(fn: string, v: Value): Value {
  if (typeof v === "string" || v === null) return v;
  const hint = typeof v === "number" || typeof v === "bigint" ? "; a number needs no parsing, use it as it is" : "";
  return argError(fn, 1, "a string (or nil)", v, hint);
}

/** `parse-long`: the integer written by the whole string (64-bit range), else nil. */
export function parseLong(v: Value): Value {
  if (typeof v !== "string" || !/^[+-]?\d+$/.test(v)) return null;
  const b = BigInt(v);
  if (b > 9223372036854775807n || b < -9223372036854775808n) return null;
  return normBig(b);
}

/** `parse-double`: the float written by the whole string, else nil. */
export function parseDouble(v: Value): Value {
  if (typeof v !== "string") return null;
  const t = v.trim();
  if (/^[+-]?Infinity$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (t === "NaN") return NaN;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)[dDfF]?$/.exec(t);
  if (hex && hex[2] + hex[3] !== "") { // Java's hexadecimal float: 0x1.8p1 = 3.0
    const x = parseInt(hex[2] + hex[3] || "0", 16) * 2 ** (Number(hex[4]) - 4 * hex[3].length);
    return float(hex[1] === "-" ? -x : x);
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(t)) return null;
  return float(Number(t.replace(/[dDfF]$/, "")));
}

define("strings", {
  "str": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: 'Concatenate the text of the arguments (nil → "", keywords :k, collections in printer form).',
    scansText: false,
    fn: (a, ctx) => {
      if (a.length === 1 && typeof a[0] === "string") return a[0];
      // Collections are charged for their printed expansion before it is built, the result before it is joined.
      const parts = new Array<string>(a.length);
      let units = 0;
      for (let i = 0; i < a.length; i++) {
        const x = a[i];
        if (typeof x === "object" && x !== null) chargeExpansion(x, ctx);
        units += (parts[i] = strOf(x)).length;
      }
      ctx.alloc(stringBytes(units));
      let s = "";
      for (let i = 0; i < parts.length; i++) s += parts[i];
      return s;
    },
  },
  "pr-str": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: "Printer form of each argument (strings quoted), joined by one space.",
    fn: (a, ctx) => {
      for (let i = 0; i < a.length; i++) chargeExpansion(a[i], ctx);
      const s = a.map(prStr).join(" ");
      ctx.alloc(stringBytes(s.length));
      return s;
    },
  },
  "print-str": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: "What println would print, as a string without the newline (strings raw, also inside collections).",
    fn: (a, ctx) => {
      for (let i = 0; i < a.length; i++) chargeExpansion(a[i], ctx);
      const s = printLine(a);
      ctx.alloc(stringBytes(s.length));
      return s;
    },
  },
  "char": {
    arity: [1, 1],
    args: ["[n]"],
    doc: "The one-character string of code point n (0–65535); a one-character string is returned as it is.",
    fn: (a) => {
      const v = a[0];
      if (typeof v === "string" && gCount(v) === 1) return v;
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffff) {
        return argError("char", 1, "an integer from 0 to 65535", v);
      }
      return String.fromCharCode(v);
    },
  },
  "symbol": {
    arity: [1, 2],
    args: ["[name]", "[ns name]"],
    doc: "The quoted symbol of a name (a string, keyword or symbol), or of a namespace and a name.",
    fn: (a) => {
      if (a.length === 2) {
        const ns = a[0] === null ? null : strArg("symbol", a, 0);
        return new SymbolRef(ns, strArg("symbol", a, 1));
      }
      const v = a[0];
      if (v instanceof SymbolRef) return v;
      if (v instanceof Keyword) return new SymbolRef(null, v.name);
      return new SymbolRef(null, strArg("symbol", a, 0));
    },
  },
  "format": {
    arity: [1, Infinity],
    args: ["[fmt & args]"],
    doc: "Format like Clojure's format: %[index$][flags][width][.precision]conversion with s d o x e f g b c n %; " +
      'flags - # + space 0 , (; %s of nil is "". Other directives are refused.',
    fn: format,
  },
  "parse-long": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "The integer written by the whole string (64-bit range), else nil; nil gives nil, other non-strings raise.",
    fn: (a) => parseLong(parseText("parse-long", a[0])),
  },
  "parse-int": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-long.",
    fn: (a) => parseLong(parseText("parse-int", a[0])),
  },
  "parse-double": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'The float written by the whole string (also "Infinity", "NaN"), else nil; non-strings other than nil raise.',
    fn: (a) => parseDouble(parseText("parse-double", a[0])),
  },
  "parse-boolean": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'true for "true", false for "false", else nil; non-strings other than nil raise.',
    fn: (a) => {
      const s = parseText("parse-boolean", a[0]);
      return s === "true" ? true : s === "false" ? false : null;
    },
  },
  "println": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: "Print one line (strings raw, also inside collections; other values in printer form; space-separated); " +
      "returns nil.",
    fn: (a, ctx) => {
      for (let i = 0; i < a.length; i++) if (typeof a[i] !== "string") chargeExpansion(a[i], ctx);
      ctx.print(printLine(a));
      return null;
    },
  },
});
