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
import { describe } from "../values/kinds.ts";
import { vecFrom } from "../values/vector.ts";
import { define, type NsGroup } from "./table.ts";
import { argError, intArg, slots, strArg, stringBytes } from "./util.ts";
import { parseLong } from "./text.ts";
import { nestedRepetition } from "../../core/regex_screen.ts";

const R: NsGroup[] = ["regex"];
/** Max pattern size in UTF-8 bytes. */
export const MAX_PATTERN_BYTES = 256;
/** Max input scanned by regex functions (code units). */
export const MAX_REGEX_INPUT = 32 * 1024;

/**
 * Java's meaning of a few escapes that JavaScript reads differently: `\s`/`\S` are the six ASCII whitespace
 * characters only (JavaScript's `\s` also matches U+00A0 and other Unicode spaces), and `\Q…\E` quotes text.
 */
function javaEscapes(src: string): string {
  if (!src.includes("\\")) return src;
  let out = "";
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length) {
      const d = src[i + 1];
      if (d === "s") out += inClass ? "\\t\\n\\v\\f\\r " : "[\\t\\n\\v\\f\\r ]";
      else if (d === "S" && !inClass) out += "[^\\t\\n\\v\\f\\r ]";
      else if (d === "Q") {
        const end = src.indexOf("\\E", i + 2);
        const lit = src.slice(i + 2, end < 0 ? src.length : end);
        out += lit.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&");
        i = end < 0 ? src.length : end + 1;
        continue;
      } else out += c + d;
      i++;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

/** Compile a pattern, or return an error message. */
export function tryCompileRegex(source: string): { ok: true; regex: LRegex } | { ok: false; message: string } {
  if (new TextEncoder().encode(source).length > MAX_PATTERN_BYTES) {
    return { ok: false, message: `regex pattern is longer than ${MAX_PATTERN_BYTES} bytes` };
  }
  let src = source;
  let flags = "";
  const inline = /^\(\?([imsxu]+)\)/.exec(src);
  let unicodeCase = false;
  if (inline) {
    src = src.slice(inline[0].length);
    unicodeCase = inline[1].includes("u");
    for (const f of inline[1]) if (f !== "x" && f !== "u" && !flags.includes(f)) flags += f;
  }
  // Java's (?i) folds only ASCII letters unless (?u) is given; JavaScript's folds every letter. A pattern whose
  // answer would differ says so instead of answering differently.
  if (flags.includes("i") && !unicodeCase && [...src].some((ch) => ch.codePointAt(0)! > 0x7f)) {
    return {
      ok: false,
      message: `regex ${JSON.stringify(source)}: (?i) matches only ASCII letters case-insensitively in Clojure; ` +
        "write (?iu) for Unicode case folding, or spell both cases ([éÉ])",
    };
  }
  // [[:alpha:]] is not a POSIX class in Java: it is the characters ':', 'a', 'l', 'p', 'h' (and JavaScript reads it
  // differently again). Refuse it and name what works in both.
  if (/\[:[a-z]+:\]/.test(src)) {
    return {
      ok: false,
      message:
        `regex ${JSON.stringify(source)}: POSIX classes like [[:alpha:]] are not classes in Clojure's regexes; ` +
        "write [a-zA-Z], \\d, \\s or \\p{L} instead",
    };
  }
  if (nestedRepetition(src)) {
    return {
      ok: false,
      message:
        `regex ${JSON.stringify(source)} repeats a repeated group (like (a+)+), which can take exponential time; ` +
        "simplify the pattern",
    };
  }
  src = javaEscapes(src);
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

/** A regex argument; the PTC-only helpers (`extract`, `re-split`) also take a pattern string, Clojure's do not. */
function regexArg(fn: string, a: Value[], i: number, text = false): LRegex {
  const v = a[i];
  if (v instanceof LRegex) return v;
  if (typeof v === "string" && text) return compileRegex(v, fn);
  if (typeof v === "string") {
    return argError(fn, i + 1, "a regex", v, `; write #${JSON.stringify(v)} or (re-pattern s)`);
  }
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

/** One piece of a parsed Java replacement template: literal text, or a group by number or name. */
type ReplPiece = string | number | { name: string };

/**
 * Parses a replacement string the way java.util.regex.Matcher does (Clojure's `str/replace` with a regex): `$n`
 * (the longest group number the pattern has), `${name}`, and `\x` for a literal x. Raises `type_error` with Java's
 * reasons (a `$` without a group, a group the pattern lacks, a trailing `\`).
 */
export function parseReplacement(fn: string, r: LRegex, repl: string): ReplPiece[] {
  const out: ReplPiece[] = [];
  let lit = "";
  const bad = (why: string): never => {
    throw new LispError(
      "type_error",
      `${fn}: ${why} in the replacement ${JSON.stringify(repl)} (write \\$ for a literal $, or use a function)`,
    );
  };
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i];
    if (c === "\\") {
      if (++i >= repl.length) bad("a trailing backslash");
      lit += repl[i];
    } else if (c === "$") {
      if (++i >= repl.length) bad("a $ without a group number");
      if (lit !== "") out.push(lit), lit = "";
      if (repl[i] === "{") {
        const end = repl.indexOf("}", i);
        const name = end < 0 ? "" : repl.slice(i + 1, end);
        if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) bad("a malformed ${name} group reference");
        if (!new RegExp(`\\(\\?<${name}>`).test(r.re.source)) bad(`no group named ${name}`);
        out.push({ name });
        i = end;
        continue;
      }
      const d = repl.charCodeAt(i) - 48;
      if (d < 0 || d > 9) bad("a $ not followed by a group number");
      if (d > r.groups) bad(`no group ${d} (the pattern has ${r.groups})`);
      let n = d;
      while (i + 1 < repl.length) {
        const e = repl.charCodeAt(i + 1) - 48;
        if (e < 0 || e > 9 || n * 10 + e > r.groups) break;
        n = n * 10 + e;
        i++;
      }
      out.push(n);
    } else lit += c;
  }
  if (lit !== "") out.push(lit);
  return out;
}

function pieceText(p: ReplPiece, m: RegExpExecArray): string {
  return typeof p === "string" ? p : typeof p === "number" ? m[p] ?? "" : m.groups?.[p.name] ?? "";
}

/**
 * Replaces every match (or only the first) of `r` in `s`, as Clojure's `str/replace`/`str/replace-first` with a
 * regex: `repl` is a Java replacement template (`$1`, `${name}`, `\$`) or a function of the match (the string, or
 * `[whole g1 …]` when the pattern has groups) returning the text. `charge(units)` is told the result's size in code
 * units before the result is built.
 */
export function regexReplace(
  fn: string,
  r: LRegex,
  s: string,
  repl: string | ((match: Value) => Value),
  first: boolean,
  charge: (units: number) => void,
): string {
  const text = s.length > MAX_REGEX_INPUT ? s.slice(0, MAX_REGEX_INPUT) : s;
  const all = allMatches(r, text);
  const ms = first ? all.slice(0, 1) : all;
  let units = s.length;
  let texts: string[] = [];
  if (typeof repl === "string") {
    const pieces = parseReplacement(fn, r, repl);
    for (const m of ms) {
      units -= m[0].length;
      for (const p of pieces) units += pieceText(p, m).length;
    }
    charge(units);
    texts = ms.map((m) => pieces.map((p) => pieceText(p, m)).join(""));
  } else {
    for (const m of ms) {
      const t = repl(matchValue(m, r.groups));
      if (typeof t !== "string") {
        throw new LispError("type_error", `${fn}: the replacement function must return a string, got ${describe(t)}`);
      }
      units += t.length - m[0].length;
      texts.push(t);
    }
    charge(units);
  }
  let out = "";
  let last = 0;
  ms.forEach((m, i) => {
    out += text.slice(last, m.index) + texts[i];
    last = m.index + m[0].length;
  });
  return out + s.slice(last);
}

function extract(fn: string, a: Value[]): Value {
  const r = regexArg(fn, a, 0, true);
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
    doc: "Vector of all matches (nil when none, as in Clojure).",
    groups: R,
    fn: (a, ctx) => {
      const r = regexArg("re-seq", a, 0);
      const ms = allMatches(r, input("re-seq", a, 1));
      ctx.step(ms.length);
      ctx.alloc(slots(ms.length) + (r.groups === 0 ? 0 : ms.length * slots(r.groups + 1)));
      return ms.length === 0 ? null : vecFrom(ms.map((m) => matchValue(m, r.groups)));
    },
  },
  "re-split": {
    arity: [2, 2],
    args: ["[re s]"],
    doc: "Split s on every match of re.",
    groups: R,
    fn: (a, ctx) => {
      const r = regexArg("re-split", a, 0, true);
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
