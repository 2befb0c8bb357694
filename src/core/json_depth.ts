/**
 * Nesting depth of JSON data: decoded upstream responses, tool arguments, recordings and inlined OpenAPI schemas.
 * Everything after decoding (redaction, schema checks, size accounting, conversion into program values, printing)
 * walks such data recursively, so a value nested hundreds of thousands deep would end in an engine "Maximum call
 * stack" error somewhere far from its cause; it is measured here without recursion and refused up front instead.
 * @module
 */
import type { JsonValue } from "./json.ts";

/** Deepest nesting of arrays and objects accepted in an upstream response (and in tool arguments). */
export const MAX_RESPONSE_DEPTH = 1_000;

/**
 * Levels of arrays/objects in `value` (0 for a scalar), or undefined as soon as they pass `limit`. Iterative: it
 * never overflows the stack itself.
 */
export function nestingDepth(value: JsonValue, limit: number): number | undefined {
  let max = 0;
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > limit) return undefined;
    if (depth + 1 > max) max = depth + 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** True when `value` nests arrays/objects deeper than `limit`. */
export function nestsDeeperThan(value: JsonValue, limit: number): boolean {
  return nestingDepth(value, limit) === undefined;
}
