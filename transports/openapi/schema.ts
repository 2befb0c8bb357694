/**
 * Input and output JSON Schemas of compiled OpenAPI tools: OpenAPI 3.0 schema dialect normalized to JSON Schema
 * 2020-12, parameter constraints preserved, defaults applied, and the 2xx JSON response schema chosen.
 * @module
 */
import type { JsonSchema } from "../../src/upstream/types.ts";
import type { RefResolver } from "./refs.ts";

/** Longest parameter description kept in an input schema. */
export const MAX_PARAM_DESCRIPTION = 300;

/**
 * A compiled, supported argument: a path or query parameter, a header parameter of a write (`Idempotency-Key`, named
 * in lowercase), or a property of the JSON request body.
 */
export interface CompiledParam {
  name: string;
  in: "path" | "query" | "header" | "body";
  required: boolean;
  /** Self-contained JSON Schema (refs inlined, 3.0 dialect normalized). */
  schema: JsonSchema;
  description?: string;
  /** Query serialization: `form` (default) with explode (default true), or `spaceDelimited` / `pipeDelimited`. */
  style: string;
  explode: boolean;
}

/**
 * OpenAPI 3.0 → JSON Schema 2020-12 for one schema object: `nullable: true` widens `type` with `"null"`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become the numeric form. Returns a new object; never mutates.
 */
export function openapi30Transform(node: Record<string, unknown>): Record<string, unknown> {
  if (
    !("nullable" in node) && typeof node.exclusiveMinimum !== "boolean" && typeof node.exclusiveMaximum !== "boolean"
  ) {
    return node;
  }
  const out = { ...node };
  if (out.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
  return out;
}

/** The schema kinds a query or path parameter may have. */
export type ParamShape = "scalar" | "array" | "object" | "unknown";

/** Classify a parameter schema: scalar, array of scalars, object, or unknown (no type information). */
export function paramShape(schema: JsonSchema): ParamShape {
  const types = typeList(schema);
  if (types.includes("object")) return "object";
  if (types.includes("array")) {
    const items = schema.items as JsonSchema | undefined;
    if (items && typeof items === "object" && !Array.isArray(items)) {
      const inner = typeList(items);
      if (inner.includes("object") || inner.includes("array")) return "object";
    }
    return "array";
  }
  if (types.length > 0) return "scalar";
  if (schema.properties) return "object";
  return "unknown";
}

/** Declared types of a schema (`type` string or list; `oneOf`/`anyOf` branches' types merged). */
export function typeList(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  const out: string[] = [];
  for (const key of ["oneOf", "anyOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      for (const b of branches) if (b && typeof b === "object") out.push(...typeList(b as JsonSchema));
    }
  }
  return [...new Set(out)];
}

/**
 * The tool's input schema: one property per argument (its schema with constraints, description and default),
 * path parameters, `required: true` parameters and the required properties of a required body required unless a
 * default argument covers them.
 */
export function buildInputSchema(params: CompiledParam[], defaultArgs: Record<string, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    const prop: JsonSchema = { ...p.schema };
    const untyped = typeList(prop).length === 0 && !prop.enum && !prop.const && !prop.oneOf && !prop.anyOf;
    // A parameter travels as text; a body property without a type takes any JSON value.
    if (untyped && p.in !== "body") prop.type = "string";
    if (p.description && typeof prop.description !== "string") prop.description = p.description;
    if (Object.hasOwn(defaultArgs, p.name)) prop.default = defaultArgs[p.name];
    properties[p.name] = prop;
    if (p.required && !Object.hasOwn(defaultArgs, p.name) && !required.includes(p.name)) required.push(p.name);
  }
  const schema: JsonSchema = { type: "object", properties };
  if (required.length) schema.required = required;
  return schema;
}

/** How an operation answers: a JSON schema, text (`text/*`), `null` (204 / no content), or why it is unsupported. */
export type OutputChoice =
  | { kind: "json"; schema: JsonSchema | undefined; status: string; mediaType: string }
  | { kind: "text"; status: string; mediaType: string }
  | { kind: "none" }
  | { kind: "unsupported"; reason: string };

/**
 * Choose the success response: 2xx keys in order (`200` before `201` … before `2XX`), falling back to `default`
 * when there is no 2xx at all. A JSON media type (`application/json`, `*+json`, `*\/*`) wins; else a `text/*` one
 * (`text/csv`, `text/plain`: the program gets the text as a string); only empty 2xx responses (204, no `content`)
 * give `none`.
 */
export function chooseOutput(responses: unknown, resolver: RefResolver, where: string): OutputChoice {
  if (responses === null || typeof responses !== "object" || Array.isArray(responses)) {
    return { kind: "unsupported", reason: "has no responses object" };
  }
  const table = responses as Record<string, unknown>;
  let keys = Object.keys(table).filter((k) => /^2(\d\d|XX)$/i.test(k)).sort((a, b) => rank(a) - rank(b));
  if (keys.length === 0 && "default" in table) keys = ["default"];
  if (keys.length === 0) return { kind: "unsupported", reason: "has no 2xx response" };
  let sawEmpty = false;
  let text: OutputChoice | undefined;
  const others: string[] = [];
  for (const status of keys) {
    const response = resolver.deref(table[status], `${where}.responses.${status}`);
    if (response === null || typeof response !== "object") continue;
    const content = (response as { content?: unknown }).content;
    if (content === undefined || content === null || typeof content !== "object" || Object.keys(content).length === 0) {
      sawEmpty = true;
      continue;
    }
    const media = Object.keys(content).sort();
    const json = media.find((m) => /json/i.test(m)) ?? media.find((m) => m.trim() === "*/*");
    if (json === undefined) {
      const textType = media.find((m) => /^text\/[a-z0-9.+-]+$/i.test(m.split(";")[0].trim()));
      if (textType !== undefined && text === undefined) {
        text = { kind: "text", status, mediaType: textType.split(";")[0].trim() };
      } else if (textType === undefined) others.push(...media);
      continue;
    }
    const mediaObj = (content as Record<string, unknown>)[json] as { schema?: unknown } | null;
    const raw = mediaObj && typeof mediaObj === "object" ? mediaObj.schema : undefined;
    const schema = raw === undefined ? undefined : resolver.inlineSchema(raw, `${where}.responses.${status}`);
    return { kind: "json", schema: schema as JsonSchema | undefined, status, mediaType: json };
  }
  if (text !== undefined) return text;
  if (sawEmpty) return { kind: "none" };
  const list = [...new Set(others)].slice(0, 3).join(", ");
  return {
    kind: "unsupported",
    reason: `has no JSON or text 2xx response (only ${list}); only JSON and text/* responses are supported`,
  };
}

function rank(status: string): number {
  if (/^2xx$/i.test(status)) return 299.5;
  return Number(status);
}
