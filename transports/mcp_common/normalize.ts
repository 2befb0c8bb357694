/**
 * `tools/call` results → the transport-neutral result contract. Nothing above a transport sees an MCP envelope:
 *
 * 1. `isError: true` → `tool_error` with the text blocks (joined by newlines) as the message (under a mapping's
 *    `error_feedback`: none of it, or 1,024 bytes marked untrusted);
 * 2. `structuredContent` → the value, when the tool published an `outputSchema`;
 * 3. exactly one content block, a text block → decoded JSON when it parses (`json`), else the string (`text`) — the
 *    shape programs have always seen;
 * 4. several blocks, or a block that is not text → a vector with one map per block, in order (`json`), see
 *    {@link contentBlocks}: nothing the server sent is dropped, and image, audio and blob data is summarized — passed on
 *    (base64, as sent) only when the upstream sets `binary_content: "include"`;
 * 5. no content → `null` (`none`).
 *
 * The size of the received payload is measured and checked against the call's byte cap.
 * @module
 */
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import type { Redactor, ToolResult } from "../../src/upstream/types.ts";
import { type ErrorFeedback, errorFeedbackText } from "./tool_map.ts";

/** Longest tool error message passed to a program. */
export const MAX_TOOL_ERROR_CHARS = 2000;

/** Size in bytes of a JSON value as UTF-8 (the size of the payload as received, re-serialized). */
export function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value) ?? "").length;
  } catch {
    return 0;
  }
}

function texts(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object" && block.type === "text" && typeof block.text === "string") {
      out.push(block.text);
    }
  }
  return out;
}

/** Bytes a base64 string decodes to (whitespace ignored), without decoding it. */
export function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s+/g, "");
  const pad = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

/** What a resource link and a listed resource say about the resource, MCP name → the program's key. */
const RESOURCE_FIELDS: [string, string][] = [
  ["uri", "uri"],
  ["name", "name"],
  ["title", "title"],
  ["description", "description"],
  ["mimeType", "mime_type"],
  ["size", "size"],
];

/** Copy the string (or number) fields `from` → `to` of `src` into `out`, when present. */
function pick(out: JsonObject, src: Record<string, unknown>, fields: [string, string][]): JsonObject {
  for (const [from, to] of fields) {
    const v = src[from];
    if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) out[to] = v;
  }
  return out;
}

/**
 * One content block as the program sees it (keys snake_case; `(:mime-type b)` reads `mime_type`):
 * - `{type "text" text}`;
 * - `{type "image"|"audio" mime_type bytes}` — a summary: the data's decoded size, never the data;
 * - `{type "resource_link" uri name title? description? mime_type? size?}`;
 * - `{type "resource" uri mime_type? text}` for an embedded text resource, `{… bytes}` for a blob (summarized);
 * - any other block: its `type` only.
 */
export function contentBlock(block: unknown, includeBinary = false): JsonObject {
  if (!block || typeof block !== "object" || Array.isArray(block)) return { type: "unknown" };
  const b = block as Record<string, unknown>;
  const type = typeof b.type === "string" ? b.type : "unknown";
  switch (type) {
    case "text":
      return { type, text: typeof b.text === "string" ? b.text : "" };
    case "image":
    case "audio":
      return {
        ...pick({ type }, b, [["mimeType", "mime_type"]]),
        bytes: base64Bytes(b.data),
        ...binary(b.data, includeBinary),
      };
    case "resource_link":
      return pick({ type }, b, RESOURCE_FIELDS);
    case "resource": {
      const r = (b.resource && typeof b.resource === "object" ? b.resource : {}) as Record<string, unknown>;
      const out = pick({ type }, r, [["uri", "uri"], ["mimeType", "mime_type"]]);
      if (typeof r.text === "string") out.text = r.text;
      else Object.assign(out, { bytes: base64Bytes(r.blob), ...binary(r.blob, includeBinary) });
      return out;
    }
    default:
      return { type };
  }
}

/** `{data}` (the base64 text as the server sent it) when binary content is included. */
function binary(data: unknown, include: boolean): JsonObject {
  return include && typeof data === "string" ? { data } : {};
}

/** Every content block as the program sees it ({@link contentBlock}). */
export function contentBlocks(content: unknown, includeBinary = false): JsonValue[] {
  return Array.isArray(content) ? content.map((b) => contentBlock(b, includeBinary)) : [];
}

/** Normalize one `tools/call` result. `hasOutputSchema`: the tool published an outputSchema in `tools/list`. */
export function normalizeCallResult(
  result: Record<string, unknown>,
  options: {
    hasOutputSchema: boolean;
    maxResponseBytes: number;
    redactor: Redactor;
    toolLabel: string;
    /** The operator's `error_feedback` for this tool; absent (unmapped): the text, clipped at 2,000 characters. */
    errorFeedback?: ErrorFeedback;
    /** `binary_content: "include"`: image, audio and blob blocks carry their base64 `data`. */
    includeBinary?: boolean;
  },
): ToolResult {
  const bytes = jsonBytes(result);
  if (bytes > options.maxResponseBytes) {
    return {
      ok: false,
      reason: "response_too_large",
      message: `${options.toolLabel}: response of ${bytes} bytes exceeded the cap of ${options.maxResponseBytes} bytes`,
      bytes,
    };
  }
  if (result.isError === true) {
    const all = texts(result.content);
    const text = all.length > 0 ? all.join("\n") : "the tool reported an error without a text message";
    if (options.errorFeedback) {
      const shown = errorFeedbackText(options.toolLabel, options.redactor.redact(text), options.errorFeedback);
      return { ok: false, reason: "tool_error", message: shown, bytes };
    }
    const clipped = text.length > MAX_TOOL_ERROR_CHARS ? `${text.slice(0, MAX_TOOL_ERROR_CHARS)}…` : text;
    return { ok: false, reason: "tool_error", message: options.redactor.redact(clipped), bytes };
  }
  if (options.hasOutputSchema && result.structuredContent !== undefined && result.structuredContent !== null) {
    return { ok: true, value: result.structuredContent as JsonValue, valueKind: "json", bytes };
  }
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) return { ok: true, value: null, valueKind: "none", bytes };
  const only = content.length === 1 ? contentBlock(content[0]) : undefined;
  if (only?.type !== "text") {
    return { ok: true, value: contentBlocks(content, options.includeBinary), valueKind: "json", bytes };
  }
  const text = only.text as string;
  const trimmed = text.trim();
  if (trimmed !== "") {
    try {
      return { ok: true, value: JSON.parse(trimmed) as JsonValue, valueKind: "json", bytes };
    } catch {
      // not JSON: the text itself
    }
  }
  return { ok: true, value: text, valueKind: "text", bytes };
}

/** Checked against the call's byte cap like a tool result. */
function capped(bytes: number, maxResponseBytes: number, label: string): ToolResult | undefined {
  if (bytes <= maxResponseBytes) return undefined;
  return {
    ok: false,
    reason: "response_too_large",
    message: `${label}: response of ${bytes} bytes exceeded the cap of ${maxResponseBytes} bytes`,
    bytes,
  };
}

/** `resources/list` → a list of `{uri, name, title?, description?, mime_type?, size?}`. */
export function normalizeResourceList(
  result: Record<string, unknown>,
  options: { maxResponseBytes: number; label: string },
): ToolResult {
  const bytes = jsonBytes(result);
  const over = capped(bytes, options.maxResponseBytes, options.label);
  if (over) return over;
  const list = Array.isArray(result.resources) ? result.resources : [];
  const value = list.filter((r) => r && typeof r === "object").map((r) =>
    pick({}, r as Record<string, unknown>, RESOURCE_FIELDS)
  );
  return { ok: true, value, valueKind: "json", bytes };
}

function isJsonType(mime: unknown): boolean {
  return typeof mime === "string" && /^application\/(?:[\w.-]+\+)?json\b/i.test(mime);
}

/**
 * `resources/read` → one text content: the text (decoded when its MIME type is JSON and it parses); several
 * contents or a binary one: a list of `{uri, mime_type?, text}` / `{uri, mime_type?, bytes}`; none: `null`.
 */
export function normalizeReadResult(
  result: Record<string, unknown>,
  options: { maxResponseBytes: number; label: string; includeBinary?: boolean },
): ToolResult {
  const bytes = jsonBytes(result);
  const over = capped(bytes, options.maxResponseBytes, options.label);
  if (over) return over;
  const contents = (Array.isArray(result.contents) ? result.contents : []).filter((c) => c && typeof c === "object")
    .map((c) => c as Record<string, unknown>);
  if (contents.length === 0) return { ok: true, value: null, valueKind: "none", bytes };
  if (contents.length === 1 && typeof contents[0].text === "string") {
    const text = contents[0].text;
    if (isJsonType(contents[0].mimeType)) {
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue, valueKind: "json", bytes };
      } catch {
        // not JSON after all: the text
      }
    }
    return { ok: true, value: text, valueKind: "text", bytes };
  }
  const value = contents.map((c) => {
    const out = pick({}, c, [["uri", "uri"], ["mimeType", "mime_type"]]);
    if (typeof c.text === "string") out.text = c.text;
    else Object.assign(out, { bytes: base64Bytes(c.blob), ...binary(c.blob, options.includeBinary ?? false) });
    return out;
  });
  return { ok: true, value, valueKind: "json", bytes };
}
