/**
 * Builtins: JSON (`json/` namespace only): parse-string, parse-lines, generate-string.
 * @module
 */

import type { JsonValue } from "../../core/json.ts";
import { Keyword, LFloat, LispFn, type Value } from "../values/types.ts";
import { PVec, vecFrom } from "../values/vector.ts";
import { PMap, PSet } from "../values/hashmap.ts";
import { sortValues } from "../values/compare.ts";
import { fromJson } from "../values/json.ts";
import { define } from "./table.ts";
import { chargeExpansion } from "../values/expansion.ts";

/** Encode for `json/generate-string`; undefined when not encodable (keyword keys/values, specials, functions). */
function encodable(v: Value): JsonValue | undefined {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return Number.isFinite(v) ? v : undefined;
    case "bigint":
      return undefined;
  }
  if (v === null) return null;
  if (v instanceof LFloat) return v.v;
  if (v instanceof PVec) {
    const out: JsonValue[] = [];
    for (let i = 0; i < v.n; i++) {
      const x = encodable(v.at(i));
      if (x === undefined) return undefined;
      out.push(x);
    }
    return out;
  }
  if (v instanceof PSet) {
    const out: JsonValue[] = [];
    for (const m of sortValues(v.members())) {
      const x = encodable(m);
      if (x === undefined) return undefined;
      out.push(x);
    }
    return out;
  }
  if (v instanceof PMap) {
    const o: { [k: string]: JsonValue } = {};
    let ok = true;
    v.forEach((k, x) => {
      if (!ok) return;
      let key: string;
      if (typeof k === "string") key = k;
      else if (typeof k === "number" && Number.isInteger(k)) key = String(k);
      else if (typeof k === "bigint") key = k.toString();
      else {
        ok = false;
        return;
      }
      const e = encodable(x);
      if (e === undefined) ok = false;
      else o[key] = e;
    });
    return ok ? o : undefined;
  }
  if (v instanceof Keyword || v instanceof LispFn) return undefined;
  return undefined;
}

/** Big integers are written as exact digits. */
function stringify(v: Value): string | null {
  if (typeof v === "bigint") return v.toString();
  const j = encodable(v);
  return j === undefined ? null : JSON.stringify(j);
}

/** Keeps integers beyond 2^53 exact (as bigint) using the reviver's source text. */
function exactReviver(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** Parse JSON text; integers with more than 15 digits stay exact. Throws on invalid text. */
export function parseJsonText(s: string): Value {
  const big = /\d{16}/.test(s);
  // deno-lint-ignore no-explicit-any
  const j = big ? JSON.parse(s, exactReviver as any) : JSON.parse(s);
  return fromJson(j);
}

function parse(s: Value): Value {
  if (typeof s !== "string") return null;
  try {
    return parseJsonText(s);
  } catch {
    return null;
  }
}

define("json", {
  "json/parse-string": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Parse JSON text into data with string keys; invalid input, non-strings and JSON null give nil.",
    groups: ["json"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      if (typeof a[0] === "string") ctx.alloc(4 * a[0].length);
      return parse(a[0]);
    },
  },
  "json/parse-lines": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "Parse JSONL text into a vector (blank lines skipped); any bad line gives nil.",
    groups: ["json"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const s = a[0];
      if (typeof s !== "string") return null;
      ctx.alloc(4 * s.length);
      const out: Value[] = [];
      for (const line of s.split(/\r?\n/)) {
        if (line.trim() === "") continue;
        try {
          out.push(parseJsonText(line));
        } catch {
          return null;
        }
      }
      return vecFrom(out);
    },
  },
  "json/generate-string": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Encode data as JSON text; keyword keys or values, ##Inf/##NaN and functions give nil.",
    groups: ["json"],
    qualifiedOnly: true,
    fn: (a, ctx) => {
      // Shared structure is written out in full: charge the expansion (the JSON tree and its text) first.
      chargeExpansion(a[0], ctx, 2);
      return stringify(a[0]);
    },
  },
});
