/**
 * Compact type rendering of JSON Schemas for prompts and `doc`: argument signatures (`{:org-id string :limit int?}`,
 * required first, `?` for optional, enums as `"a"|"b"`) and result shapes derived from the output schema
 * (`Result<{traces [{id string, status "ok"|"error" …}], next_cursor string?}>`).
 * @module
 */
import type { JsonSchema, ToolEntry } from "./types.ts";
import { describePagination } from "./pagination.ts";

/** Fields of one object shown in compact contexts (catalog lines). */
const MAX_FIELDS = 8;
/** Fields of one object `doc` shows: generous, so a result shape is complete in practice. */
export const DOC_MAX_FIELDS = 64;
/** Object/array nesting shown; deeper levels print as `{…}` / `[…]`. */
const MAX_DEPTH = 3;
/** Nesting `doc` shows before eliding (`{…}` / `[…]`, noted under the shape). */
export const DOC_MAX_DEPTH = 5;
const MAX_ENUM = 8;
const MAX_DESCRIPTION = 160;

type Schema = JsonSchema | boolean | undefined;

function isObj(v: unknown): v is JsonSchema {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function literal(v: unknown): string {
  return v === null ? "nil" : typeof v === "string" ? JSON.stringify(v) : String(v);
}

function scalarName(t: string): string {
  return ({ string: "string", integer: "int", number: "float", boolean: "bool", null: "nil", array: "list" } as Record<
    string,
    string
  >)[t] ?? (t === "object" ? "map" : "any");
}

function props(s: JsonSchema): [Record<string, Schema>, Set<string>] {
  const p: Record<string, Schema> = {};
  const req = new Set<string>();
  const add = (x: JsonSchema) => {
    if (isObj(x.properties)) Object.assign(p, x.properties);
    if (Array.isArray(x.required)) { for (const r of x.required) req.add(String(r)); }
  };
  add(s);
  if (Array.isArray(s.allOf)) { for (const part of s.allOf) if (isObj(part)) add(part); }
  return [p, req];
}

/** How much of a shape to print. */
export interface ShapeBound {
  fields: number;
  depth: number;
}

const COMPACT: ShapeBound = { fields: MAX_FIELDS, depth: MAX_DEPTH };
const DOC: ShapeBound = { fields: DOC_MAX_FIELDS, depth: DOC_MAX_DEPTH };

/** The compact type of a schema, e.g. `string`, `int`, `[{id string …}]`, `"a"|"b"`, `map`, `any`. */
export function typeOf(schema: Schema, depth = 0, bound: ShapeBound = COMPACT): string {
  if (!isObj(schema)) return schema === false ? "never" : "any";
  if (Array.isArray(schema.enum)) {
    const vals = schema.enum.slice(0, MAX_ENUM).map(literal);
    return vals.join("|") + (schema.enum.length > MAX_ENUM ? "|…" : "");
  }
  if ("const" in schema) return literal(schema.const);
  const alts = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alts) return [...new Set(alts.map((a) => typeOf(a as Schema, depth, bound)))].join("|");
  const t = schema.type;
  if (Array.isArray(t)) {
    return [...new Set(t.map((x) => typeOf({ ...schema, type: String(x) }, depth, bound)))].join("|");
  }
  const [p] = props(schema);
  if (t === "array" || (t === undefined && schema.items !== undefined)) {
    if (depth >= bound.depth) return "[…]";
    return `[${typeOf(schema.items as Schema, depth + 1, bound)}]`;
  }
  if (t === "object" || (t === undefined && Object.keys(p).length > 0)) {
    if (Object.keys(p).length === 0) return "map";
    if (depth >= bound.depth) return "{…}";
    return shapeOf(schema, depth + 1, bound);
  }
  if (typeof t === "string") return scalarName(t);
  return "any";
}

/** Result-style object shape: `{a string, b int?, …}` in declaration order, `?` marking optional fields. */
export function shapeOf(schema: JsonSchema, depth = 0, bound: ShapeBound = COMPACT): string {
  const [p, req] = props(schema);
  const keys = Object.keys(p);
  const fields = keys.slice(0, bound.fields).map((k) => `${k} ${typeOf(p[k], depth, bound)}${req.has(k) ? "" : "?"}`);
  return `{${fields.join(", ")}${keys.length > bound.fields ? " …" : ""}}`;
}

/** `Result<T>` for a tool's output schema (`Result<any>` when the tool declares none); `doc` uses the doc bound. */
export function resultType(entry: ToolEntry, bound: ShapeBound = COMPACT): string {
  return `Result<${entry.outputSchema ? typeOf(entry.outputSchema, 0, bound) : "any"}>`;
}

/** One argument of a tool, in signature order. */
export interface ArgInfo {
  name: string;
  keyword: string;
  type: string;
  required: boolean;
  schema: JsonSchema;
}

/** Arguments of a tool: required first (declaration order), then optional (sorted). */
export function argsOf(entry: ToolEntry): ArgInfo[] {
  const [p, req] = props(entry.inputSchema ?? {});
  const all = Object.keys(p).map((name) => ({
    name,
    keyword: `:${name.replace(/_/g, "-")}`,
    type: typeOf(p[name]),
    required: req.has(name),
    schema: isObj(p[name]) ? p[name] as JsonSchema : {},
  }));
  return [...all.filter((a) => a.required), ...all.filter((a) => !a.required).sort((a, b) => a.name < b.name ? -1 : 1)];
}

/** `{:org-id string :limit int?}` (or `{}` for a tool without arguments). */
export function argSignature(entry: ToolEntry): string {
  return `{${argsOf(entry).map((a) => `${a.keyword} ${a.type}${a.required ? "" : "?"}`).join(" ")}}`;
}

function range(lo: unknown, hi: unknown, unit = ""): string | undefined {
  if (typeof lo === "number" && typeof hi === "number") return `${unit}${lo}..${hi}`;
  if (typeof lo === "number") return `${unit}≥${lo}`;
  if (typeof hi === "number") return `${unit}≤${hi}`;
  return undefined;
}

/** Constraints, default and description of one argument, as one short phrase. */
export function argDetail(a: ArgInfo): string {
  const s = a.schema;
  const parts = [
    range(s.minimum, s.maximum),
    range(s.minLength, s.maxLength, "length "),
    range(s.minItems, s.maxItems, "items "),
    typeof s.format === "string" ? `format ${s.format}` : undefined,
    typeof s.pattern === "string" ? `pattern ${s.pattern}` : undefined,
    "default" in s ? `default ${JSON.stringify(s.default)}` : undefined,
  ].filter((x): x is string => x !== undefined);
  const desc = typeof s.description === "string" ? oneLine(s.description, MAX_DESCRIPTION) : "";
  return [parts.join(", "), desc].filter((x) => x !== "").join(". ");
}

/**
 * Collapse whitespace and cut to `max` characters. A paragraph break after text that does not end a sentence becomes
 * ". " (an OpenAPI summary followed by its description must not run together).
 */
export function oneLine(text: string, max: number): string {
  const t = text.trim().replace(/([^.!?:;])\s*\n\s*\n\s*/g, "$1. ").replace(/\s+/g, " ");
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function placeholder(a: ArgInfo): string {
  const s = a.schema;
  if (Array.isArray(s.enum) && s.enum.length > 0) return literal(s.enum[0]);
  if ("default" in s) return literal(s.default);
  switch (s.type) {
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? String(s.minimum) : "1";
    case "boolean":
      return "true";
    case "array":
      return "[]";
    case "object":
      return "{}";
    default:
      return '"…"';
  }
}

/** The `(doc 'srv/tool)` text: name, description, argument signature and details, result shape, a call example. */
export function renderDoc(server: string, entry: ToolEntry): string {
  const args = argsOf(entry);
  const lines = [`${server}/${entry.name}`];
  if (entry.description) lines.push(oneLine(entry.description, 1000));
  lines.push(`Args: ${argSignature(entry)}`);
  for (const a of args) {
    const detail = argDetail(a);
    lines.push(`  ${a.keyword} ${a.type}${a.required ? "" : "?"}${detail ? ` — ${detail}` : ""}`);
  }
  const returns = resultType(entry, DOC);
  lines.push(`Returns: ${returns}`);
  if (returns.includes("{…}") || returns.includes("[…]")) {
    lines.push(
      `  ({…} / […] = nested deeper than ${DOC_MAX_DEPTH} levels; (meta '${server}/${entry.name}) has the schema)`,
    );
  } else if (returns.includes(" …}")) {
    lines.push(`  (… = more than ${DOC_MAX_FIELDS} fields; (meta '${server}/${entry.name}) has the schema)`);
  }
  const req = args.filter((a) => a.required).map((a) => `${a.keyword} ${placeholder(a)}`).join(" ");
  const argText = req ? ` {${req}}` : "";
  lines.push(`Call: (tool/call '${server}/${entry.name}${argText})`);
  if (entry.pagination) {
    lines.push(`Pages: ${describePagination(entry.pagination)}`);
    lines.push(`All pages: (tool/pages '${server}/${entry.name}${argText || " {}"} {:max-pages 10})`);
  }
  const notes = entry._ptc?.notes;
  if (typeof notes === "string" && notes.trim() !== "") lines.push(`Notes: ${oneLine(notes, 1000)}`);
  if (entry.effect === "write") lines.push("Effect: write (changes the service; never retried automatically)");
  else if (entry.effect === "read") lines.push("Effect: read");
  return lines.join("\n");
}
