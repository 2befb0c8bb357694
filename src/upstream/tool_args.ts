/**
 * Checking one `tool/call`'s arguments against the tool's input schema before anything is sent: keys renamed to the
 * declared parameter names, keys the schema does not declare reported with a did-you-mean and the accepted names,
 * then `@cfworker/json-schema` for types, enums, ranges and formats. Every problem is one `name: problem` string.
 * @module
 */
import type { Validator } from "@cfworker/json-schema";
import type { JsonObject } from "../core/json.ts";
import type { JsonSchema, ToolEntry } from "./types.ts";
import { checkAgainstSchema, compileSchema } from "./schema_check.ts";
import { didYouMean } from "../core/suggest.ts";
import { formatConfigError, joinKey } from "./messages.ts";
import { hostSchema } from "./host_schema.ts";
import { linearPattern } from "./linear_pattern.ts";

/** The entry's input schema as the host checks it (patterns matched by RE2, see host_schema.ts) and its validator. */
const validators = new WeakMap<ToolEntry, { schema: JsonSchema; validator: Validator | null }>();

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Rename argument keys to the tool's declared parameter names: an exact match first, then the one declared name that
 * equals the key with `-` and `_` treated alike. The language turns every `-` of a keyword into `_`, so a parameter
 * really named `x-id` or `page-size_max` stays reachable as `:x-id` / `:page-size_max`. A key that folds onto several
 * declared names (`a-b` and `a_b` both declared) is left alone and reported as unknown with its candidates.
 */
export function matchArgNames(args: JsonObject, schema: JsonSchema): JsonObject {
  const props = isObject(schema.properties) ? schema.properties : {};
  const fold = (s: string) => s.replaceAll("-", "_");
  let byFold: Map<string, string[]> | undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(args)) {
    if (Object.hasOwn(props, k)) {
      out[k] = v;
      continue;
    }
    if (byFold === undefined) {
      byFold = new Map();
      for (const name of Object.keys(props)) byFold.set(fold(name), [...(byFold.get(fold(name)) ?? []), name]);
    }
    const candidates = byFold.get(fold(k)) ?? [];
    out[candidates.length === 1 && !Object.hasOwn(args, candidates[0]) ? candidates[0] : k] = v;
  }
  return out;
}

/**
 * The argument names a schema declares, or `undefined` when it accepts any key: no `properties` anywhere at the top
 * level, or `additionalProperties` explicitly `true` or a schema. Properties of top-level `allOf`/`anyOf`/`oneOf`
 * members count as declared.
 */
export function declaredArgNames(schema: JsonSchema): string[] | undefined {
  const parts = [
    schema,
    ...["allOf", "anyOf", "oneOf"].flatMap((k) => {
      const list = schema[k];
      return Array.isArray(list) ? list.filter(isObject) as JsonSchema[] : [];
    }),
  ];
  if (!parts.some((p) => isObject(p.properties))) return undefined;
  if (parts.some((p) => p.additionalProperties === true || isObject(p.additionalProperties))) return undefined;
  const names = new Set<string>();
  for (const p of parts) if (isObject(p.properties)) { for (const k of Object.keys(p.properties)) names.add(k); }
  return [...names];
}

/** True when `key` matches one of the schema's `patternProperties` (in linear time, never V8's backtracking). */
function matchesPattern(schema: JsonSchema, key: string): boolean {
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  return patterns.some((p) => {
    const linear = linearPattern(p);
    return linear.ok ? linear.test(key) : true; // a pattern RE2 cannot match: the upstream judges the key
  });
}

/**
 * Keys of `args` (already renamed by {@link matchArgNames}) the schema does not declare, one problem each with a
 * did-you-mean, then one `accepted arguments: …` line. Empty when the schema accepts extra keys.
 */
export function unknownArguments(schema: JsonSchema, args: JsonObject): string[] {
  const declared = declaredArgNames(schema);
  if (!declared) return [];
  const unknown = Object.keys(args).filter((k) => !declared.includes(k) && !matchesPattern(schema, k));
  if (unknown.length === 0) return [];
  const problems = unknown.map((k) => `${joinKey("", k)}: unknown argument${didYouMean(k, declared)}`);
  problems.push(declared.length ? `accepted arguments: ${declared.join(", ")}` : "this tool takes no arguments");
  return problems;
}

function validatorFor(entry: ToolEntry): { schema: JsonSchema; validator: Validator | null } {
  let v = validators.get(entry);
  if (v === undefined) {
    const schema = hostSchema(entry.inputSchema ?? {}).schema;
    let validator: Validator | null;
    try {
      validator = compileSchema(schema);
    } catch {
      validator = null; // an upstream schema the validator cannot compile: the upstream validates instead
    }
    v = { schema, validator };
    validators.set(entry, v);
  }
  return v;
}

/** Problems with `args` (renamed by {@link matchArgNames}) against the tool's input schema, one string each. */
export function argumentProblems(entry: ToolEntry, args: JsonObject): string[] {
  const { schema, validator } = validatorFor(entry);
  // the original schema: its patternProperties (matched with RE2) say which extra keys are accepted
  const unknown = unknownArguments(entry.inputSchema ?? {}, args);
  const reported = new Set(Object.keys(args).map((k) => joinKey("", k)));
  const rest = validator
    ? checkAgainstSchema(schema, args, "", validator)
      .filter((e) => !(unknown.length > 0 && reported.has(e.path) && e.message.startsWith("unknown key")))
      .map((e) => formatConfigError(e).replace(/^([^:]+): unknown key/, "$1: unknown argument"))
    : [];
  return [...unknown.slice(0, -1), ...rest, ...unknown.slice(-1)];
}
