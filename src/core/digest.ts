/**
 * Stable text and digests of values: canonical JSON (object keys sorted at every level, so equal values give equal
 * text whatever order their keys came in) and hex SHA-256. Record/replay matches calls by the first; the audit log,
 * recordings and the HTTP face's owner keys use the second.
 * @module
 */

/** JSON text with object keys sorted at every level. Throws (RangeError) on a value nested too deep to serialize. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** Hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
