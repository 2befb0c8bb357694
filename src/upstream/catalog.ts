/**
 * Catalog renderers: the prompt text (`inline`: every tool with its argument signature; `lazy`: servers plus how
 * to discover; `auto`: inline when small), the JSON form printed by `ptc catalog --format json`, and the diff of two
 * JSON catalogs (added/removed/changed tools).
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolEntry } from "./types.ts";
import { type WithheldTool, withheldTools } from "./install.ts";
import type { Runtime, UpstreamSnapshot } from "./runtime.ts";
import { argSignature, oneLine, resultType } from "./signature.ts";

/** How much of the catalog a prompt shows. */
export type ExposureMode = "auto" | "inline" | "lazy";

const DESCRIPTION_CHARS = 160;
const NOTES_CHARS = 240;

function header(s: UpstreamSnapshot): string {
  const desc = s.description ? ` - ${oneLine(s.description, DESCRIPTION_CHARS)}` : "";
  const status = s.catalog_loaded ? "" : " [unavailable]";
  return `${s.name} (${s.tool_count} tools)${status}${desc}`;
}

const effectMark = (t: ToolEntry) => t.effect === "write" ? " [write]" : "";

/**
 * Inline text: per server a header, then `  srv/tool {:arg type …} - description` lines (write tools marked
 * `[write]`; tools the operator mapped `hidden` are left out but stay callable), each followed by the
 * operator notes (`    notes: …`) and whether it pages (`    pages: tool/pages`) when it has them.
 */
export function renderInline(catalog: UpstreamSnapshot[]): string {
  const lines: string[] = [];
  for (const s of catalog) {
    lines.push(header(s));
    for (const t of s.tools) {
      if (t.hidden) continue;
      const desc = t.description ? ` - ${oneLine(t.description, DESCRIPTION_CHARS)}` : "";
      lines.push(`  ${s.name}/${t.name}${effectMark(t)} ${argSignature(t)}${desc}`);
      const notes = t._ptc?.notes;
      if (typeof notes === "string" && notes.trim() !== "") lines.push(`    notes: ${oneLine(notes, NOTES_CHARS)}`);
      if (t.pagination) lines.push(`    pages: (tool/pages '${s.name}/${t.name} {…} {:max-pages n}) follows them`);
    }
  }
  return lines.join("\n");
}

/** Lazy text: server headers and how to discover the tools. */
export function renderLazy(catalog: UpstreamSnapshot[]): string {
  if (catalog.length === 0) return "";
  return [
    ...catalog.map(header),
    "Discover tools with (dir 'srv), (doc 'srv/tool) and (apropos \"words\"); call with (tool/call 'srv/tool {…}).",
  ].join("\n");
}

/** Choose inline or lazy for `auto`: lazy when there are more tools or characters than the limits. */
export function chooseExposure(catalog: UpstreamSnapshot[], maxTools: number, maxChars: number): "inline" | "lazy" {
  const tools = catalog.reduce((n, s) => n + s.tool_count, 0);
  if (tools > maxTools || catalog.some((s) => !s.catalog_loaded)) return "lazy";
  return renderInline(catalog).length > maxChars ? "lazy" : "inline";
}

/** The catalog text for prompts (the MCP face's `lisp_eval` description uses it). Empty when no upstreams. */
export function renderCatalog(
  runtime: Runtime,
  mode: ExposureMode = runtime.catalogSettings.exposure,
  replaced: ReadonlySet<string> = new Set(),
): string {
  // Tools a prompt-visible library stands in for are left out of the text (they stay installed and callable).
  const catalog = replaced.size === 0 ? runtime.catalog() : runtime.catalog().map((s) => {
    const tools = s.tools.filter((t) => !replaced.has(`${s.name}/${t.name}`));
    return { ...s, tools, tool_count: tools.length };
  });
  if (catalog.length === 0) return "";
  const settings = runtime.catalogSettings;
  const chosen = mode === "auto" ? chooseExposure(catalog, settings.inlineMaxTools, settings.inlineMaxChars) : mode;
  return runtime.redactor.redact(chosen === "inline" ? renderInline(catalog) : renderLazy(catalog));
}

/** The full catalog as JSON (`ptc catalog --format json`, the input of `--diff`). */
export function catalogJson(runtime: Runtime): JsonObject {
  return {
    servers: runtime.catalog().map((s) => ({
      name: s.name,
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
