/**
 * Builtins: regular expressions (`regex/` aliases) on JS RegExp with the `u` flag.
 *
 * Safety (docs/language.md §5): patterns are limited to 256 bytes; patterns with nested unbounded repetition such as
 * `(a+)+` or `(x*)*` (the classic catastrophic-backtracking shape) are rejected when compiled; and every regex
 * function scans only the first 32 KB (32,768 code units) of its input. Anything else that runs long is ended by
 * the evaluation's wall-clock timeout (the host terminates the worker).
 * @module
 */

import { LispError } from "../errors.ts";
import { LRegex, type Value } from "../values/types.ts";
import { EMPTY_VEC, vecFrom } from "../values/vector.ts";
import { define, type NsGroup } from "./table.ts";
import { argError, intArg, slots, strArg, stringBytes } from "./util.ts";
import { parseLong } from "./text.ts";
import { nestedRepetition } from "../../core/regex_screen.ts";

const R: NsGroup[] = ["regex"];
/** Max pattern size in UTF-8 bytes. */
export const MAX_PATTERN_BYTES = 256;
/** Max input scanned by regex functions (code units). */
export const MAX_REGEX_INPUT = 32 * 1024;

/** Compile a pattern, or return an error message. */
export function tryCompileRegex(source: string): { ok: true; regex: LRegex } | { ok: false; message: string } {
  if (new TextEncoder().encode(source).length > MAX_PATTERN_BYTES) {
    return { ok: false, message: `regex pattern is longer than ${MAX_PATTERN_BYTES} bytes` };
  }
  let src = source;
  let flags = "";
  const inline = /^\(\?([imsx]+)\)/.exec(src);
  if (inline) {
    src = src.slice(inline[0].length);
    for (const f of inline[1]) if (f !== "x" && !flags.includes(f)) flags += f;
  }
  if (nestedRepetition(src)) {
    return {
      ok: false,
      message:
        `regex ${JSON.stringify(source)} repeats a repeated group (like (a+)+), which can take exponential time; ` +
        "simplify the pattern",
    };
  }
  let re: RegExp;
  try {
    re = new RegExp(src, flags + "u");
  } catch {
    try {
      re = new RegExp(src, flags);
    } catch (e) {
      return { ok: false, message: `invalid regex ${JSON.stringify(source)}: ${(e as Error).message}` };
    }
  }
  const groups = new RegExp(src + "|", re.flags).exec("")!.length - 1;
  return { ok: true, regex: new LRegex(source, re, groups) };
}

/** Compile a pattern or raise `type_error` naming `fn`. */
export function compileRegex(source: string, fn = "re-pattern"): LRegex {
  const r = tryCompileRegex(source);
  if (!r.ok) throw new LispError("type_error", `${fn}: ${r.message}`);
  return r.regex;
}

function regexArg(fn: string, a: Value[], i: number): LRegex {
  const v = a[i];
  if (v instanceof LRegex) return v;
  if (typeof v === "string") return compileRegex(v, fn);
  return argError(fn, i + 1, "a regex or pattern string", v);
}

function input(fn: string, a: Value[], i: number): string {
  const s = strArg(fn, a, i);
  return s.length > MAX_REGEX_INPUT ? s.slice(0, MAX_REGEX_INPUT) : s;
}

function global(r: LRegex): RegExp {
  return new RegExp(r.re.source, r.re.flags + "g");
}

function matchValue(m: RegExpExecArray, groups: number): Value {
  if (groups === 0) return m[0];
  const out = new Array<Value>(groups + 1);
  for (let i = 0; i <= groups; i++) out[i] = m[i] ?? null;
  return vecFrom(out);
}

function allMatches(r: LRegex, s: string): RegExpExecArray[] {
  const re = global(r);
  const out: RegExpExecArray[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    out.push(m);
    if (m[0].length === 0) re.lastIndex += s.codePointAt(re.lastIndex)! > 0xffff ? 2 : 1;
    if (re.lastIndex > s.length) break;
  }
  return out;
}

/** Split `s` on every match of `r` (captured groups are not included; empty fields kept). */
export function regexSplit(r: LRegex, s: string): string[] {
  const text = s.length > MAX_REGEX_INPUT ? s.slice(0, MAX_REGEX_INPUT) : s;
  const parts: string[] = [];
  let last = 0;
  for (const m of allMatches(r, text)) {
    if (m[0].length === 0 && (m.index === 0 || m.index >= text.length)) continue;
    parts.push(text.slice(last, m.index));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/**
 * Replace every match of `r` in `s` with the literal `repl`. `charge` is told the number of matches and the code
 * units they cover before the result is built (so the caller can charge the result's size first).
 */
export function regexReplaceAll(
  r: LRegex,
  s: string,
  repl: string,
  charge?: (count: number, matchedUnits: number) => void,
): string {
  const text = s.length > MAX_REGEX_INPUT ? s.slice(0, MAX_REGEX_INPUT) : s;
  if (charge !== undefined) {
    const ms = allMatches(r, text);
    let units = 0;
    for (const m of ms) units += m[0].length;
    charge(ms.length, units);
  }
  return text.replace(global(r), () => repl) + s.slice(text.length);
}

function extract(fn: string, a: Value[]): Value {
  const r = regexArg(fn, a, 0);
  const s = a[1];
  if (s === null) return null;
  const text = input(fn, a, 1);
  const g = a.length >= 3 && a[2] !== null ? intArg(fn, a, 2) : 1;
  const m = r.re.exec(text);
  if (m === null) return null;
  if (g === 0 || r.groups === 0) return m[0];
  return m[g] ?? null;
}

define("regex", {
  "re-pattern": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'Compile a regex from a string (#"…" is the literal form).',
    groups: R,
    fn: (a) => (a[0] instanceof LRegex ? a[0] : compileRegex(strArg("re-pattern", a, 0))),
  },
  "re-find": {
    arity: [2, 2],
    args: ["[re s]"],
    doc: "First match: the matched string, or [whole g1 g2 …] when the pattern has groups; nil if none.",
    groups: R,
    fn: (a) => {
      const r = regexArg("re-find", a, 0);
      const m = r.re.exec(input("re-find", a, 1));
      return m === null ? null : matchValue(m, r.groups);
    },
  },
  "re-matches": {
    arity: [2, 2],
    args: ["[re s]"],
    doc: "Like re-find, but the whole string must match.",
    groups: R,
    fn: (a) => {
      const r = regexArg("re-matches", a, 0);
      const s = input("re-matches", a, 1);
      const re = new RegExp(`^(?:${r.re.source})$`, r.re.flags);
      const m = re.exec(s);
      return m === null ? null : matchValue(m, r.groups);
    },
  },
  "re-seq": {
    arity: [2, 2],
    args: ["[re s]"],
    doc: "Vector of all matches ([] when none).",
    groups: R,
    fn: (a, ctx) => {
      const r = regexArg("re-seq", a, 0);
      const ms = allMatches(r, input("re-seq", a, 1));
      ctx.step(ms.length);
      ctx.alloc(slots(ms.length) + (r.groups === 0 ? 0 : ms.length * slots(r.groups + 1)));
      return ms.length === 0 ? EMPTY_VEC : vecFrom(ms.map((m) => matchValue(m, r.groups)));
    },
  },
  "re-split": {
    arity: [2, 2],
    args: ["[re s]"],
    doc: "Split s on every match of re.",
    groups: R,
    fn: (a, ctx) => {
      const r = regexArg("re-split", a, 0);
      const s = strArg("re-split", a, 1);
      const scanned = Math.min(s.length, MAX_REGEX_INPUT);
      ctx.alloc(stringBytes(scanned) + slots(scanned + 1));
      return vecFrom(regexSplit(r, s));
    },
  },
  "extract": {
    arity: [2, 3],
    args: ["[pattern s]", "[pattern s group]"],
    doc: "Group (default 1) of the first match of pattern (regex or string) in s, or nil.",
    groups: R,
    fn: (a) => extract("extract", a),
  },
  "extract-int": {
    arity: [2, 4],
    args: ["[pattern s]", "[pattern s group]", "[pattern s group default]"],
    doc: "extract, then parse-long; default (nil) when there is no match or no integer.",
    groups: R,
    fn: (a) => {
      const v = parseLong(extract("extract-int", a.slice(0, 3)));
      return v === null && a.length === 4 ? a[3] : v;
    },
  },
});
