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
import { float, intFromNumber, isFloat, numCompare, toNumber } from "../values/numbers.ts";
import { define } from "./table.ts";
import { argError, intArg, numArg, strArg } from "./util.ts";
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

function notParsed(fn: string, s: Value, what: string, instead: string): never {
  if (typeof s !== "string" && s !== null) return argError(fn, 1, "a string", s);
  throw new LispError(
    "type_error",
    `${fn}: ${
      s === null ? "nil" : JSON.stringify(s.slice(0, 40))
    } is not ${what} (Java raises NumberFormatException; ` +
      `write (${instead} s) for nil instead)`,
  );
}

/** `Integer/parseInt`, `Long/parseLong`: Java's rules (sign and digits only, within range), raising otherwise. */
function javaParseInt(fn: string, s: Value, limit: bigint): Value {
  const v = parseLong(s);
  if (v === null || BigInt(v as number | bigint) >= limit || BigInt(v as number | bigint) < -limit) {
    return notParsed(fn, s, `a ${limit > 2147483648n ? 64 : 32}-bit integer`, "parse-long");
  }
  return v;
}

/** `Double/parseDouble`: Java's rules (what parse-double reads), raising where parse-double answers nil. */
function javaParseDouble(fn: string, s: Value): Value {
  const v = parseDouble(s);
  return v === null ? notParsed(fn, s, "a floating-point number", "parse-double") : v;
}

/** `Math/max`, `Math/min`: Java's overloads take two integers or two floats; mixing them has no matching method. */
function javaExtreme(fn: string, a: Value[], sign: 1 | -1): Value {
  const x = numArg(fn, a, 0), y = numArg(fn, a, 1);
  if (isFloat(x) !== isFloat(y)) {
    throw new LispError(
      "type_error",
      `${fn}: Java's ${fn} takes two integers or two floats, got one of each; write (${
        sign > 0 ? "max" : "min"
      } a b) or convert with (double x)`,
    );
  }
  if (!isFloat(x)) return sign * numCompare(x, y) >= 0 ? x : y;
  const p = toNumber(x), q = toNumber(y);
  return float(sign > 0 ? Math.max(p, q) : Math.min(p, q));
}

/** A float result of `f` on a number argument (`Math/ceil`, `Math/floor` return doubles in Java). */
function javaDouble(fn: string, f: (x: number) => number) {
  return (a: Value[]): Value => float(f(toNumber(numArg(fn, a, 0))));
}

define("interop", {
  "Math/max": {
    arity: [2, 2],
    args: ["[a b]"],
    doc: "Java's Math.max: two integers or two floats (max takes any numbers).",
    groups: ["math"],
    qualifiedOnly: true,
    fn: (a) => javaExtreme("Math/max", a, 1),
  },
  "Math/min": {
    arity: [2, 2],
    args: ["[a b]"],
    doc: "Java's Math.min: two integers or two floats (min takes any numbers).",
    groups: ["math"],
    qualifiedOnly: true,
    fn: (a) => javaExtreme("Math/min", a, -1),
  },
  "Math/ceil": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Smallest whole number ≥ x, as a float like Java's (ceil gives an integer).",
    groups: ["math"],
    qualifiedOnly: true,
    fn: javaDouble("Math/ceil", Math.ceil),
  },
  "Math/floor": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Largest whole number ≤ x, as a float like Java's (floor gives an integer).",
    groups: ["math"],
    qualifiedOnly: true,
    fn: javaDouble("Math/floor", Math.floor),
  },
  "Math/round": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Java's Math.round: the integer floor(x + 0.5), so halves go up (-2.5 → -2; round goes away from zero).",
    groups: ["math"],
    qualifiedOnly: true,
    fn: (a) => {
      const v = numArg("Math/round", a, 0);
      if (!isFloat(v)) return v;
      const x = toNumber(v);
      if (x !== x) return 0;
      if (x >= 2 ** 63) return 9223372036854775807n;
      if (x <= -(2 ** 63)) return -9223372036854775808n;
      return intFromNumber(Math.floor(x + 0.5) + 0);
    },
  },
  ".indexOf": {
    arity: [2, 3],
    args: ["[s sub]", "[s sub from]"],
    doc: "Character index of sub in s, or -1.",
    fn: (a) =>
      gIndexOf(strArg(".indexOf", a, 0), strArg(".indexOf", a, 1), a.length === 3 ? intArg(".indexOf", a, 2) : 0),
  },
  ".lastIndexOf": {
    arity: [2, 3],
    args: ["[s sub]", "[s sub from]"],
    doc: "Character index of the last sub in s (at or before from), or -1.",
    fn: (a) =>
      gLastIndexOf(
        strArg(".lastIndexOf", a, 0),
        strArg(".lastIndexOf", a, 1),
        a.length === 3 ? intArg(".lastIndexOf", a, 2) : undefined,
      ),
  },
  ".toLowerCase": strFn(".toLowerCase", "Lower-case.", (s) => s.toLowerCase()),
  ".toUpperCase": strFn(".toUpperCase", "Upper-case.", (s) => s.toUpperCase()),
  ".startsWith": {
    arity: [2, 3],
    args: ["[s prefix]", "[s prefix offset]"],
    doc: "True when s starts with prefix (at the character offset, when given).",
    fn: (a) => {
      const s = strArg(".startsWith", a, 0), t = strArg(".startsWith", a, 1);
      if (a.length === 2) return s.startsWith(t);
      const at = intArg(".startsWith", a, 2);
      return at >= 0 && at <= gCount(s) && gSlice(s, at, gCount(s)).startsWith(t);
    },
  },
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
    doc: "The 32-bit integer the whole string writes (an optional sign and digits); anything else raises.",
    groups: ["Integer"],
    qualifiedOnly: true,
    fn: (a) => javaParseInt("Integer/parseInt", a[0], 2147483648n),
  },
  "Long/parseLong": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "The 64-bit integer the whole string writes (an optional sign and digits); anything else raises.",
    groups: ["Long"],
    qualifiedOnly: true,
    fn: (a) => javaParseInt("Long/parseLong", a[0], 9223372036854775808n),
  },
  "Double/parseDouble": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "The float the string writes (surrounding whitespace allowed); anything else raises.",
    groups: ["Double"],
    qualifiedOnly: true,
    fn: (a) => javaParseDouble("Double/parseDouble", a[0]),
  },
  "Float/parseFloat": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Same as parse-double.",
    groups: ["Float"],
    qualifiedOnly: true,
    fn: (a) => javaParseDouble("Float/parseFloat", a[0]),
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
