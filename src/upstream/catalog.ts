/**
 * Catalog renderers: the prompt text (`inline`: every tool with its argument signature; `lazy`: servers plus how
 * to discover; `auto`: inline when small), the JSON form printed by `ptc catalog --format json`, and the diff of two
 * JSON catalogs (added/removed/changed tools).
 * @module
 */
import { snapshotsOf } from "./snapshot_id.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolEntry } from "./types.ts";
import { type WithheldTool, withheldTools } from "./install.ts";
import type { Runtime, UpstreamSnapshot } from "./runtime.ts";
import { argSignature, oneLine, resultType } from "./signature.ts";

/** How much of the catalog a prompt shows. */
export type ExposureMode = "auto" | "inline" | "lazy";

const DESCRIPTION_CHARS = 160;
const NOTES_CHARS = 240;

/** Tools a prompt-visible library stands in for (`:replaces`), by `server/tool`, and the library doing so. */
export type Replaced = ReadonlyMap<string, string>;

/**
 * The server line: its name, the count of installed and callable tools (the one count `(tool/servers)`, `dir`'s
 * server doc and `ptc catalog` show), what of them the text leaves out (hidden, or reached through a library), and
 * the description cut at a word boundary, with `(doc 'srv)` for the rest.
 */
function header(s: UpstreamSnapshot, replaced: Replaced = new Map()): string {
  const notes: string[] = [];
  const hidden = s.tools.filter((t) => t.hidden).length;
  if (hidden > 0) notes.push(`${hidden} hidden`);
  const libs = new Map<string, string[]>();
  for (const t of s.tools) {
    const lib = t.hidden ? undefined : replaced.get(`${s.name}/${t.name}`);
    if (lib !== undefined) libs.set(lib, [...(libs.get(lib) ?? []), t.name]);
  }
  for (const [lib, names] of libs) notes.push(`${names.length} used through library ${lib}: ${names.join(", ")}`);
  const count = `${s.tool_count} tool${s.tool_count === 1 ? "" : "s"}${notes.length ? `; ${notes.join("; ")}` : ""}`;
  const status = s.catalog_loaded ? "" : " [unavailable]";
  return `${s.name} (${count})${status}${s.description ? ` - ${serverDescription(s)}` : ""}`;
}

/** A server description for a one-line header: whole when short, else cut at a word with `(doc 'srv)` named. */
export function serverDescription(s: { name: string; description: string }): string {
  const text = oneLine(s.description, Infinity);
  if (text.length <= DESCRIPTION_CHARS) return text;
  const cut = text.slice(0, DESCRIPTION_CHARS).replace(/\s+\S*$/, "").replace(/[\s,;:(-]+$/, "");
  return `${cut}… (doc '${s.name}) has the rest`;
}

const effectMark = (t: ToolEntry) => t.effect === "write" ? " [write]" : "";

/**
 * Inline text: per server a header, then `  srv/tool {:arg type …} - description` lines (write tools marked
 * `[write]`; tools the operator mapped `hidden` and those a library `:replaces` are left out but stay callable and
 * counted), each followed by the operator notes (`    notes: …`) and whether it pages (`    pages: tool/pages`, with
 * `inferred` when ptc inferred it) when it has them.
 */
export function renderInline(catalog: UpstreamSnapshot[], replaced: Replaced = new Map()): string {
  const lines: string[] = [];
  for (const s of catalog) {
    lines.push(header(s, replaced));
    for (const t of s.tools) {
      if (t.hidden || replaced.has(`${s.name}/${t.name}`)) continue;
      const desc = t.description ? ` - ${oneLine(t.description, DESCRIPTION_CHARS)}` : "";
      lines.push(`  ${s.name}/${t.name}${effectMark(t)} ${argSignature(t)}${desc}`);
      const notes = t._ptc?.notes;
      if (typeof notes === "string" && notes.trim() !== "") lines.push(`    notes: ${oneLine(notes, NOTES_CHARS)}`);
      if (t.pagination) {
        const how = t.pagination.inferred ? " (inferred from its cursor/next-cursor fields)" : "";
        lines.push(`    pages: (tool/pages '${s.name}/${t.name} {…} {:max-pages n}) follows them${how}`);
      }
    }
  }
  return lines.join("\n");
}

/** The tools that page (`tool/pages` follows them), as `srv/tool` refs; hidden ones left out. */
export function pagingTools(catalog: UpstreamSnapshot[]): string[] {
  return catalog.flatMap((s) => s.tools.filter((t) => t.pagination && !t.hidden).map((t) => `${s.name}/${t.name}`));
}

/** Lazy text: server headers, which tools page, and how to discover the tools. */
export function renderLazy(catalog: UpstreamSnapshot[], replaced: Replaced = new Map()): string {
  if (catalog.length === 0) return "";
  const paging = pagingTools(catalog).filter((r) => !replaced.has(r));
  return [
    ...catalog.map((s) => header(s, replaced)),
    ...(paging.length ? [`These page (tool/pages follows them): ${paging.join(", ")}.`] : []),
    "Discover tools with (dir 'srv), (doc 'srv/tool) and (apropos \"words\"); call with (tool/call 'srv/tool {…}).",
  ].join("\n");
}

/** Choose inline or lazy for `auto`: lazy when there are more tools or characters than the limits. */
export function chooseExposure(
  catalog: UpstreamSnapshot[],
  maxTools: number,
  maxChars: number,
  replaced: Replaced = new Map(),
): "inline" | "lazy" {
  const tools = catalog.reduce((n, s) => n + s.tool_count, 0);
  if (tools > maxTools || catalog.some((s) => !s.catalog_loaded)) return "lazy";
  return renderInline(catalog, replaced).length > maxChars ? "lazy" : "inline";
}

/**
 * The catalog text for prompts (the MCP face's `lisp_eval` description uses it). Empty when no upstreams. Tools a
 * prompt-visible library stands in for (`replaced`) are left out of the listing but counted and named in the header.
 */
export function renderCatalog(
  runtime: Runtime,
  mode: ExposureMode = runtime.catalogSettings.exposure,
  replaced: Replaced = new Map(),
): string {
  const catalog = runtime.catalog();
  if (catalog.length === 0) return "";
  const settings = runtime.catalogSettings;
  const chosen = mode === "auto"
    ? chooseExposure(catalog, settings.inlineMaxTools, settings.inlineMaxChars, replaced)
    : mode;
  return runtime.redactor.redact(chosen === "inline" ? renderInline(catalog, replaced) : renderLazy(catalog, replaced));
}

/** The full catalog as JSON (`ptc catalog --format json`, the input of `--diff`). */
export function catalogJson(runtime: Runtime): JsonObject {
  const snapshots = snapshotsOf(runtime);
  return {
    servers: runtime.catalog().map((s) => ({
      name: s.name,
      snapshot: snapshots[s.name],
      transport: s.transport,
      description: s.description,
      tool_count: s.tool_count,
      catalog_loaded: s.catalog_loaded,
      tools: s.tools.map((t) => ({ ...t, signature: argSignature(t), returns: resultType(t) })) as unknown as JsonValue,
      withheld: runtime.redactor.redactJson(notInstalled(runtime, s.name)) as unknown as JsonValue,
    })),
  };
}

/** Why each tool an upstream lists is not installed: the write gate's refusals, then the names its mapping omits. */
function notInstalled(runtime: Runtime, server: string): WithheldTool[] {
  const state = runtime.upstreams.get(server);
  return [
    ...withheldTools(state?.withheld ?? new Map()),
    // An MCP upstream's tool the operator's `tools` mapping leaves out, by the server's own name.
    ...diagnosticsList(state?.upstream, "unmapped_tools").map((name) => ({
      name,
      reason: "is not in the config's tools mapping",
    })),
  ];
}

/** Human text of the full catalog (`ptc catalog`): inline lines plus each tool's result type. */
export function catalogText(runtime: Runtime): string {
  const lines: string[] = [];
  for (const s of runtime.catalog()) {
    lines.push(`${header(s)} [${s.transport}]`);
    for (const t of s.tools) {
      const hidden = t.hidden ? " (hidden from the prompt)" : "";
      // The upstream's own spelling (an MCP tool name, an operationId), when it differs: what the config's `tools`
      // mapping, `include_operations` and `operation_overrides` are keyed by.
      const native = t._ptc?.upstreamName;
      const spelled = native && native !== t.name ? ` (upstream name: ${native})` : "";
      lines.push(`  ${s.name}/${t.name}${effectMark(t)} ${argSignature(t)} -> ${resultType(t)}${hidden}${spelled}`);
      if (t.description) lines.push(`      ${oneLine(t.description, DESCRIPTION_CHARS)}`);
    }
    for (const w of notInstalled(runtime, s.name)) lines.push(`  ${s.name}/${w.name} — not installed: ${w.reason}`);
  }
  return runtime.redactor.redact(lines.join("\n"));
}

function diagnosticsList(upstream: { diagnostics(): JsonObject } | undefined, key: string): string[] {
  try {
    const v = upstream?.diagnostics()[key];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** One difference between two catalogs. */
export interface CatalogChange {
  kind: "added" | "removed" | "changed";
  ref: string;
  /** For `changed`: which parts differ (description, input schema, output schema, annotations). */
  parts?: string[];
}

function toolsOf(doc: unknown): Map<string, ToolEntry> {
  const map = new Map<string, ToolEntry>();
  const servers = (doc as { servers?: unknown })?.servers;
  if (!Array.isArray(servers)) {
    throw new Error('not a catalog: expected {"servers": [...]} from ptc catalog --format json');
  }
  for (const s of servers) {
    if (!s || typeof s.name !== "string" || !Array.isArray(s.tools)) continue;
    for (const t of s.tools) if (t && typeof t.name === "string") map.set(`${s.name}/${t.name}`, t);
  }
  return map;
}

function stable(v: unknown): string {
  return JSON.stringify(
    v,
    (_k, x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
        : x,
  ) ?? "null";
}

/** Compare an old catalog JSON with a new one. Throws Error with a one-line message when `oldDoc` is not a catalog. */
export function diffCatalogs(oldDoc: unknown, newDoc: unknown): CatalogChange[] {
  const before = toolsOf(oldDoc);
  const after = toolsOf(newDoc);
  const changes: CatalogChange[] = [];
  for (const [ref, t] of after) {
    const o = before.get(ref);
    if (!o) {
      changes.push({ kind: "added", ref });
      continue;
    }
    const parts: string[] = [];
    if ((o.description ?? "") !== (t.description ?? "")) parts.push("description");
    if (stable(o.inputSchema) !== stable(t.inputSchema)) parts.push("input schema");
    if (stable(o.outputSchema) !== stable(t.outputSchema)) parts.push("output schema");
    if (stable(o.annotations) !== stable(t.annotations)) parts.push("annotations");
    if ((o.effect ?? null) !== (t.effect ?? null)) parts.push("effect");
    if (parts.length) changes.push({ kind: "changed", ref, parts });
  }
  for (const ref of before.keys()) if (!after.has(ref)) changes.push({ kind: "removed", ref });
  const order = { removed: 0, added: 1, changed: 2 };
  return changes.sort((a, b) => order[a.kind] - order[b.kind] || (a.ref < b.ref ? -1 : 1));
}
