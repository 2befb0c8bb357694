/**
 * Argument handling for one OpenAPI call: match the program's keys to the declared parameter names (exact first,
 * then the `-`/`_` variant, so `page-size` and `page_size` both reach either spelling), apply default arguments,
 * drop `null`s (nil means "omit"), and report unknown keys.
 * @module
 */
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import type { CompiledParam } from "./schema.ts";

/** The parameter a key names: exact match first, then the `-`↔`_` variant. */
export function findParam(params: readonly CompiledParam[], key: string): CompiledParam | undefined {
  const exact = params.find((p) => p.name === key);
  if (exact) return exact;
  const fold = (s: string) => s.replace(/-/g, "_");
  const folded = fold(key);
  return params.find((p) => fold(p.name) === folded);
}

/** Arguments keyed by real parameter names, or the problems found. */
export type MappedArgs = { ok: true; values: Record<string, JsonValue> } | { ok: false; problems: string[] };

/**
 * Map call arguments onto parameters: defaults first, call arguments override them; `null` removes a value.
 * Unknown keys and two keys naming the same parameter are problems (programmer faults).
 */
export function mapArgs(params: readonly CompiledParam[], defaults: JsonObject, args: JsonObject): MappedArgs {
  const values: Record<string, JsonValue> = { ...defaults };
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(args)) {
    const param = findParam(params, key);
    if (!param) {
      const known = params.map((p) => p.name).join(", ") || "none";
      problems.push(`unknown argument "${key}" (arguments: ${known})`);
      continue;
    }
    const other = seen.get(param.name);
    if (other !== undefined) {
      problems.push(`arguments "${other}" and "${key}" both name parameter "${param.name}"`);
      continue;
    }
    seen.set(param.name, key);
    if (value === null) delete values[param.name];
    else values[param.name] = value;
  }
  return problems.length ? { ok: false, problems } : { ok: true, values };
}
