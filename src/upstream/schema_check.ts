/**
 * Structural validation of config sections: unknown keys (with did-you-mean) found by walking the schema, then
 * `@cfworker/json-schema` for types, enums and ranges, its output translated into `key.path: message` lines.
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { ConfigError, JsonSchema } from "./types.ts";
import { didYouMean } from "../core/suggest.ts";
import { displayFormat, patternOfFormat } from "./host_schema.ts";
import { describeValue, joinIndex, joinKey, jsonTypeName, unknownKeyHint } from "./messages.ts";

const STRUCTURAL_KEYWORDS = new Set([
  "properties",
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "if",
  "then",
  "else",
  "false",
  "not",
  "dependentSchemas",
]);

const TYPE_WORDS: Record<string, string> = {
  array: "a list",
  object: "an object",
  integer: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  null: "null",
};

/** A valid example for the common string formats, shown when a value does not match. */
const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-10-24T00:00:00Z",
  date: "2026-10-24",
  time: "14:30:00Z",
  duration: "P1DT2H",
  uri: "https://example.com/path",
  "uri-reference": "/path?x=1",
  url: "https://example.com/path",
  email: "name@example.com",
  hostname: "api.example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  "json-pointer": "/items/0",
  regex: "^[a-z]+$",
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Report keys an object schema with `additionalProperties: false` does not declare, recursively. */
export function unknownKeys(schema: JsonSchema, value: unknown, path: string, out: ConfigError[] = []): ConfigError[] {
  if (isPlainObject(value)) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const extra = schema.additionalProperties;
    for (const [key, v] of Object.entries(value)) {
      const p = joinKey(path, key);
      if (Object.hasOwn(props, key)) unknownKeys(props[key], v, p, out);
      else if (isPlainObject(extra)) unknownKeys(extra as JsonSchema, v, p, out);
      else if (extra === false) {
        const known = Object.keys(props).filter((k) => k !== "$schema");
        out.push({ path: p, message: `unknown key${unknownKeyHint(key, known)}` });
      }
    }
  } else if (Array.isArray(value) && isPlainObject(schema.items)) {
    value.forEach((v, i) => unknownKeys(schema.items as JsonSchema, v, joinIndex(path, i), out));
  }
  return out;
}

function decodePointer(pointer: string): string[] {
  const body = pointer.replace(/^#\/?/, "");
  if (body === "") return [];
  return body.split("/").map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

function at(root: unknown, segments: string[]): unknown {
  let cur = root;
  for (const s of segments) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[s];
  }
  return cur;
}

function instancePath(prefix: string, segments: string[], root: unknown): string {
  let path = prefix;
  let cur = root;
  for (const s of segments) {
    if (Array.isArray(cur)) {
      path = joinIndex(path, Number(s));
      cur = cur[Number(s)];
    } else {
      path = joinKey(path, s);
      cur = isPlainObject(cur) ? cur[s] : undefined;
    }
  }
  return path;
}

function typeWords(t: unknown): string {
  const list = Array.isArray(t) ? t : [t];
  return list.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(" or ");
}

function message(keyword: string, rule: unknown, schemaNode: JsonSchema, value: unknown): string | undefined {
  switch (keyword) {
    case "type":
      return `must be ${typeWords(rule)}, got ${jsonTypeName(value) === "list" ? "a list" : describeValue(value)}`;
    case "enum": {
      const hints = schemaNode["x-ptc-hints"] as Record<string, string> | undefined;
      if (typeof value === "string" && hints && Object.hasOwn(hints, value)) return hints[value];
      const options = (rule as unknown[]).map((x) => JSON.stringify(x)).join(", ");
      const hint = typeof value === "string" ? didYouMean(value, (rule as unknown[]).map(String)) : "";
      return `must be one of ${options}, got ${describeValue(value)}${hint}`;
    }
    case "const":
      return `must be ${JSON.stringify(rule)}`;
    case "minimum":
      return `must be at least ${rule}, got ${describeValue(value)}`;
    case "maximum":
      return `must be at most ${rule}, got ${describeValue(value)}`;
    case "exclusiveMinimum":
      return `must be greater than ${rule}, got ${describeValue(value)}`;
    case "exclusiveMaximum":
      return `must be less than ${rule}, got ${describeValue(value)}`;
    case "minLength":
      return rule === 1 ? "must not be empty" : `must be at least ${rule} characters long`;
    case "maxLength":
      return `must be at most ${rule} characters long`;
    case "minItems":
      return rule === 1 ? "must not be empty" : `must have at least ${rule} items`;
    case "maxItems":
      return `must have at most ${rule} items`;
    case "uniqueItems":
      return "must not contain duplicates";
    case "pattern":
      return `must match the pattern ${rule}`;
    case "multipleOf":
      return `must be a multiple of ${rule}`;
    case "minProperties":
      return rule === 1 ? "must not be empty" : `must have at least ${rule} keys`;
    case "format": {
      const pattern = patternOfFormat(rule); // a `pattern` the host matches with RE2 (core/host_schema.ts)
      if (pattern !== undefined) return `must match the pattern ${pattern}`;
      const shown = displayFormat(String(rule));
      const example = FORMAT_EXAMPLES[shown];
      return `must be a valid ${shown}${example ? ` such as ${example}` : ""}, got ${describeValue(value)}`;
    }
    default:
      return schemaNode.description ? `is invalid (${schemaNode.description})` : undefined;
  }
}

/** A validator for `schema` (draft 2020-12, all errors). Throws on a schema the library cannot compile. */
export function compileSchema(schema: JsonSchema): Validator {
  return new Validator(schema as never, "2020-12", false);
}

/**
 * Validate `value` against `schema` and return every problem as a key-path error. Unknown keys are reported by
 * `unknownKeys`; the validator's own additionalProperties failures are dropped so each problem appears once.
 */
export function checkAgainstSchema(
  schema: JsonSchema,
  value: unknown,
  path: string,
  validator?: Validator,
): ConfigError[] {
  const errors = unknownKeys(schema, value, path);
  const result = (validator ?? new Validator(schema as never, "2020-12", false)).validate(value);
  if (result.valid) return errors;
  const seen = new Set(errors.map((e) => e.path));
  for (const unit of result.errors) {
    if (STRUCTURAL_KEYWORDS.has(unit.keyword)) continue;
    const segments = decodePointer(unit.instanceLocation);
    const schemaSegs = decodePointer(unit.keywordLocation);
    const node = (at(schema, schemaSegs.slice(0, -1)) ?? {}) as JsonSchema;
    const rule = at(schema, schemaSegs);
    let p = instancePath(path, segments, value);
    let msg: string | undefined;
    if (unit.keyword === "required") {
      const missing = /"([^"]+)"/.exec(unit.error)?.[1] ?? "";
      p = joinKey(p, missing);
      const d = ((node.properties ?? {}) as Record<string, JsonSchema>)[missing]?.description;
      msg = `is required${d ? ` (${String(d).replace(/\.$/, "")})` : ""}`;
    } else {
      msg = message(unit.keyword, rule, node, at(value, segments));
    }
    if (msg === undefined || seen.has(p)) continue;
    seen.add(p);
    errors.push({ path: p, message: msg });
  }
  return errors;
}
