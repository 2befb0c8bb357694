/**
 * From an MCP server's `tools/list` to the tool entries ptc exposes: kebab-case names (the server's spelling stays in
 * `_ptc.upstreamName`), collisions reported, annotations carried, the operator's `tools` mapping applied. Every
 * (mapped) tool is listed: what is installed under the write gate is the runtime's decision.
 *
 * Shared by the `mcp_stdio` and `mcp_http` transports (this folder is a library, not a transport).
 * @module
 */
import type { JsonSchema, ToolAnnotations, ToolEntry } from "../../src/upstream/types.ts";
import { fnv1a, hasLetters, kebabCase, shortenName } from "../../src/upstream/tool_names.ts";
import { mappedPaginationProblems, type ToolMap } from "./tool_map.ts";
import { skippedPatternWarnings } from "../../src/upstream/host_schema.ts";
import { didYouMean } from "../../src/core/suggest.ts";

export { MAX_TOOL_NAME } from "../../src/upstream/tool_names.ts";

/** A tool as an MCP server lists it (the fields ptc reads). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** Tools that share one exposed name. The first in server order is exposed; the others are hidden. */
export interface NameCollision {
  name: string;
  exposed: string;
  hidden: string[];
}

/** The exposure of one server's tool list. */
export interface ExposedTools {
  entries: ToolEntry[];
  /** Exposed name → the server's tool (with its spelling and schemas). */
  byName: Map<string, McpTool>;
  collisions: NameCollision[];
  /** Server names that yield no usable exposed name (e.g. only punctuation). */
  unnamed: string[];
  /** Tools the operator's mapping names that the server does not list: each key quoted, with a suggestion. */
  missing: string[];
  /** Tools the server lists that the operator's mapping leaves out (not installed). */
  unmapped: string[];
  /** Mapping problems only the server's tool list reveals (a `pagination` parameter the tool does not declare). */
  problems: string[];
}

/**
 * Kebab-case an MCP tool name: `get_user` → `get-user`, `listItems` → `list-items`, `HTTPStatus` → `http-status`,
 * `fs.read` → `fs-read`. Any character other than ASCII letters and digits separates words. The result matches
 * `^[a-z0-9]+(-[a-z0-9]+)*$` (accents dropped: `getÜber` → `get-uber`; a name in another script only becomes
 * `tool-<hash>`), or is empty when the name has no letters or digits at all. Long names are shortened with a
 * stable hash of the server's own spelling (so `get_x…` and `getX…` stay distinct).
 */
export function kebabName(name: string): string {
  const k = kebabCase(name);
  // a name in a non-Latin script only (`获取用户`): stable, and the tool's title/description says what it is
  if (k === "" && hasLetters(name)) return `tool-${fnv1a(name)}`;
  return shortenName(k, name);
}

function annotationsOf(tool: McpTool): ToolAnnotations {
  const a = tool.annotations ?? {};
  const out: ToolAnnotations = {};
  const title = typeof a.title === "string" ? a.title : tool.title;
  if (typeof title === "string") out.title = title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof a[key] === "boolean") out[key] = a[key] as boolean;
  }
  return out;
}

/**
 * Expose a server's tools. Names are kebab-cased; when two server names map to the same exposed name the first in
 * the server's order keeps it and the rest are hidden and reported (renaming them silently would make names depend
 * on list order in a way a program cannot see). With the operator's `mapping`, only mapped tools are exposed, under
 * their `as` name, with the operator's description, effect, `hidden` and `pagination`; mapped names the server does
 * not list are returned in `missing`, and a pagination naming a parameter the tool lacks in `problems`.
 */
export function exposeTools(tools: readonly McpTool[], transport: string, mapping?: ToolMap): ExposedTools {
  const entries: ToolEntry[] = [];
  const byName = new Map<string, McpTool>();
  const collisions = new Map<string, NameCollision>();
  const unnamed: string[] = [];
  const listed = new Set<string>();
  const unmapped: string[] = [];
  const problems: string[] = [];
  for (const tool of tools) {
    if (typeof tool?.name !== "string") continue;
    const key = mappingKey(mapping, tool.name);
    const mapped = key ? mapping?.get(key) : undefined;
    if (mapping && !mapped) {
      unmapped.push(tool.name);
      continue;
    }
    listed.add(key || tool.name);
    const name = mapped?.as ?? kebabName(tool.name);
    if (name === "") {
      unnamed.push(tool.name);
      continue;
    }
    const existing = byName.get(name);
    if (existing) {
      const c = collisions.get(name) ?? { name, exposed: existing.name, hidden: [] };
      c.hidden.push(tool.name);
      collisions.set(name, c);
      continue;
    }
    byName.set(name, tool);
    const entry: ToolEntry = {
      name,
      description: mapped?.description ?? tool.description ?? "",
      inputSchema: (tool.inputSchema ?? { type: "object" }) as JsonSchema,
      annotations: annotationsOf(tool),
      ...(mapped ? { effect: mapped.effect } : {}),
      ...(mapped?.hidden ? { hidden: true } : {}),
      ...(mapped?.pagination !== undefined ? { pagination: mapped.pagination } : {}),
      _ptc: { transport, upstreamName: tool.name },
    };
    if (mapped) problems.push(...mappedPaginationProblems(tool.name, mapped, tool.inputSchema));
    if (tool.outputSchema) entry.outputSchema = tool.outputSchema as JsonSchema;
    entries.push(entry);
  }
  const missing = mapping
    ? [...mapping.keys()].filter((n) => !listed.has(n)).map((n) => {
      const names = tools.map((t) => t.name);
      return `${JSON.stringify(n)}${didYouMean(n, names) || didYouMean(n, names.map(kebabName))}`;
    })
    : [];
  return { entries, byName, collisions: [...collisions.values()], unnamed, missing, unmapped, problems };
}

/** The key of `mapping` that maps the server's tool `name`: its own spelling, else its kebab name; "" for none. */
export function mappingKey(mapping: ToolMap | undefined, name: string): string {
  if (!mapping) return "";
  if (mapping.has(name)) return name;
  const kebab = kebabName(name);
  return mapping.has(kebab) ? kebab : "";
}

/**
 * Map the argument keys a program wrote to the tool's declared property names: the exact key first, then the
 * `-`/`_` variant (so `:user-id` reaches `user_id`). Keys the schema does not declare pass through unchanged.
 */
export function mapArgumentKeys(
  args: Record<string, unknown>,
  inputSchema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const props = inputSchema?.properties;
  if (!props || typeof props !== "object") return args;
  const declared = new Set(Object.keys(props));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (declared.has(key)) {
      out[key] = value;
      continue;
    }
    const underscored = key.replaceAll("-", "_");
    const dashed = key.replaceAll("_", "-");
    const target = declared.has(underscored) ? underscored : declared.has(dashed) ? dashed : key;
    out[target] = value;
  }
  return out;
}

/**
 * The start warnings for the patterns of these tools' input and output schemas that ptc will not check (RE2 cannot
 * express them: backreferences, lookaround; see src/core/host_schema.ts), one per pattern, naming tool and field.
 */
export function patternWarnings(entries: ToolEntry[]): string[] {
  return entries.flatMap((t) =>
    skippedPatternWarnings(t.name, { inputSchema: t.inputSchema, outputSchema: t.outputSchema })
  );
}
