/**
 * Secret scrubbing. Every resolved secret (and its encoded forms) is registered here; every log line, error
 * message, call record, catalog text and envelope passes through `redact`/`redactJson` before output.
 * Replacement is longest-first so that a secret containing another secret is scrubbed whole.
 * @module
 */
import type { Redactor } from "./types.ts";

/** The text that replaces a secret. */
export const REDACTED = "[REDACTED]";

/** Secrets longer than this are not registered (they would make every scan slow and are never echoed whole). */
const MAX_SECRET_CHARS = 64 * 1024;

/**
 * Secrets shorter than this are scrubbed only where they stand alone (not inside a longer word): a one-letter test
 * secret must not turn every "s" of ordinary text into [REDACTED]. Real credentials are far longer.
 */
export const SHORT_SECRET_CHARS = 8;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Base64 of a UTF-8 string (standard alphabet, padded). */
export function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The forms a secret may take when it leaks: raw, URL-encoded, JSON-escaped, base64. */
function encodedForms(secret: string): string[] {
  const forms = [secret];
  const uri = encodeURIComponent(secret);
  if (uri !== secret) forms.push(uri);
  const json = JSON.stringify(secret).slice(1, -1);
  if (json !== secret) forms.push(json);
  if (secret.length >= 4) forms.push(base64Utf8(secret));
  return forms;
}

/** A Redactor with a per-instance secret set (two runtimes never share one). */
export class SecretRedactor implements Redactor {
  #secrets = new Set<string>();
  #pattern: RegExp | null = null;

  /** Register a secret and its encoded forms. Empty or oversized strings are ignored. */
  register(secret: string): void {
    if (typeof secret !== "string" || secret.length === 0 || secret.length > MAX_SECRET_CHARS) return;
    let changed = false;
    for (const form of encodedForms(secret)) {
      if (!this.#secrets.has(form)) {
        this.#secrets.add(form);
        changed = true;
      }
    }
    if (changed) this.#pattern = null;
  }

  /** Number of registered forms (diagnostics; never the values). */
  get size(): number {
    return this.#secrets.size;
  }

  /** Replace every registered secret in `text` with `[REDACTED]`. */
  redact(text: string): string {
    if (this.#secrets.size === 0 || typeof text !== "string" || text.length === 0) return text;
    if (this.#pattern === null) {
      const sorted = [...this.#secrets].sort((a, b) => b.length - a.length);
      const alternatives = sorted.map((s) =>
        s.length >= SHORT_SECRET_CHARS ? escapeRegExp(s) : `(?<![\\p{L}\\p{N}_])${escapeRegExp(s)}(?![\\p{L}\\p{N}_])`
      );
      this.#pattern = new RegExp(alternatives.join("|"), "gu");
    }
    return text.replace(this.#pattern, REDACTED);
  }

  /** Deep copy of `value` with every string (object keys included) redacted. Non-strings are untouched. */
  redactJson<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.#walk(v));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redact(k)] = this.#walk(v);
      return out;
    }
    return value;
  }
}

/** Create an empty redactor. */
export function createRedactor(): SecretRedactor {
  return new SecretRedactor();
}
