/**
 * `tools/call` results → the transport-neutral result contract. Nothing above a transport sees an MCP envelope:
 *
 * 1. `isError: true` → `tool_error` with the first text block as the message (under a mapping's `error_feedback`:
 *    none of it, or 1,024 bytes marked untrusted);
 * 2. `structuredContent` → the value, when the tool published an `outputSchema`;
 * 3. the first text block → decoded JSON when it parses (`json`), else the string (`text`);
 * 4. no text block → `null` (`none`).
 *
 * The size of the received payload is measured and checked against the call's byte cap.
 * @module
 */
import type { JsonValue } from "../../src/core/json.ts";
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

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (block && typeof block === "object" && block.type === "text" && typeof block.text === "string") {
      return block.text;
    }
  }
  return undefined;
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
    const text = firstText(result.content) ?? "the tool reported an error without a text message";
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
  const text = firstText(result.content);
  if (text === undefined) return { ok: true, value: null, valueKind: "none", bytes };
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
