/**
 * A structural check of a client-supplied JSON Schema (`output_schema`): the validator library accepts malformed
 * schemas silently (`{"type": 12}` then rejects every value), so the common keywords are checked for the right
 * shape first and a bad schema is reported as an argument error naming the JSON pointer of the bad keyword.
 * @module
 */

const TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);
const SCHEMA_KEYS = ["items", "not", "additionalProperties", "contains", "propertyNames", "if", "then", "else"];
const SCHEMA_LIST_KEYS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAP_KEYS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const NUMBER_KEYS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const COUNT_KEYS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isSchema = (v: unknown) => typeof v === "boolean" || isObj(v);

/** The first structural problem of `schema` (e.g. `/properties/a/type: must be a type name or a list of them`). */
export function schemaProblem(schema: unknown, at = ""): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isObj(schema)) return `${at || "/"}: a schema must be an object or a boolean`;
  const t = schema.type;
  if (t !== undefined) {
    const list = Array.isArray(t) ? t : [t];
    if (list.length === 0 || !list.every((x) => typeof x === "string" && TYPES.has(x))) {
      return `${at}/type: must be one of ${[...TYPES].join(", ")} (or a list of them)`;
    }
  }
  if (schema.required !== undefined) {
    const r = schema.required;
    if (!Array.isArray(r) || !r.every((x) => typeof x === "string")) return `${at}/required: must be a list of strings`;
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${at}/enum: must be a list`;
  for (const k of NUMBER_KEYS) {
    if (schema[k] !== undefined && typeof schema[k] !== "number") return `${at}/${k}: must be a number`;
  }
  for (const k of COUNT_KEYS) {
    const v = schema[k];
    if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
      return `${at}/${k}: must be a non-negative integer`;
    }
  }
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== "string") return `${at}/pattern: must be a string`;
    try {
      new RegExp(schema.pattern, "u");
    } catch {
      return `${at}/pattern: not a valid regular expression`;
    }
  }
  for (const k of SCHEMA_KEYS) {
    if (schema[k] === undefined) continue;
    if (!isSchema(schema[k])) return `${at}/${k}: must be a schema (object or boolean)`;
    const p = schemaProblem(schema[k], `${at}/${k}`);
    if (p) return p;
  }
  for (const k of SCHEMA_LIST_KEYS) {
    const v = schema[k];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0) return `${at}/${k}: must be a non-empty list of schemas`;
    for (let i = 0; i < v.length; i++) {
      const p = schemaProblem(v[i], `${at}/${k}/${i}`);
      if (p) return p;
    }
  }
  for (const k of SCHEMA_MAP_KEYS) {
    const v = schema[k];
    if (v === undefined) continue;
    if (!isObj(v)) return `${at}/${k}: must be an object mapping names to schemas`;
    for (const [name, sub] of Object.entries(v)) {
      const p = schemaProblem(sub, `${at}/${k}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      if (p) return p;
    }
  }
  return undefined;
}
