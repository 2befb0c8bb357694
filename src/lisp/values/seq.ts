/**
 * The sequence view (docs/language.md §2): what sequence functions iterate. nil → empty, vectors → elements, strings →
 * graphemes, maps → `[k v]` vectors sorted by key, sets → members in total order.
 * @module
 */

import { LispError } from "../errors.ts";
import type { Value } from "./types.ts";
import { PVec, vecOf } from "./vector.ts";
import { PMap, PSet } from "./hashmap.ts";
import { graphemes } from "./strings.ts";
import { sortedEntries, sortValues } from "./compare.ts";
import { describe } from "./kinds.ts";

const NONE: Value[] = [];

/** Map entries as sorted `[k v]` vectors. */
export function mapEntries(m: PMap): PVec[] {
  const flat = sortedEntries(m);
  const out = new Array<PVec>(flat.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = vecOf(flat[2 * i], flat[2 * i + 1]);
  return out;
}

/** Set members sorted by the total order. */
export function setMembers(s: PSet): Value[] {
  return sortValues(s.members());
}

/**
 * The seq view of `v` as a JS array. The array may be shared with a vector: never mutate it and capture its length
 * before calling back into user code. Raises `type_error` naming `fnName` and the argument position otherwise.
 */
export function seqView(v: Value, fnName: string, pos: number): Value[] {
  if (v instanceof PVec) return v.view();
  if (v === null) return NONE;
  if (typeof v === "string") return graphemes(v);
  if (v instanceof PMap) return mapEntries(v);
  if (v instanceof PSet) return setMembers(v);
  throw new LispError(
    "type_error",
    `${fnName}: expected a collection (vector, map, set, string or nil) as argument ${pos}, got ${describe(v)}`,
  );
}
