/**
 * The transport-neutral pagination descriptor: parsing what an operator or a document wrote (`x-ptc-pagination`, a
 * `pagination` override or tool-mapping entry) into a `Pagination`, reading items and cursors out of one page, and
 * the one-line description `doc` shows. Transports may import this module.
 *
 * Written form (snake_case, as in config files and OpenAPI extensions):
 * `{"style": "cursor", "items": "traces", "cursor_param": "cursor", "next_cursor": "next_cursor"}` or
 * `{"style": "offset", "items": "items", "offset_param": "offset", "limit_param": "limit"}`. `items` and
 * `next_cursor` are dot-separated key paths into the tool's value (`""` = the value itself).
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
): Pagination | string[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return [
      `${where}: must be an object like {"style": "cursor", "items": "…", "cursor_param": "…", "next_cursor": "…"}`,
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

/** How `doc` says a tool pages. */
export function describePagination(p: Pagination): string {
  const how = p.style === "cursor"
    ? `by cursor: each page's \`${showPath(p.nextCursor)}\` is sent back as \`${p.cursorParam}\``
    : `by offset: \`${p.offsetParam}\` advances by the items received${
      p.limitParam ? ` (page size \`${p.limitParam}\`)` : ""
    }`;
  return `${how}; items at \`${showPath(p.items)}\`. tool/pages follows it and answers ` +
    "{:items [...] :complete bool :pages n :stopped nil|reason :message ... :next cursor}";
}
