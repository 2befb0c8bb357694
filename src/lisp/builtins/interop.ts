/**
 * Builtins: the curated Java-shaped interop veneer (docs/language.md §5): `.method` string/date helpers, `Integer/parseInt`
 * and friends, special-float constants, `System/currentTimeMillis`, dates and durations. Java-named functions raise
 * on bad input (unlike the Clojure-named ones, which signal nil).
 * @module
 */

import { LispError } from "../errors.ts";
import { LDate, LDuration, type Value } from "../values/types.ts";
import { gCount, gIndexOf, gLastIndexOf, gSlice } from "../values/strings.ts";
import { isNumber } from "../values/equality.ts";
import { toNumber } from "../values/numbers.ts";
import { define } from "./table.ts";
import { argError, intArg, strArg } from "./util.ts";
import { parseDouble, parseLong } from "./text.ts";

function dateArg(fn: string, a: Value[], i: number): LDate {
  const v = a[i];
  if (v instanceof LDate) return v;
  return argError(fn, i + 1, "a date", v);
}

const DAY = 86_400_000;

/** Parse `YYYY-MM-DD` (→ LocalDate) or an ISO date-time (offsetless = UTC), else raise. */
export function parseDate(fn: string, s: string): LDate {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const ms = Date.parse(s + "T00:00:00Z");
    if (!Number.isNaN(ms)) return new LDate(ms, true);
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(s)) {
    const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(s) ? s : s + "Z";
    const ms = Date.parse(withZone);
    if (!Number.isNaN(ms)) return new LDate(ms, false);
  }
  throw new LispError("type_error", `${fn}: cannot parse ${JSON.stringify(s)} as a date (use YYYY-MM-DD or ISO-8601)`);
}

function fromEpoch(n: number): LDate {
  return new LDate(Math.abs(n) < 1e12 ? n * 1000 : n, false);
}

function cmpDates(fn: string, a: Value[]): number {
  const x = dateArg(fn, a, 0);
  const y = dateArg(fn, a, 1);
  if (x.dateOnly !== y.dateOnly) {
    throw new LispError("type_error", `${fn}: cannot compare a date with a date-time`);
  }
  return x.ms - y.ms;
}

const strFn = (name: string, doc: string, f: (s: string, a: Value[]) => Value) => ({
  arity: [1, 1] as [number, number],
  args: ["[s]"],
  doc,
  fn: (a: Value[]) => f(strArg(name, a, 0), a),
});

const str2 = (name: string, doc: string, f: (s: string, t: string) => Value) => ({
  arity: [2, 2] as [number, number],
  args: ["[s t]"],
  doc,
  fn: (a: Value[]) => f(strArg(name, a, 0), strArg(name, a, 1)),
});

function requireParsed(fn: string, v: Value, s: Value): Value {
  if (v === null && typeof s !== "string" && s !== null) return argError(fn, 1, "a string", s);
  return v;
}

define("interop", {
  ".indexOf": {
    arity: [2, 3],
    args: ["[s sub]", "[s sub from]"],
    doc: "Character index of sub in s, or -1.",
    fn: (a) =>
      gIndexOf(strArg(".indexOf", a, 0), strArg(".indexOf", a, 1), a.length === 3 ? intArg(".indexOf", a, 2) : 0),
  },
  ".lastIndexOf": str2(".lastIndexOf", "Character index of the last sub in s, or -1.", (s, t) => gLastIndexOf(s, t)),
  ".toLowerCase": strFn(".toLowerCase", "Lower-case.", (s) => s.toLowerCase()),
  ".toUpperCase": strFn(".toUpperCase", "Upper-case.", (s) => s.toUpperCase()),
  ".startsWith": str2(".startsWith", "True when s starts with t.", (s, t) => s.startsWith(t)),
  ".endsWith": str2(".endsWith", "True when s ends with t.", (s, t) => s.endsWith(t)),
  ".contains": str2(".contains", "True when s contains t.", (s, t) => s.includes(t)),
  ".length": strFn(".length", "Number of characters.", (s) => gCount(s)),
  ".substring": {
    arity: [2, 3],
    args: ["[s start]", "[s start end]"],
    doc: "Characters from start to end; raises when out of range.",
    fn: (a) => {
      const s = strArg(".substring", a, 0);
      const n = gCount(s);
      const start = intArg(".substring", a, 1);
      const end = a.length === 3 ? intArg(".substring", a, 2) : n;
      if (start < 0 || end > n || start > end) {
        throw new LispError("type_error", `.substring: range ${start}..${end} is out of bounds for length ${n}`);
      }
      return gSlice(s, start, end);
    },
  },
  "Integer/parseInt": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-long.",
    groups: ["Integer"],
    qualifiedOnly: true,
    fn: (a) => requireParsed("Integer/parseInt", parseLong(a[0]), a[0]),
  },
  "Long/parseLong": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-long.",
    groups: ["Long"],
    qualifiedOnly: true,
    fn: (a) => requireParsed("Long/parseLong", parseLong(a[0]), a[0]),
  },
  "Double/parseDouble": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-double.",
    groups: ["Double"],
    qualifiedOnly: true,
    fn: (a) => requireParsed("Double/parseDouble", parseDouble(a[0]), a[0]),
  },
  "Float/parseFloat": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-double.",
    groups: ["Float"],
    qualifiedOnly: true,
    fn: (a) => requireParsed("Float/parseFloat", parseDouble(a[0]), a[0]),
  },
  "Boolean/parseBoolean": {
    arity: [1, 1],
    args: ["[s]"],
    doc: 'True only for a case-insensitive "true"; nil → false.',
    groups: ["Boolean"],
    qualifiedOnly: true,
    fn: (a) => {
      if (a[0] === null) return false;
      return strArg("Boolean/parseBoolean", a, 0).toLowerCase() === "true";
    },
  },
  "Double/POSITIVE_INFINITY": {
    arity: [0, 0],
    args: [],
    doc: "##Inf.",
    groups: ["Double"],
    qualifiedOnly: true,
    constant: Infinity,
    fn: () => Infinity,
  },
  "Double/NEGATIVE_INFINITY": {
    arity: [0, 0],
    args: [],
    doc: "##-Inf.",
    groups: ["Double"],
    qualifiedOnly: true,
    constant: -Infinity,
    fn: () => -Infinity,
  },
  "Double/NaN": {
    arity: [0, 0],
    args: [],
    doc: "##NaN.",
    groups: ["Double"],
    qualifiedOnly: true,
    constant: NaN,
    fn: () => NaN,
  },
  "POSITIVE_INFINITY": { arity: [0, 0], args: [], doc: "##Inf.", constant: Infinity, fn: () => Infinity },
  "NEGATIVE_INFINITY": { arity: [0, 0], args: [], doc: "##-Inf.", constant: -Infinity, fn: () => -Infinity },
  "NaN": { arity: [0, 0], args: [], doc: "##NaN.", constant: NaN, fn: () => NaN },
  "System/currentTimeMillis": {
    arity: [0, 0],
    args: ["[]"],
    doc: "Milliseconds since the epoch (non-deterministic).",
    groups: ["System"],
    qualifiedOnly: true,
    fn: () => Date.now(),
  },
  "java.util.Date.": {
    arity: [0, 1],
    args: ["[]", "[epoch-or-text]"],
    doc: "Now, or a date-time from epoch seconds/ms (|n| < 1e12 → seconds) or ISO-8601 / RFC-2822 text.",
    fn: (a) => {
      if (a.length === 0) return new LDate(Date.now(), false);
      const v = a[0];
      if (isNumber(v)) return fromEpoch(toNumber(v));
      const s = strArg("java.util.Date.", a, 0);
      if (/^\d{4}-\d{2}-\d{2}/.test(s)) {
        const d = parseDate("java.util.Date.", s);
        return new LDate(d.ms, false);
      }
      const ms = Date.parse(s);
      if (Number.isNaN(ms)) throw new LispError("type_error", `java.util.Date.: cannot parse ${JSON.stringify(s)}`);
      return new LDate(ms, false);
    },
  },
  "parse": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "YYYY-MM-DD → date; text with T… → date-time (offsetless = UTC).",
    groups: ["LocalDate", "Instant"],
    fn: (a) => parseDate("parse", strArg("parse", a, 0)),
  },
  ".getTime": {
    arity: [1, 1],
    args: ["[date]"],
    doc: "Epoch milliseconds of a date-time.",
    fn: (a) => dateArg(".getTime", a, 0).ms,
  },
  ".toEpochDay": {
    arity: [1, 1],
    args: ["[date]"],
    doc: "Days since 1970-01-01.",
    fn: (a) => Math.floor(dateArg(".toEpochDay", a, 0).ms / DAY),
  },
  ".plusDays": {
    arity: [2, 2],
    args: ["[date n]"],
    doc: "The date n days later.",
    fn: (a) => {
      const d = dateArg(".plusDays", a, 0);
      return new LDate(d.ms + intArg(".plusDays", a, 1) * DAY, d.dateOnly);
    },
  },
  ".minusDays": {
    arity: [2, 2],
    args: ["[date n]"],
    doc: "The date n days earlier.",
    fn: (a) => {
      const d = dateArg(".minusDays", a, 0);
      return new LDate(d.ms - intArg(".minusDays", a, 1) * DAY, d.dateOnly);
    },
  },
  ".isBefore": {
    arity: [2, 2],
    args: ["[a b]"],
    doc: "True when a is before b (same kind of date).",
    fn: (a) => cmpDates(".isBefore", a) < 0,
  },
  ".isAfter": {
    arity: [2, 2],
    args: ["[a b]"],
    doc: "True when a is after b (same kind of date).",
    fn: (a) => cmpDates(".isAfter", a) > 0,
  },
  "Duration/between": {
    arity: [2, 2],
    args: ["[a b]"],
    doc: "The duration from date-time a to b.",
    groups: ["Duration"],
    qualifiedOnly: true,
    fn: (a) => new LDuration(dateArg("Duration/between", a, 1).ms - dateArg("Duration/between", a, 0).ms),
  },
  ".toMillis": {
    arity: [1, 1],
    args: ["[duration]"],
    doc: "Milliseconds of a duration.",
    fn: (a) => {
      const d = a[0];
      if (d instanceof LDuration) return d.ms;
      return argError(".toMillis", 1, "a duration", d);
    },
  },
  ".toDays": {
    arity: [1, 1],
    args: ["[duration]"],
    doc: "Whole days of a duration (toward zero).",
    fn: (a) => {
      const d = a[0];
      if (d instanceof LDuration) return Math.trunc(d.ms / DAY) + 0;
      return argError(".toDays", 1, "a duration", d);
    },
  },
});
