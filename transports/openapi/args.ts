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

/**
 * Two arguments one program key would reach: names equal with `-` and `_` treated alike (the language turns every
 * `-` of a keyword into `_`). Between two parameters an exact duplicate is reported above; a body property that
 * clashes with a parameter is an error naming both.
 */
export function argumentClashes(params: readonly CompiledParam[], where: string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, CompiledParam>();
  const label = (p: CompiledParam) =>
    p.in === "body" ? `request body property "${p.name}"` : `${p.in} parameter "${p.name}"`;
  for (const p of params) {
    const key = p.name.replaceAll("-", "_");
    const other = seen.get(key);
    const located = [p.in, other?.in].some((where) => where === "body" || where === "header");
    if (other && other.in !== p.in && located) {
      problems.push(
        `${where}: ${label(p)} and ${label(other)} would be the same argument; ptc cannot tell them apart`,
      );
    } else if (!other) seen.set(key, p);
  }
  return problems;
}

/**
 * Where a write's arguments go when they are not in the URL, for provenance (`meta`, introspection's curl template):
 * `body` (media type and argument names) and `headerArgs`. Nothing for an operation that sends neither.
 */
export function sentOutsideTheUrl(params: CompiledParam[], mediaType: string | undefined): JsonObject {
  const headers = params.filter((p) => p.in === "header").map((p) => p.name);
  return {
    ...(mediaType ? { body: { mediaType, args: params.filter((p) => p.in === "body").map((p) => p.name) } } : {}),
    ...(headers.length ? { headerArgs: headers } : {}),
  };
}
