/**
 * The transport-neutral pagination descriptor: parsing what an operator or a document wrote (`x-ptc-pagination`, a
 * `pagination` override or tool-mapping entry) into a `Pagination`, reading items and cursors out of one page, and
 * the one-line description `doc` shows. Transports may import this module.
 *
 * Written form (snake_case, as in config files and OpenAPI extensions):
 * `{"style": "cursor", "items": "traces", "cursor_param": "cursor", "next_cursor": "next_cursor"}` or
 * `{"style": "offset", "items": "items", "offset_param": "offset", "limit_param": "limit"}`. `items` and
 * `next_cursor` are dot-separated key paths into the tool's value (`""` = the value itself). `false` declares that the
 * tool does not page (nothing is inferred for it).
 *
 * Undeclared, {@link inferPagination} reads cursor paging off a read tool's schemas, conservatively: exactly one
 * cursor-like string argument (`cursor`, `page_token`, …) and a declared result object with exactly one
 * next-cursor-like string field (`next_cursor`, `nextPageToken`, …) and exactly one list field (the items).
 * @module
 */
import type { JsonValue } from "../core/json.ts";
import type { JsonSchema, Pagination } from "./types.ts";

const CURSOR_KEYS = ["style", "items", "cursor_param", "next_cursor"];
const OFFSET_KEYS = ["style", "items", "offset_param", "limit_param"];

function path(text: string): string[] {
  return text === "" ? [] : text.split(".");
}

function notAParameter(where: string, key: string, name: string, params: readonly string[]): string {
  return `${where}.${key}: "${name}" is not a parameter of this tool (parameters: ${params.join(", ") || "none"})`;
}

/**
 * JSON Schema of the written descriptor, for the config's published schema: the one shape {@link parsePagination}
 * accepts, wherever a config key takes it (an OpenAPI `operation_overrides` entry, an MCP tool mapping).
 */
export function paginationSchema(description: string): JsonSchema {
  const param = (description: string) => ({ type: "string", minLength: 1, description });
  return {
    description,
    oneOf: [
      { const: false, description: "The tool does not page: tool/pages refuses it and nothing is inferred." },
      {
        type: "object",
        properties: {
          style: { const: "cursor" },
          items: { type: "string", description: 'Key path of the page\'s items ("" = the value itself).' },
          cursor_param: param("The argument the next cursor is sent as."),
          next_cursor: { type: "string", description: "Key path of the next cursor in a page (absent/null: last)." },
        },
        required: ["style", "items", "cursor_param", "next_cursor"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: {
          style: { const: "offset" },
          items: { type: "string", description: 'Key path of the page\'s items ("" = the value itself).' },
          offset_param: param("The argument set to the items received so far."),
          limit_param: param("The page-size argument (a shorter page is the last)."),
        },
        required: ["style", "items", "offset_param"],
        additionalProperties: false,
      },
    ],
  };
}

/**
 * Parse a written descriptor. `params` are the tool's argument names (the cursor/offset/limit parameters must be
 * among them); `undefined` when they are not known yet (an MCP tool mapping is parsed before the server lists its
 * tools: check them later with {@link paginationParamProblems}). Returns the descriptor or one problem per line, each
 * naming the key (prefixed by `where`).
 */
export function parsePagination(
  raw: unknown,
  where: string,
  params: readonly string[] | undefined,
): Pagination | false | string[] {
  if (raw === false) return false;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return [
      `${where}: must be false or an object like {"style": "cursor", "items": "…", "cursor_param": "…", ` +
      `"next_cursor": "…"}`,
    ];
  }
  const r = raw as Record<string, unknown>;
  if (r.style !== "cursor" && r.style !== "offset") {
    return [`${where}.style: must be "cursor" or "offset", got ${JSON.stringify(r.style) ?? "nothing"}`];
  }
  const allowed = r.style === "cursor" ? CURSOR_KEYS : OFFSET_KEYS;
  const problems: string[] = [];
  for (const k of Object.keys(r)) {
    if (!allowed.includes(k)) {
      problems.push(`${where}.${k}: not a key of ${r.style} pagination (${allowed.join(", ")})`);
    }
  }
  const str = (key: string, required: boolean, param: boolean): string | undefined => {
    const v = r[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== "string" || (param && v === "")) {
      problems.push(`${where}.${key}: must be a ${param ? "parameter name" : 'key path like "data.items"'}`);
      return undefined;
    }
    if (param && params !== undefined && !params.includes(v)) problems.push(notAParameter(where, key, v, params));
    return v;
  };
  const items = str("items", true, false);
  if (r.style === "cursor") {
    const cursorParam = str("cursor_param", true, true);
    const next = str("next_cursor", true, false);
    if (problems.length || items === undefined || cursorParam === undefined || next === undefined) return problems;
    return { style: "cursor", items: path(items), cursorParam, nextCursor: path(next) };
  }
  const offsetParam = str("offset_param", true, true);
  const limitParam = str("limit_param", false, true);
  if (problems.length || items === undefined || offsetParam === undefined) return problems;
  return { style: "offset", items: path(items), offsetParam, ...(limitParam ? { limitParam } : {}) };
}

/** One problem per parameter a parsed descriptor names that is not among the tool's `params` (`where` as above). */
export function paginationParamProblems(p: Pagination, where: string, params: readonly string[]): string[] {
  const named: [string, string | undefined][] = p.style === "cursor"
    ? [["cursor_param", p.cursorParam]]
    : [["offset_param", p.offsetParam], ["limit_param", p.limitParam]];
  return named.filter(([, name]) => name !== undefined && !params.includes(name))
    .map(([key, name]) => notAParameter(where, key, name!, params));
}

/** The value at a key path, or undefined when a step is missing or not an object. */
export function atPath(value: JsonValue, keys: readonly string[]): JsonValue | undefined {
  let v: JsonValue | undefined = value;
  for (const k of keys) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, JsonValue>)[k];
  }
  return v;
}

/** A key path as written (`(the value)` for the empty path). */
export function showPath(keys: readonly string[]): string {
  return keys.length ? keys.join(".") : "(the value)";
}

/** How `doc` says a tool pages (an inferred descriptor says so first: "inferred from cursor/next_cursor"). */
export function describePagination(p: Pagination): string {
  const inferred = p.inferred && p.style === "cursor"
    ? `inferred from ${p.cursorParam}/${showPath(p.nextCursor)} (the operator declared none; \`pagination: false\` ` +
      "turns it off) — "
    : "";
  const how = p.style === "cursor"
    ? `by cursor: each page's \`${showPath(p.nextCursor)}\` is sent back as \`${p.cursorParam}\``
    : `by offset: \`${p.offsetParam}\` advances by the items received${
      p.limitParam ? ` (page size \`${p.limitParam}\`)` : ""
    }`;
  return `${inferred}${how}; items at \`${showPath(p.items)}\`. tool/pages follows it and answers ` +
    "{:items [...] :complete bool :pages n :stopped nil|reason :message ... :next cursor}";
}

/** Argument names that carry a page cursor, as services spell them. */
const CURSOR_ARGS = new Set([
  "cursor",
  "page_cursor",
  "pageCursor",
  "page_token",
  "pageToken",
  "continuation_token",
  "continuationToken",
]);
/** Result fields that carry the next page's cursor. */
const NEXT_CURSOR_FIELDS = new Set([
  "next_cursor",
  "nextCursor",
  "next_page_cursor",
  "nextPageCursor",
  "next_page_token",
  "nextPageToken",
  "continuation_token",
  "continuationToken",
]);

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Alternatives (`anyOf`/`oneOf`) looked into; a schema nested deeper is not a plain cursor or list (no inference). */
const MAX_ALTERNATIVE_DEPTH = 3;

/**
 * The schema's types as a set (`type: ["string", "null"]`, `anyOf: [{type: string}, {type: null}]`), looking at most
 * {@link MAX_ALTERNATIVE_DEPTH} levels of alternatives deep (an upstream's schema may nest them without end).
 */
function types(schema: unknown, depth = 0): Set<string> {
  if (!isObj(schema)) return new Set();
  const out = new Set<string>();
  const t = schema.type;
  if (typeof t === "string") out.add(t);
  if (Array.isArray(t)) { for (const x of t) if (typeof x === "string") out.add(x); }
  if (depth >= MAX_ALTERNATIVE_DEPTH) return out;
  for (const key of ["anyOf", "oneOf"]) {
    const alts = schema[key];
    if (Array.isArray(alts)) { for (const a of alts) for (const x of types(a, depth + 1)) out.add(x); }
  }
  return out;
}

/** A string (or a string that may be null), and nothing else. */
function isCursorType(schema: unknown): boolean {
  const t = types(schema);
  return t.has("string") && [...t].every((x) => x === "string" || x === "null");
}

/**
 * Cursor paging read off an undeclared read tool's schemas, or undefined when anything is ambiguous: the input must
 * have exactly one cursor-like string argument, and the declared output must be an object with exactly one
 * next-cursor-like string field and exactly one list field. The answer is marked `inferred`.
 */
export function inferPagination(
  entry: { inputSchema?: JsonSchema; outputSchema?: JsonSchema; effect?: string },
): Pagination | undefined {
  if (entry.effect !== "read") return undefined;
  const input = isObj(entry.inputSchema?.properties) ? entry.inputSchema.properties : {};
  const cursorArgs = Object.keys(input).filter((k) => CURSOR_ARGS.has(k) && isCursorType(input[k]));
  if (cursorArgs.length !== 1) return undefined;
  const output = entry.outputSchema;
  if (!output || !types(output).has("object") || !isObj(output.properties)) return undefined;
  const fields = output.properties;
  const next = Object.keys(fields).filter((k) => NEXT_CURSOR_FIELDS.has(k) && isCursorType(fields[k]));
  const lists = Object.keys(fields).filter((k) => types(fields[k]).has("array"));
  if (next.length !== 1 || lists.length !== 1) return undefined;
  return { style: "cursor", items: [lists[0]], cursorParam: cursorArgs[0], nextCursor: [next[0]], inferred: true };
}
