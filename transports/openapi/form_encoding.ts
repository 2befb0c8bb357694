/**
 * Bracket encoding of nested values into `key=value` pairs, as Stripe, Rails, PHP and `qs` read them: an object
 * property becomes `name[key]`, a list item `name[0]`, recursively (`items[0][price]=p_1`, `metadata[order]=42`).
 * Used for `application/x-www-form-urlencoded` request bodies and `style: deepObject` query parameters. Every
 * name part and value is percent-encoded on its own, so a key the program wrote can never add a pair or a level;
 * only the structural brackets stay literal. `null` is sent as an empty value (Stripe's way to unset a field), an
 * empty list or object sends nothing, booleans are `true`/`false`.
 * @module
 */
import type { JsonValue } from "../../src/core/json.ts";

/** One encoded `key=value` pair (both parts already percent-encoded). */
export type Pair = [key: string, value: string];

/** Append the pairs of `value` under the already-encoded name `prefix`. */
export function bracketPairs(prefix: string, value: JsonValue, out: Pair[]): Pair[] {
  if (value === null) out.push([prefix, ""]);
  else if (Array.isArray(value)) value.forEach((v, i) => bracketPairs(`${prefix}[${i}]`, v, out));
  else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value)) bracketPairs(`${prefix}[${encodeURIComponent(k)}]`, v, out);
  } else out.push([prefix, encodeURIComponent(String(value))]);
  return out;
}

/** `a=1&b%5B..` → the pairs joined. */
export function joinPairs(pairs: readonly Pair[]): string {
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

/** How one top-level form field is written (its `encoding` entry in the document). */
export interface FieldEncoding {
  /** `form` writes a list as repeated keys (`explode`) or comma-separated; anything else uses brackets. */
  style: string;
  explode: boolean;
}

/**
 * An `application/x-www-form-urlencoded` body from top-level fields (keys are the document's property names). A
 * list of scalars whose `encoding` says `style: form` is `tag=a&tag=b` (or `tag=a,b` without explode); everything
 * nested uses brackets.
 */
export function formBody(fields: Record<string, JsonValue>, encodings: Record<string, FieldEncoding> = {}): string {
  const pairs: Pair[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const key = encodeURIComponent(name);
    const enc = encodings[name];
    const flatList = Array.isArray(value) && value.every((v) => v === null || typeof v !== "object");
    if (enc?.style === "form" && flatList) {
      const items = (value as JsonValue[]).map((v) => encodeURIComponent(v === null ? "" : String(v)));
      if (enc.explode) { for (const item of items) pairs.push([key, item]); }
      else if (items.length > 0) pairs.push([key, items.join(",")]);
      continue;
    }
    bracketPairs(key, value, pairs);
  }
  return joinPairs(pairs);
}
