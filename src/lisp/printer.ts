/**
 * The printer (docs/language.md §2): `prStr` is the deterministic printer form (REPL, `pr-str`, collections inside `str`,
 * `println` of non-strings); `strOf` is the `str` conversion; `printLine` renders `println` arguments;
 * `printTruncated` is the budgeted variant for the REPL and previews.
 * @module
 */

import {
  Keyword,
  LDate,
  LDuration,
  LFloat,
  LispFn,
  LRegex,
  Reduced,
  SymbolRef,
  type Value,
  Var,
} from "./values/types.ts";
import { PVec } from "./values/vector.ts";
import { PMap, PSet } from "./values/hashmap.ts";
import { sortedEntries, sortValues } from "./values/compare.ts";
import { gCount, gSlice } from "./values/strings.ts";

/** Printer form of a float: fixed notation, at most 10 decimals, trailing zeros trimmed, at least one decimal. */
export function fmtFloat(x: number): string {
  if (x !== x) return "##NaN";
  if (x === Infinity) return "##Inf";
  if (x === -Infinity) return "##-Inf";
  if (Object.is(x, -0)) return "-0.0";
  if (Math.abs(x) >= 1e21) return BigInt(x).toString() + ".0";
  let s = x.toFixed(10);
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48 /* 0 */ && s.charCodeAt(end - 2) !== 46 /* . */) end--;
  s = s.slice(0, end);
  return s === "-0.0" ? "0.0" : s;
}

/**
 * `str` form of a float, as Java's Double.toString: the shortest round-trip digits, in plain notation from 10^-3 up
 * to 10^7 (`0.001`, `5.0`, `1234567.0`) and in computer notation outside it (`1.0E7`, `1.5E-7`); specials by name.
 */
export function strFloat(x: number): string {
  if (x !== x) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (Object.is(x, -0)) return "-0.0";
  if (x === 0) return "0.0";
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return s.includes(".") ? s : s + ".0";
  }
  const s = x.toExponential();
  const e = s.indexOf("e");
  const mant = s.slice(0, e);
  const exp = s.slice(e + 1);
  return (mant.includes(".") ? mant : mant + ".0") + "E" + (exp.startsWith("+") ? exp.slice(1) : exp);
}

const ESC: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r" };

// deno-lint-ignore no-control-regex
const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f]/;
// deno-lint-ignore no-control-regex
const ESCAPES = /["\\\x00-\x1f\x7f]/g;

/** A string in printer form: double-quoted, with `\" \\ \n \t \r` and other control characters escaped. */
export function quoteString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  return '"' + s.replace(ESCAPES, (c) => ESC[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) + '"';
}

function atomText(v: Value): string | undefined {
  switch (typeof v) {
    case "number":
      return Number.isInteger(v) ? String(v) : fmtFloat(v);
    case "bigint":
      return v.toString();
    case "boolean":
      return v ? "true" : "false";
    case "string":
      return quoteString(v);
  }
  if (v === null) return "nil";
  if (v instanceof Keyword) return ":" + v.name;
  if (v instanceof LFloat) return fmtFloat(v.v);
  if (v instanceof LispFn) return v.printed();
  if (v instanceof Var) return "#'" + v.name;
  if (v instanceof SymbolRef) return v.full;
  if (v instanceof LRegex) return '#"' + v.source + '"';
  if (v instanceof LDate) return '"' + v.iso() + '"';
  if (v instanceof LDuration) return `#duration[${v.ms}ms]`;
  if (v instanceof Reduced) return `#reduced[${prStr(v.v)}]`;
  return undefined;
}

function write(v: Value, out: string[], readably = true): void {
  const a = !readably && typeof v === "string" ? v : atomText(v);
  if (a !== undefined) {
    out.push(a);
    return;
  }
  if (v instanceof PVec) {
    out.push("[");
    for (let i = 0; i < v.n; i++) {
      if (i > 0) out.push(" ");
      write(v.at(i), out, readably);
    }
    out.push("]");
  } else if (v instanceof PMap) {
    const e = sortedEntries(v);
    out.push("{");
    for (let i = 0; i < e.length; i += 2) {
      if (i > 0) out.push(" ");
      write(e[i], out, readably);
      out.push(" ");
      write(e[i + 1], out, readably);
    }
    out.push("}");
  } else if (v instanceof PSet) {
    const m = sortValues(v.members());
    out.push("#{");
    for (let i = 0; i < m.length; i++) {
      if (i > 0) out.push(" ");
      write(m[i], out, readably);
    }
    out.push("}");
  } else {
    out.push("#<unknown>");
  }
}

/** The printer form of a value (docs/language.md §2). */
export function prStr(v: Value): string {
  const a = atomText(v);
  if (a !== undefined) return a;
  const out: string[] = [];
  write(v, out);
  return out.join("");
}

/** The `str` conversion of one value (docs/language.md §2): strings raw, nil → "", floats shortest, collections in printer form. */
export function strOf(v: Value): string {
  switch (typeof v) {
    case "string":
      return v;
    case "number":
      return Number.isInteger(v) ? String(v) : strFloat(v);
    case "bigint":
      return v.toString();
    case "boolean":
      return v ? "true" : "false";
  }
  if (v === null) return "";
  if (v instanceof LFloat) return strFloat(v.v);
  if (v instanceof LDate) return v.iso();
  if (v instanceof LRegex) return v.source;
  return prStr(v);
}

/**
 * The `print`/`println`/`print-str` form of a value (Clojure's print with *print-readably* false): strings appear raw,
 * also inside collections (`(println ["a" 1])` shows `[a 1]`); everything else as the printer shows it.
 */
export function printText(v: Value): string {
  if (typeof v === "string") return v;
  if (!(v instanceof PVec || v instanceof PMap || v instanceof PSet)) return prStr(v);
  const out: string[] = [];
  write(v, out, false);
  return out.join("");
}

/** The text of one `println`/`print-str` call: each argument's `printText`, joined by one space. */
export function printLine(args: Value[]): string {
  const parts = new Array<string>(args.length);
  for (let i = 0; i < args.length; i++) parts[i] = printText(args[i]);
  return parts.join(" ");
}

/** Budgets for `printTruncated`. */
export interface TruncateOptions {
  /** Max items shown per collection (default 50). */
  maxItems?: number;
  /** Max characters shown per string (default 200). */
  maxStringChars?: number;
  /** Max characters of the whole output (default 20,000). */
  maxChars?: number;
}

/**
 * Printer form with budgets: collections longer than `maxItems` render as `[1 2 ...] (2/5)`, strings longer than
 * `maxStringChars` as `"very long ..." (10/21 chars)`, and the whole text is cut at `maxChars` (ending in `...`).
 */
export function printTruncated(v: Value, opts: TruncateOptions = {}): { text: string; truncated: boolean } {
  const maxItems = opts.maxItems ?? 50;
  const maxStr = opts.maxStringChars ?? 200;
  const maxChars = opts.maxChars ?? 20_000;
  let truncated = false;
  let budget = maxChars + 1;
  const out: string[] = [];
  const push = (s: string) => {
    out.push(s);
    budget -= s.length;
  };
  const tail = (shown: number, total: number) => {
    if (shown < total) {
      truncated = true;
      push(` (${shown}/${total})`);
    }
  };
  const items = (xs: Value[], open: string, close: string, total: number, pairs: boolean) => {
    push(open);
    const step = pairs ? 2 : 1;
    let shown = 0;
    for (let i = 0; i < xs.length; i += step) {
      if (shown >= maxItems || budget <= 0) break;
      if (i > 0) push(" ");
      go(xs[i]);
      if (pairs) {
        push(" ");
        go(xs[i + 1]);
      }
      shown++;
    }
    if (shown < total) push(shown > 0 ? " ..." : "...");
    push(close);
    tail(shown, total);
  };
  const go = (x: Value): void => {
    if (budget <= 0) return;
    if (typeof x === "string") {
      const n = gCount(x);
      if (n > maxStr) {
        truncated = true;
        push(quoteString(gSlice(x, 0, maxStr) + " ...") + ` (${maxStr}/${n} chars)`);
      } else push(quoteString(x));
      return;
    }
    if (x instanceof PVec) return items(x.slice(0, maxItems).view(), "[", "]", x.n, false);
    if (x instanceof PSet) return items(sortValues(x.members()).slice(0, maxItems), "#{", "}", x.size, false);
    if (x instanceof PMap) return items(sortedEntries(x).slice(0, 2 * maxItems), "{", "}", x.size, true);
    push(prStr(x));
  };
  go(v);
  let text = out.join("");
  if (text.length > maxChars) {
    truncated = true;
    text = text.slice(0, Math.max(0, maxChars - 3)) + "...";
  }
  return { text, truncated };
}
