/**
 * Pieces of the messages config validation, tool/call and discovery write: key paths (`upstreams.obs.auth[0]`),
 * short value and type descriptions, and the hint under an unknown key.
 * @module
 */
import { didYouMean } from "../core/suggest.ts";
import type { ConfigError } from "./types.ts";

/**
 * Help for an unknown key: ` (did you mean "x"?)` when known keys are close, else ` (valid keys: a, b, c)`, or the
 * empty string when there is nothing to list. `noun` names the list (`valid keys`, `accepted arguments`).
 */
export function unknownKeyHint(word: string, known: readonly string[], noun = "valid keys"): string {
  const near = didYouMean(word, known);
  if (near) return near;
  return known.length ? ` (${noun}: ${known.join(", ")})` : "";
}

/** Append an object key to a key path: `upstreams` + `obs` → `upstreams.obs`. Odd keys are quoted. */
export function joinKey(prefix: string, key: string): string {
  const part = /^[A-Za-z0-9_$-]+$/.test(key) ? key : JSON.stringify(key);
  return prefix ? `${prefix}.${part}` : part;
}

/** Append an array index to a key path: `auth` + 0 → `auth[0]`. */
export function joinIndex(prefix: string, index: number): string {
  return `${prefix}[${index}]`;
}

/** One line per problem: `path: message`. */
export function formatConfigError(e: ConfigError): string {
  return e.path ? `${e.path}: ${e.message}` : e.message;
}

/** Render a short, single-line description of a JSON value for messages (never used for secrets). */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return v.length > 40 ? `"${v.slice(0, 37)}..."` : JSON.stringify(v);
  return String(v);
}

/** Name of a JSON value's type for messages: string, number, integer, boolean, null, list, object. */
export function jsonTypeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
