/**
 * Nesting depth of decoded upstream data. Everything after decoding (redaction, size accounting, conversion into
 * program values, printing) walks data recursively, so a response nested hundreds of thousands deep would end in an
 * engine "Maximum call stack" error somewhere far from its cause; it is refused up front instead.
 * @module
 */
import type { JsonValue } from "../core/json.ts";

/** Deepest nesting of arrays and objects accepted in an upstream response. */
export const MAX_RESPONSE_DEPTH = 1_000;

/** True when `value` nests arrays/objects deeper than `limit` (iterative: never overflows the stack itself). */
export function nestsDeeperThan(value: JsonValue, limit: number): boolean {
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
