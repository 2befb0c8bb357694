/**
 * "Did you mean" suggestions and key-path helpers shared by config validation, tool/call and discovery.
 * @module
 */
import type { ConfigError } from "./types.ts";

/** Levenshtein distance (small strings only: names and keys). */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** Up to `max` candidates close to `word` (case-insensitive, `-`/`_` folded), nearest first. */
export function nearest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const fold = (s: string) => s.toLowerCase().replace(/-/g, "_");
  const w = fold(word);
  const scored: [string, number][] = [];
  for (const c of candidates) {
    const f = fold(c);
    const d = editDistance(w, f);
    const limit = Math.max(2, Math.floor(Math.max(w.length, f.length) / 3));
    const parts = w.split("_").filter((x) => x.length > 1);
    const allParts = parts.length > 1 && parts.every((x) => f.split("_").includes(x));
    if (d <= limit || allParts || (w.length >= 3 && (f.includes(w) || w.includes(f)))) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, max).map(([c]) => c);
}

/** ` (did you mean "x"?)` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = nearest(word, candidates, 1);
  return near.length ? ` (did you mean "${near[0]}"?)` : "";
}

/**
 * Help for an unknown key: ` (did you mean "x"?)` when one known key is close, else ` (valid keys: a, b, c)`, or the
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
