/**
 * A short preview of a JSON value for call records (error feedback quotes it, fenced as untrusted data): the first
 * `max` characters of its JSON text, produced by a bounded walk so a multi-megabyte payload is never serialized whole.
 * Callers pass an already-redacted value.
 * @module
 */
import type { JsonValue } from "../core/json.ts";

/** Default preview length in characters. */
export const PREVIEW_CHARS = 120;

/** The first `max` characters of `JSON.stringify(value)` ("…" appended when cut). */
export function previewJson(value: JsonValue, max = PREVIEW_CHARS): string {
  const parts: string[] = [];
  let size = 0;
  const push = (s: string): boolean => {
    parts.push(s);
    size += s.length;
    return size < max;
  };
  const walk = (v: JsonValue): boolean => {
    if (v === null || typeof v !== "object") return push(JSON.stringify(v) ?? "null");
    if (Array.isArray(v)) {
      if (!push("[")) return false;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !push(",")) return false;
        if (!walk(v[i])) return false;
      }
      return push("]");
    }
    if (!push("{")) return false;
    let first = true;
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      if (!first && !push(",")) return false;
      first = false;
      if (!push(`${JSON.stringify(k)}:`)) return false;
      if (!walk(x)) return false;
    }
    return push("}");
  };
  walk(value);
  const text = parts.join("");
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
