/**
 * Builtins: text conversion, formatting, parsing and output (str, pr-str, format, parse-long, parse-double,
 * parse-boolean, println).
 * @module
 */

import { LispError } from "../errors.ts";
import type { Value } from "../values/types.ts";
import { float, isInt, normBig, toNumber } from "../values/numbers.ts";
import { isNumber } from "../values/equality.ts";
import { printLine, prStr, strOf } from "../printer.ts";
import { define } from "./table.ts";
import { strArg, stringBytes } from "./util.ts";

/** `format` directives: %s %d %f %.Nf %e %x %o %% (width and flags are accepted and ignored). */
function format(a: Value[]): string {
  const fmt = strArg("format", a, 0);
  let argi = 1;
  const next = (spec: string): Value => {
    if (argi >= a.length) {
      throw new LispError("type_error", `format: not enough arguments for ${spec} in ${JSON.stringify(fmt)}`);
    }
    return a[argi++];
  };
  return fmt.replace(/%([-#+ 0,(]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g, (m, _flags, _width, prec, conv: string) => {
    switch (conv) {
      case "%":
        return "%";
      case "n":
        return "\n";
      case "s":
      case "S": {
        const s = strOf(next(m));
        return conv === "S" ? s.toUpperCase() : s;
      }
      case "d": {
        const v = next(m);
        if (isInt(v)) return String(v);
        throw new LispError("type_error", `format: ${m} needs an integer, got ${prStr(v)}; use %.0f or (int x)`);
      }
      case "f":
      case "e":
      case "g": {
        const v = next(m);
        if (!isNumber(v)) throw new LispError("type_error", `format: ${m} needs a number, got ${prStr(v)}`);
        const x = toNumber(v);
        const p = prec === undefined ? 6 : Number(prec);
        if (!Number.isFinite(x)) return x !== x ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
        if (conv === "f" || conv === "g") return Math.abs(x) >= 1e21 ? BigInt(Math.round(x)).toString() : x.toFixed(p);
        const [mant, exp] = x.toExponential(p).split("e");
        const sign = exp.startsWith("-") ? "-" : "+";
        return `${mant}e${sign}${exp.replace(/^[+-]/, "").padStart(2, "0")}`;
      }
      case "x":
      case "X":
      case "o": {
        const v = next(m);
        if (!isInt(v)) throw new LispError("type_error", `format: ${m} needs an integer, got ${prStr(v)}`);
        const s = v.toString(conv === "o" ? 8 : 16);
        return conv === "X" ? s.toUpperCase() : s;
      }
      default:
        throw new LispError("type_error", `format: unsupported directive ${m} (use %s %d %f %.Nf %e %x %o %%)`);
    }
  });
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
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(t)) return null;
  return float(Number(t.replace(/[dDfF]$/, "")));
}

define("strings", {
  "str": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: 'Concatenate the text of the arguments (nil → "", keywords :k, collections in printer form).',
    fn: (a, ctx) => {
      if (a.length === 1 && typeof a[0] === "string") return a[0];
      let s = "";
      for (let i = 0; i < a.length; i++) s += strOf(a[i]);
      ctx.alloc(stringBytes(s.length));
      return s;
    },
  },
  "pr-str": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: "Printer form of each argument (strings quoted), joined by one space.",
    fn: (a) => a.map(prStr).join(" "),
  },
  "format": {
    arity: [1, Infinity],
    args: ["[fmt & args]"],
    doc: 'Format with %s %d %f %.Nf %e %x %o %% (width/flags ignored; %s of nil is "").',
    fn: format,
  },
  "parse-long": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "The integer written by the whole string (64-bit range), else nil.",
    fn: (a) => parseLong(a[0]),
  },
  "parse-int": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-long.",
    fn: (a) => parseLong(a[0]),
  },
  "parse-double": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'The float written by the whole string (also "Infinity", "NaN"), else nil.',
    fn: (a) => parseDouble(a[0]),
  },
  "parse-boolean": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'true for "true", false for "false", else nil.',
    fn: (a) => (a[0] === "true" ? true : a[0] === "false" ? false : null),
  },
  "println": {
    arity: [0, Infinity],
    args: ["[& xs]"],
    doc: "Print one line (strings raw, other values in printer form, space-separated); returns nil.",
    fn: (a, ctx) => {
      ctx.print(printLine(a));
      return null;
    },
  },
});
