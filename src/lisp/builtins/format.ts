/**
 * `format`: the directive syntax of Clojure's `format` (java.util.Formatter) — `%[index$][flags][width][.precision]conv`
 * with conversions `s S d o x X e E f g G b B c C n %` and flags `- # + space 0 , (`. Floats round half-up on their
 * shortest decimal form, as Java does. Anything else (dates `%t`, `%a`, `%h`, a flag a conversion does not take) is
 * refused by name — never ignored. `%s` of nil is "" (Java prints "null").
 * @module
 */

import { LispError } from "../errors.ts";
import type { Value } from "../values/types.ts";
import { isInt, toNumber } from "../values/numbers.ts";
import { isNumber } from "../values/equality.ts";
import { gCount, gSlice } from "../values/strings.ts";
import { prStr, strOf } from "../printer.ts";
import type { BuiltinContext } from "./table.ts";
import { strArg, stringBytes } from "./util.ts";

/** Largest width or precision a directive may ask for (Java has no bound; a program's output has one). */
export const MAX_FORMAT_FIELD = 1000;

const DIRECTIVE = /%(\d+\$|<)?([-#+ 0,(]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])?/g;
const LONG_MIN = -(2n ** 63n);

/** Flags each conversion accepts (Java raises FormatFlagsConversionMismatchException for the others). */
const FLAGS: Record<string, string> = {
  s: "-",
  b: "-",
  c: "-",
  d: "-+ 0,(",
  o: "-#0",
  x: "-#0",
  e: "-#+ 0(",
  f: "-#+ 0,(",
  g: "-+ 0,(",
  "%": "-",
  n: "",
};

function fail(message: string): never {
  throw new LispError("type_error", `format: ${message}`);
}

/** Decimal digits and exponent of |x| (x finite): |x| = 0.d1d2… × 10^(exp+1), shortest round-trip digits. */
function decimal(x: number): { digits: string; exp: number } {
  const [m, e] = Math.abs(x).toExponential().split("e");
  return { digits: m.replace(".", ""), exp: Number(e) };
}

/** The first `n` digits of `digits`, rounded half-up; `carry` when rounding added a leading digit. */
function roundDigits(digits: string, n: number): { digits: string; carry: boolean } {
  if (n < 0) return { digits: "", carry: false };
  if (digits.length <= n) return { digits: digits.padEnd(n, "0"), carry: false };
  const head = digits.slice(0, n);
  if (digits.charCodeAt(n) < 53 /* '5' */) return { digits: head, carry: false };
  if (n === 0) return { digits: "1", carry: true };
  const up = (BigInt(head) + 1n).toString().padStart(n, "0");
  return { digits: up, carry: up.length > n };
}

/** |x| with `prec` digits after the point (Java %f). */
function fixed(x: number, prec: number): string {
  if (x === 0) return prec > 0 ? "0." + "0".repeat(prec) : "0";
  const { digits, exp } = decimal(x);
  const intDigits = exp + 1;
  const r = roundDigits(digits, intDigits + prec);
  let all = r.digits;
  let intLen = intDigits + (r.carry ? 1 : 0);
  if (intLen <= 0) {
    all = "0".repeat(1 - intLen) + all;
    intLen = 1;
  }
  all = all.padEnd(intLen + prec, "0");
  const ip = all.slice(0, intLen).replace(/^0+(?=\d)/, "");
  return prec > 0 ? `${ip}.${all.slice(intLen, intLen + prec)}` : ip;
}

/** |x| as `d.ddd e±XX` with `prec` digits after the point (Java %e). */
function scientific(x: number, prec: number): string {
  let digits = "0".repeat(prec + 1), exp = 0;
  if (x !== 0) {
    const d = decimal(x);
    const r = roundDigits(d.digits, prec + 1);
    digits = r.carry ? r.digits.slice(0, prec + 1) : r.digits;
    exp = d.exp + (r.carry ? 1 : 0);
  }
  const mant = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : digits[0];
  return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** Java %g: `prec` significant digits, fixed notation for 10^-4 <= rounded |x| < 10^prec, else scientific. */
function general(x: number, prec: number): string {
  const p = prec === 0 ? 1 : prec;
  if (x === 0) return fixed(0, p - 1);
  const d = decimal(x);
  const r = roundDigits(d.digits, p);
  const exp = d.exp + (r.carry ? 1 : 0);
  if (exp >= -4 && exp < p) return fixed(x, p - exp - 1);
  return scientific(x, p - 1);
}

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Sign, grouping, parentheses and zero padding of a formatted magnitude. */
function numeric(neg: boolean, mag: string, flags: string, width: number): string {
  if (flags.includes(",")) {
    const dot = mag.indexOf(".");
    mag = dot < 0 ? group(mag) : group(mag.slice(0, dot)) + mag.slice(dot);
  }
  let pre = neg ? (flags.includes("(") ? "(" : "-") : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
  const post = neg && flags.includes("(") ? ")" : "";
  if (flags.includes("0")) mag = mag.padStart(width - pre.length - post.length, "0");
  pre += mag;
  return pre + post;
}

function pad(s: string, flags: string, width: number): string {
  const n = gCount(s);
  if (n >= width) return s;
  return flags.includes("-") ? s + " ".repeat(width - n) : " ".repeat(width - n) + s;
}

function intBits(v: number | bigint, radix: 8 | 16): string {
  let b = BigInt(v);
  if (b < 0n && b >= LONG_MIN) b += 2n ** 64n; // a Long prints its two's complement, as in Java
  else if (b < 0n) return "-" + (-b).toString(radix);
  return b.toString(radix);
}

/** One directive applied to its argument. */
function directive(d: string, conv: string, flags: string, width: number, prec: number | undefined, arg: () => Value) {
  const lower = conv.toLowerCase();
  const upper = conv !== lower && conv !== "%";
  const allowed = FLAGS[lower];
  if (allowed === undefined) {
    const what = lower === "t"
      ? "date/time conversions are not supported (format the date with str or .format first)"
      : `the conversion '${conv}' is not supported (use %s %d %o %x %e %f %g %b %c %n %%)`;
    fail(`${d}: ${what}`);
  }
  for (const fl of flags) if (!allowed.includes(fl)) fail(`${d}: the flag '${fl}' does not apply to %${conv}`);
  if ((flags.includes("-") || flags.includes("0")) && width === 0) {
    fail(`${d}: the flag ${flags.includes("-") ? "-" : "0"} needs a width`);
  }
  if (flags.includes("-") && flags.includes("0")) fail(`${d}: the flags - and 0 exclude each other`);
  if (flags.includes("+") && flags.includes(" ")) fail(`${d}: the flags + and space exclude each other`);
  if (prec !== undefined && "doxcn%".includes(lower)) fail(`${d}: %${conv} takes no precision`);
  let out: string;
  switch (lower) {
    case "%":
      return pad("%", flags, width);
    case "n":
      return "\n";
    case "s": {
      const s = strOf(arg());
      out = prec === undefined ? s : gSlice(s, 0, prec);
      break;
    }
    case "b": {
      const v = arg();
      out = String(v !== null && v !== false);
      if (prec !== undefined) out = out.slice(0, prec);
      break;
    }
    case "c": {
      const v = arg();
      if (typeof v !== "string" || gCount(v) !== 1) fail(`${d} needs a one-character string like \\a, got ${prStr(v)}`);
      out = v;
      break;
    }
    case "d": {
      const v = arg();
      if (!isInt(v)) fail(`${d} needs an integer, got ${prStr(v)}; use %.0f or (long x)`);
      const neg = v < 0;
      out = numeric(neg, (neg ? -BigInt(v) : BigInt(v)).toString(), flags, width);
      break;
    }
    case "o":
    case "x": {
      const v = arg();
      if (!isInt(v)) fail(`${d} needs an integer, got ${prStr(v)}`);
      let s = intBits(v, lower === "o" ? 8 : 16);
      if (flags.includes("#")) s = (lower === "o" ? "0" : "0x") + s;
      if (flags.includes("0")) s = s.padStart(width, "0");
      out = s;
      break;
    }
    default: { // e f g
      const v = arg();
      if (!isNumber(v)) fail(`${d} needs a number, got ${prStr(v)}`);
      const x = toNumber(v);
      if (!Number.isFinite(x)) {
        const s = x !== x ? "NaN" : "Infinity";
        out = x !== x ? s : numeric(x < 0, s, flags.replace("0", "").replace(",", ""), width);
        break;
      }
      const p = prec ?? 6;
      const mag = lower === "f" ? fixed(x, p) : lower === "e" ? scientific(x, p) : general(x, p);
      const alt = flags.includes("#") && p === 0 ? mag + "." : mag;
      out = numeric(x < 0 || Object.is(x, -0), alt, flags, width);
    }
  }
  out = upper ? out.toUpperCase() : out;
  return pad(out, flags, width);
}

/** `(format fmt & args)`. */
export function format(a: Value[], ctx: BuiltinContext): string {
  const fmt = strArg("format", a, 0);
  let next = 1;
  let last = 0;
  const out = fmt.replace(DIRECTIVE, (d, index: string | undefined, flags: string, w, p, conv: string | undefined) => {
    if (conv === undefined) fail(`${JSON.stringify(d)} is an incomplete directive (write %% for a literal %)`);
    const width = w === undefined ? 0 : Number(w);
    const prec = p === undefined ? undefined : Number(p);
    if (width > MAX_FORMAT_FIELD || (prec ?? 0) > MAX_FORMAT_FIELD) {
      fail(`${d}: width and precision are at most ${MAX_FORMAT_FIELD}`);
    }
    ctx.alloc(stringBytes(width + (prec ?? 0)));
    const arg = (): Value => {
      let i: number;
      if (index === "<") i = last;
      else if (index !== undefined) i = Number(index.slice(0, -1));
      else i = next++;
      if (i < 1 || i >= a.length) fail(`not enough arguments for ${d} in ${JSON.stringify(fmt)}`);
      last = i;
      return a[i];
    };
    return directive(d, conv, flags, width, prec, arg);
  });
  ctx.alloc(stringBytes(out.length));
  return out;
}
