/**
 * Builtins: strings (`clojure.string/` aliases): name, keyword, subs, join, split, trim, replace, case, search.
 * All indices are grapheme indices.
 * @module
 */

import { LispError } from "../errors.ts";
import { findKw, Keyword, kw, LispFn, LRegex, SymbolRef, type Value } from "../values/types.ts";
import { PVec, vecFrom } from "../values/vector.ts";
import { NOT_FOUND, PMap } from "../values/hashmap.ts";
import { mapFlexGet } from "../values/flex.ts";
import { seqView } from "../values/seq.ts";
import { gCount, gIndexOf, gLastIndexOf, graphemes, gSlice } from "../values/strings.ts";
import { strOf } from "../printer.ts";
import { alias, define, type NsGroup } from "./table.ts";
import { argError, intArg, slots, strArg, stringBytes } from "./util.ts";
import type { BuiltinContext } from "./table.ts";
import { chargeExpansion } from "../values/expansion.ts";
import { textIncludes } from "../values/text_search.ts";
import { regexReplace, regexSplit } from "./regex.ts";

const S: NsGroup[] = ["string"];

function strs(fn: string, a: Value[]): [string, string] {
  return [strArg(fn, a, 0), strArg(fn, a, 1)];
}

const KEYWORD_RE = /^[A-Za-z][A-Za-z0-9_?!-]*$/;

/**
 * `str/split` as Clojure (Java's Pattern.split): a regex separator; without a limit (or with 0) trailing empty
 * fields are dropped, a negative limit keeps them, a positive one stops after that many fields.
 */
function splitImpl(a: Value[]): Value {
  const s = strArg("split", a, 0);
  const sep = a[1];
  if (!(sep instanceof LRegex)) {
    const hint = typeof sep === "string"
      ? `; write #"${sep.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" (Clojure's split takes a regex)`
      : "";
    return argError("split", 2, "a regex", sep, hint);
  }
  const parts = s === "" ? [""] : regexSplit(sep, s);
  const limit = a.length === 3 ? intArg("split", a, 2) : 0;
  if (limit > 0 && parts.length > limit) {
    const head = parts.slice(0, limit - 1);
    return vecFrom([...head, findRest(s, head, sep)]);
  }
  if (limit === 0) { while (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); }
  if (limit === 0 && parts.length === 1 && parts[0] === "" && s !== "") return vecFrom([]);
  return vecFrom(parts);
}

function findRest(s: string, head: string[], sep: Value): string {
  // Recompute the remainder after `head.length` separators.
  let pos = 0;
  for (const h of head) {
    pos += h.length;
    if (sep instanceof LRegex) {
      const re = new RegExp(sep.re.source, sep.re.flags.includes("g") ? sep.re.flags : sep.re.flags + "g");
      re.lastIndex = pos;
      const m = re.exec(s);
      pos = m ? m.index + m[0].length : pos;
    } else pos += (sep as string).length;
  }
  return s.slice(pos);
}

/** Number of non-overlapping occurrences of `m` (non-empty) in `s`. */
function occurrences(s: string, m: string): number {
  let n = 0;
  for (let i = s.indexOf(m); i >= 0; i = s.indexOf(m, i + m.length)) n++;
  return n;
}

function replacedLength(s: string, count: number, mLen: number, replLen: number): number {
  return s.length + count * (replLen - mLen);
}

/**
 * A string built from `s` by `f` (case mapping, trimming), charged before it is built: at most the length of `s`,
 * plus what a case mapping that grows the text (`ß` → `SS`) adds, charged once the result is known.
 */
function copyText(ctx: BuiltinContext, s: string, f: (s: string) => string): string {
  ctx.alloc(stringBytes(s.length));
  const r = f(s);
  if (r.length > s.length) ctx.alloc(2 * (r.length - s.length));
  return r;
}

function nilOrStr(fn: string, a: Value[], i: number): string | null {
  const v = a[i];
  if (v === null) return null;
  return strArg(fn, a, i);
}

/**
 * Java's `Character.isWhitespace` (what Clojure's trim and blank? use): the Unicode space separators except the
 * no-break ones (U+00A0, U+2007, U+202F), plus tab, line feed, U+000B, form feed, carriage return and U+001C–U+001F.
 * JavaScript's trim differs on exactly those (and on U+FEFF).
 */
export function isJavaWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c === 0xa0 || c === 0x2007 || c === 0x202f) return false;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x205f ||
    c === 0x3000;
}

function javaWsStart(s: string): number {
  let i = 0;
  while (i < s.length && isJavaWhitespace(s.charCodeAt(i))) i++;
  return i;
}

function javaWsEnd(s: string): number {
  let i = s.length;
  while (i > 0 && isJavaWhitespace(s.charCodeAt(i - 1))) i--;
  return i;
}

/** `str/replace` and `str/replace-first` with three arguments (Clojure's rules for each kind of match). */
function replaceImpl(fn: string, a: Value[], ctx: BuiltinContext, first: boolean): Value {
  const s = strArg(fn, a, 0);
  const m = a[1];
  const r = a[2];
  if (m instanceof LRegex) {
    if (typeof r === "string") return regexReplace(fn, m, s, r, first, (u) => ctx.alloc(stringBytes(u)));
    if (r instanceof LispFn || r instanceof Keyword || r instanceof PMap) {
      return regexReplace(fn, m, s, (x) => ctx.callFn(r, [x]), first, (u) => ctx.alloc(stringBytes(u)));
    }
    return argError(fn, 3, "a replacement string or a function of the match", r);
  }
  if (typeof m !== "string") return argError(fn, 2, "a string or regex", m);
  const repl = strArg(fn, a, 2, ' (a function replacement needs a regex match, e.g. #"a")');
  if (first) {
    const i = s.indexOf(m);
    if (i < 0) return s;
    ctx.alloc(stringBytes(s.length - m.length + repl.length));
    return s.slice(0, i) + repl + s.slice(i + m.length);
  }
  if (m === "") {
    ctx.alloc(stringBytes(s.length + (s.length + 1) * repl.length));
    return repl + [...s].join(repl) + (s === "" ? "" : repl);
  }
  ctx.alloc(stringBytes(replacedLength(s, occurrences(s, m), m.length, repl.length)));
  return s.split(m).join(repl);
}

define("strings", {
  "name": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "The name of a keyword (without the colon) or a string itself.",
    fn: (a) => {
      const v = a[0];
      if (typeof v === "string") return v;
      if (v instanceof Keyword) return v.name;
      if (v instanceof SymbolRef) return v.name;
      return argError("name", 1, "a keyword or string", v);
    },
  },
  "keyword": {
    arity: [1, 1],
    args: ["[name]"],
    doc: "The keyword with the given name (keywords pass through; nil → nil).",
    fn: (a) => {
      const v = a[0];
      if (v === null || v instanceof Keyword) return v;
      if (typeof v === "string") {
        if (!KEYWORD_RE.test(v)) {
          throw new LispError(
            "type_error",
            `keyword: ${JSON.stringify(v)} is not a valid keyword name (letters first, then letters, digits, _ ? ! -)`,
          );
        }
        return findKw(v) ?? kw(v);
      }
      return argError("keyword", 1, "a string", v);
    },
  },
  "subs": {
    arity: [2, 3],
    args: ["[s start]", "[s start end]"],
    doc: "Substring by character index (0 ≤ start ≤ end ≤ length, else it raises as in Clojure).",
    fn: (a, ctx) => {
      const s = strArg("subs", a, 0);
      const start = intArg("subs", a, 1);
      const n = gCount(s);
      const end = a.length === 3 ? intArg("subs", a, 2) : n;
      if (start < 0 || end > n || start > end) {
        throw new LispError(
          "type_error",
          `subs: ${start}..${end} is out of range for a string of ${n} characters; clamp first, ` +
            "e.g. (subs s 0 (min n (count s)))",
        );
      }
      ctx.alloc(stringBytes(end - start));
      return gSlice(s, start, end);
    },
  },
  "join": {
    arity: [1, 2],
    args: ["[coll]", "[sep coll]"],
    doc: "Join the str of each item, with an optional separator.",
    groups: S,
    fn: (a, ctx) => {
      const sep = a.length === 2 ? strOf(a[0]) : "";
      const c = a[a.length - 1];
      if (typeof c === "string" && a.length === 2 && a[0] instanceof PVec) {
        return argError("join", 2, "a collection", c, "; did you swap the arguments? Usage: (join sep coll)");
      }
      const xs = seqView(c, "join", a.length);
      // Charge the text before building it: items may be collections sharing structure, and the separator is
      // repeated once per item.
      ctx.alloc(slots(xs.length) + stringBytes(sep.length * Math.max(0, xs.length - 1)));
      const parts = new Array<string>(xs.length);
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i];
        if (typeof x === "string") ctx.alloc(stringBytes(x.length));
        else chargeExpansion(x, ctx);
        parts[i] = strOf(x);
      }
      return parts.join(sep);
    },
  },
  "split": {
    arity: [2, 3],
    args: ["[s sep]", "[s sep limit]"],
    doc: 'Split by a regex, a one-character string, or "" (characters); empty fields are kept.',
    groups: S,
    fn: (a, ctx) => {
      // The parts hold the text of s again (at most), one slot each (at most one per character).
      if (typeof a[0] === "string") ctx.alloc(stringBytes(a[0].length) + slots(a[0].length + 1));
      return splitImpl(a);
    },
  },
  "split-lines": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'Split on \\n or \\r\\n, dropping trailing empty lines ("" → [""]).',
    groups: S,
    fn: (a, ctx) => {
      const s = strArg("split-lines", a, 0);
      ctx.alloc(stringBytes(s.length) + slots(s.length + 1));
      const parts = s.split(/\r?\n/);
      while (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
      return vecFrom(parts);
    },
  },
  "trim": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Remove whitespace at both ends.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("trim", a, 0), (s) => s.slice(javaWsStart(s), javaWsEnd(s))),
  },
  "triml": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Remove leading whitespace.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("triml", a, 0), (s) => s.slice(javaWsStart(s))),
  },
  "trimr": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Remove trailing whitespace.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("trimr", a, 0), (s) => s.slice(0, javaWsEnd(s))),
  },
  "trim-newline": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Remove trailing \\r and \\n characters.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("trim-newline", a, 0), (s) => s.replace(/[\r\n]+$/, "")),
  },
  "blank?": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'True for nil, "" or whitespace only.',
    groups: S,
    fn: (a) => {
      const s = nilOrStr("blank?", a, 0);
      return s === null || javaWsStart(s) === s.length;
    },
  },
  "replace": {
    arity: [2, 3],
    args: ["[s match replacement]", "[smap coll]"],
    doc:
      "Replace every occurrence of a string or regex match (replacement is literal); (replace smap coll) substitutes items.",
    groups: S,
    fn: (a, ctx) => {
      if (a.length === 2) {
        const m = a[0];
        if (!(m instanceof PMap)) return argError("replace", 1, "a map (smap)", m);
        const xs = seqView(a[1], "replace", 2);
        ctx.alloc(slots(xs.length));
        return vecFrom(xs.map((x) => {
          const r = mapFlexGet(m, x);
          return r === NOT_FOUND ? x : r;
        }));
      }
      return replaceImpl("replace", a, ctx, false);
    },
  },
  "replace-first": {
    arity: [3, 3],
    args: ["[s match replacement]"],
    doc: "Replace the first occurrence of a string or regex match (replacement as in replace).",
    groups: S,
    fn: (a, ctx) => replaceImpl("replace-first", a, ctx, true),
  },
  "re-quote-replacement": {
    arity: [1, 1],
    args: ["[replacement]"],
    doc: "Escape \\ and $ so that a regex replace inserts the text literally.",
    groups: S,
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const s = strArg("re-quote-replacement", a, 0);
      ctx.alloc(stringBytes(2 * s.length));
      return s.replace(/[\\$]/g, "\\$&");
    },
  },
  "escape": {
    arity: [2, 2],
    args: ["[s cmap]"],
    doc: "Replace each character c of s for which (cmap c) is not nil with (str (cmap c)).",
    groups: S,
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const s = strArg("escape", a, 0);
      const cmap = a[1];
      const gs = graphemes(s);
      ctx.alloc(slots(gs.length));
      const parts: string[] = [];
      let units = 0;
      for (const ch of gs) {
        const r = ctx.callFn(cmap, [ch]);
        const t = r === null ? ch : strOf(r);
        units += t.length;
        parts.push(t);
      }
      ctx.alloc(stringBytes(units) + slots(parts.length));
      return parts.join("");
    },
  },
  "upper-case": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Upper-case.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("upper-case", a, 0), (s) => s.toUpperCase()),
  },
  "lower-case": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Lower-case.",
    groups: S,
    fn: (a, ctx) => copyText(ctx, strArg("lower-case", a, 0), (s) => s.toLowerCase()),
  },
  "starts-with?": {
    arity: [2, 2],
    args: ["[s prefix]"],
    doc: "True when s starts with prefix (nil s → false).",
    groups: S,
    fn: (a) => {
      const s = nilOrStr("starts-with?", a, 0);
      return s !== null && s.startsWith(strArg("starts-with?", a, 1));
    },
  },
  "ends-with?": {
    arity: [2, 2],
    args: ["[s suffix]"],
    doc: "True when s ends with suffix (nil s → false).",
    groups: S,
    fn: (a) => {
      const s = nilOrStr("ends-with?", a, 0);
      return s !== null && s.endsWith(strArg("ends-with?", a, 1));
    },
  },
  "includes?": {
    arity: [2, 2],
    args: ["[s sub]"],
    doc: "True when s contains sub (nil s → false).",
    groups: S,
    fn: (a) => {
      const s = nilOrStr("includes?", a, 0);
      return s !== null && textIncludes(s, strArg("includes?", a, 1));
    },
  },
  "index-of": {
    arity: [2, 3],
    args: ["[s value]", "[s value from]"],
    doc: "Character index of value in s (from an optional start), or nil.",
    groups: S,
    fn: (a) => {
      const [s, sub] = strs("index-of", a);
      const r = gIndexOf(s, sub, a.length === 3 ? intArg("index-of", a, 2) : 0);
      return r < 0 ? null : r;
    },
  },
  "last-index-of": {
    arity: [2, 3],
    args: ["[s value]", "[s value from]"],
    doc: "Character index of the last value in s (at or before from), or nil.",
    groups: S,
    fn: (a) => {
      const [s, sub] = strs("last-index-of", a);
      const r = gLastIndexOf(s, sub, a.length === 3 ? intArg("last-index-of", a, 2) : undefined);
      return r < 0 ? null : r;
    },
  },
});

alias("upcase", "upper-case");
alias("downcase", "lower-case");
