/**
 * Byte helpers: joining received chunks (the guarded HTTP client, the stdio line reader) and the size of a JSON value.
 * @module
 */
import type { JsonValue } from "../core/json.ts";

/** Join `chunks` (whose lengths add up to `total`) into one array; a single chunk is returned as it is. */
export function concatBytes(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** UTF-8 byte length of a JSON value as serialized. */
export function jsonBytes(value: JsonValue): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "null").length;
}
