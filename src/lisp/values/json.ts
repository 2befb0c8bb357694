/**
 * The JSON boundary (docs/language.md §2, §6).
 *
 * - `fromJson`: tool results / data files → values in one O(n) walk (objects → maps with string keys, arrays →
 *   vectors, integral numbers → integers, beyond 2^53 → bigint).
 * - `toJson`: the public projection of a value: keywords → names (keys and values), sets → arrays (total order),
 *   integral floats → numbers, bigints → numbers when safe else decimal strings (exact digits), ##Inf/##-Inf/##NaN →
 *   the strings "Infinity"/"-Infinity"/"NaN", functions → "#fn[...]"/"#<builtin>", vars → "#'x", symbol refs →
 *   "'x", regexes → "#\"…\"", dates → ISO strings; map keys → strings (keyword names, other keys in printer form).
 * - `toToolArgs`: tool-call arguments: like `toJson` but every map key also gets `-` → `_`; functions and other
 *   non-data values raise `invalid_tool_args`.
 * @module
 */

import type { JsonValue } from "../../core/json.ts";
import { LispError } from "../errors.ts";
import {
  internalized,
  Keyword,
  LDate,
  LDuration,
  LFloat,
  LispFn,
  LRegex,
  SymbolRef,
  type Value,
  Var,
} from "./types.ts";
import { EMPTY_VEC, PVec, vecFrom } from "./vector.ts";
import { EMPTY_MAP, MapBuilder, PMap, PSet } from "./hashmap.ts";
import { sortValues } from "./compare.ts";
import { normBig } from "./numbers.ts";
import { prStr } from "../printer.ts";

/** Strings up to this length that are equal share one string object within one conversion (see `fromJson`). */
const SHARED_STRING_MAX = 16;
/** Most distinct strings one conversion remembers for sharing. */
const SHARED_STRINGS_MAX = 8192;

/**
 * Convert parsed JSON into values (one walk). Equal short strings of one value (the `kind`, `status`, `model` of its
 * records) become one internalized string object (`internalized`), as `JSON.parse` makes them when it internalizes
 * short strings; data a sandbox receives in V8's format (src/sandbox/v8_frames.ts) has a copy per occurrence, and
 * comparing copies reads their characters where one object compares by identity (`frequencies` over 30,000 step
 * kinds measured ~1.4× slower). Internalized, they are also the same object as a program's equal string constant.
 */
export function fromJson(j: JsonValue | bigint | undefined): Value {
  return convert(j, new Map());
}

function convert(j: JsonValue | bigint | undefined, strings: Map<string, string>): Value {
  if (j === null || j === undefined) return null;
  switch (typeof j) {
    case "string": {
      if (j.length > SHARED_STRING_MAX) return j;
      const s = strings.get(j);
      if (s !== undefined) return s;
      // Bounded: a value of millions of distinct short strings (ids) must not double its memory while it converts.
      if (strings.size >= SHARED_STRINGS_MAX) return j;
      const shared = internalized(j);
      strings.set(j, shared);
      return shared;
    }
    case "boolean":
      return j;
    case "number":
      return Number.isInteger(j) && !Number.isSafeInteger(j) ? BigInt(j) : j;
    case "bigint":
      return normBig(j);
  }
  if (Array.isArray(j)) {
    const n = j.length;
    if (n === 0) return EMPTY_VEC;
    const out = new Array<Value>(n);
    for (let i = 0; i < n; i++) out[i] = convert(j[i], strings);
    return vecFrom(out);
  }
  const keys = Object.keys(j);
  if (keys.length === 0) return EMPTY_MAP;
  if (keys.length <= 16) {
    const kvs = new Array<Value>(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      kvs[2 * i] = keys[i];
      kvs[2 * i + 1] = convert(j[keys[i]], strings);
    }
    return new PMap(keys.length, kvs, null, true);
  }
  const b = new MapBuilder();
  for (const k of keys) b.set(k, convert(j[k], strings));
  return b.build();
}

function keyText(k: Value, underscore: boolean): string {
  const s = typeof k === "string" ? k : k instanceof Keyword ? k.name : prStr(k);
  return underscore && s.includes("-") ? s.replaceAll("-", "_") : s;
}

function scalar(v: Value): JsonValue | undefined {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (Number.isFinite(v)) return v;
      return v !== v ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    case "bigint":
      return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  if (v === null) return null;
  if (v instanceof Keyword) return v.name;
  if (v instanceof LFloat) return v.v;
  return undefined;
}

/** The public JSON projection of a value (see module doc). */
export function toJson(v: Value): JsonValue {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (v instanceof PVec) {
    const out = new Array<JsonValue>(v.n);
    for (let i = 0; i < v.n; i++) out[i] = toJson(v.at(i));
    return out;
  }
  if (v instanceof PMap) {
    const o: { [k: string]: JsonValue } = {};
    v.forEach((k, x) => {
      o[keyText(k, false)] = toJson(x);
    });
    return o;
  }
  if (v instanceof PSet) return sortValues(v.members()).map(toJson);
  if (v instanceof LispFn) return v.printed();
  if (v instanceof LDate) return v.iso();
  if (v instanceof Var || v instanceof SymbolRef || v instanceof LRegex || v instanceof LDuration) return prStr(v);
  return null;
}

/** Convert tool-call arguments (docs/language.md §6): keys stringified with `-` → `_`, keyword values → names. */
export function toToolArgs(v: Value, path = "args"): JsonValue {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (v instanceof PVec) {
    const out = new Array<JsonValue>(v.n);
    for (let i = 0; i < v.n; i++) out[i] = toToolArgs(v.at(i), `${path}[${i}]`);
    return out;
  }
  if (v instanceof PMap) {
    const o: { [k: string]: JsonValue } = {};
    const from = new Map<string, Value>();
    v.forEach((k, x) => {
      const key = keyText(k, true);
      const other = from.get(key);
      if (other !== undefined) {
        throw new LispError(
          "invalid_tool_args",
          `tool arguments name ${path === "args" ? "" : `${path}.`}${key} twice: ${prStr(other)} and ${
            prStr(k)
          } are both sent as "${key}"; keep one`,
        );
      }
      from.set(key, k);
      o[key] = toToolArgs(x, `${path}.${key}`);
    });
    return o;
  }
  if (v instanceof PSet) return sortValues(v.members()).map((x, i) => toToolArgs(x, `${path}[${i}]`));
  if (v instanceof LDate) return v.iso();
  throw new LispError(
    "invalid_tool_args",
    `tool arguments must be JSON data, but ${path} is ${
      prStr(v)
    }; pass strings, numbers, booleans, nil, vectors or maps`,
  );
}
