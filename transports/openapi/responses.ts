/**
 * Maps one HTTP exchange (or its failure) to the result contract. Messages name the operation by its path
 * template — never the filled-in URL — and include remote text only as a sanitized, capped problem detail, quoted
 * in «…» after "upstream says (untrusted)" so a reader (or a model) can tell it from ptc's own words.
 * The caller passes every message through the redactor.
 * @module
 */
import type { HttpFailure, HttpResponse } from "../../src/upstream/http_client.ts";
import type { JsonValue } from "../../src/core/json.ts";
import type { ToolResult } from "../../src/upstream/types.ts";
import { type ResultPath, selectPath } from "./result_path.ts";

/** Longest problem detail quoted from an error response. */
export const MAX_DETAIL = 500;
/** How quoted upstream text is introduced: it is data from the remote, never an instruction. */
export const UNTRUSTED = "upstream says (untrusted)";

/** Map a guarded-fetch failure to a result. */
export function failureResult(failure: HttpFailure, where: string): ToolResult {
  const message = `${where}: ${failure.message}`;
  const bytes = failure.bytes;
  switch (failure.kind) {
    case "timeout":
    case "aborted":
      return { ok: false, reason: "timeout", message, bytes };
    case "response_too_large":
      return { ok: false, reason: "response_too_large", message, bytes };
    case "redirect_refused":
    case "too_many_redirects":
      return { ok: false, reason: "upstream_error", message, bytes };
    case "connect_failed":
    case "dns_failed":
    case "tls_failed":
      // the request never left ptc: a write was certainly not applied
      return { ok: false, reason: "upstream_unavailable", message, bytes, mutationState: "not_applied" };
    default:
      // a reset or a broken exchange after the request may have been sent
      return { ok: false, reason: "upstream_unavailable", message, bytes, mutationState: "indeterminate" };
  }
}

/**
 * Map a received response (any status) to a result. `resultPath` selects a sub-value of a 2xx JSON body; `text`: the
 * operation answers `text/*` and a 2xx body is the value, as a string (`valueKind: "text"`).
 */
export function responseResult(
  response: HttpResponse,
  where: string,
  resultPath?: ResultPath,
  text = false,
): ToolResult {
  const status = response.status;
  const bytes = response.bodyBytes.byteLength;
  if (status >= 200 && status < 300) {
    return text ? textResult(response, where) : successResult(response, where, resultPath);
  }
  const detail = problemDetail(response);
  const suffix = detail ? `: ${UNTRUSTED} «${detail.replaceAll("»", "›")}»` : "";
  // A 4xx is the service's complete refusal; after a 5xx (or an unfollowed 3xx) it may have acted anyway.
  const mutationState = status >= 400 && status < 500 ? "not_applied" : "indeterminate";
  const fail = (reason: Exclude<ToolResult, { ok: true }>["reason"], text: string): ToolResult => ({
    ok: false,
    reason,
    message: `${where}: ${text}`,
    bytes,
    mutationState,
  });
  if (status === 400 || status === 422) return fail("upstream_error", `HTTP ${status} (bad request)${suffix}`);
  if (status === 401) return fail("auth_failed", "HTTP 401: authentication failed");
  if (status === 403) return fail("forbidden", `HTTP 403: forbidden${suffix}`);
  if (status === 404) return fail("not_found", `HTTP 404: not found${suffix}`);
  if (status === 429) {
    const retry = retryAfter(response.headers.get("retry-after"));
    return fail("rate_limited", `HTTP 429: rate limited${retry ? `; Retry-After: ${retry}` : ""}${suffix}`);
  }
  if (status >= 500) return fail("upstream_unavailable", `HTTP ${status}: the service failed or is unavailable`);
  return fail("upstream_error", `HTTP ${status}${suffix}`);
}

/** A 2xx answer of a text operation: the body as a string (UTF-8, or the charset it names); JSON or text types only. */
function textResult(response: HttpResponse, where: string): ToolResult {
  const bytes = response.bodyBytes.byteLength;
  if (response.status === 204 || bytes === 0) return { ok: true, value: null, valueKind: "none", bytes };
  const type = response.headers.get("content-type");
  if (type !== null && !/^\s*text\/|json/i.test(type)) {
    return {
      ok: false,
      reason: "invalid_response",
      message: `${where}: expected a text response, got content type ${mediaType(type)}`,
      bytes,
    };
  }
  const charset = /;\s*charset="?([\w.:-]+)"?/i.exec(type ?? "")?.[1] ?? "utf-8";
  let value: string;
  try {
    value = new TextDecoder(charset, { fatal: true }).decode(response.bodyBytes);
  } catch {
    return {
      ok: false,
      reason: "invalid_response",
      message: `${where}: the response is not valid ${clip(charset.toLowerCase(), 40)} text`,
      bytes,
    };
  }
  return { ok: true, value, valueKind: "text", bytes };
}

function successResult(response: HttpResponse, where: string, resultPath?: ResultPath): ToolResult {
  const bytes = response.bodyBytes.byteLength;
  if (response.status === 204 || bytes === 0 || (bytes <= 64 && /^\s*$/.test(peek(response.bodyBytes)))) {
    return { ok: true, value: null, valueKind: "none", bytes };
  }
  const type = response.headers.get("content-type");
  if (type !== null && !/json/i.test(type)) {
    return {
      ok: false,
      reason: "invalid_response",
      message: `${where}: expected a JSON response, got content type ${mediaType(type)}`,
      bytes,
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(response.bodyBytes);
  } catch {
    return { ok: false, reason: "invalid_response", message: `${where}: the response is not valid UTF-8`, bytes };
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: "invalid_response",
      message: `${where}: malformed JSON response (${bytes} bytes)`,
      bytes,
    };
  }
  if (resultPath) {
    const selected = selectPath(value, resultPath);
    if (selected === undefined) {
      return {
        ok: false,
        reason: "invalid_response",
        message: `${where}: result path "${resultPath.source}" is not in the response`,
        bytes,
      };
    }
    value = selected as JsonValue;
  }
  return { ok: true, value, valueKind: "json", bytes };
}

/**
 * A short, single-line problem detail from an error body: RFC 9457 `title`/`detail`, or `message`/`error` fields,
 * then the validation list a 4xx carries (`errors`, `validation`, `invalid_params`, `violations`, a FastAPI-style
 * `detail` list) as `field: message` items, or the text itself. Control characters are removed, whitespace
 * collapsed, each item capped at {@link MAX_DETAIL_ITEM} and the whole at {@link MAX_DETAIL}.
 */
export function problemDetail(response: HttpResponse): string {
  if (response.bodyBytes.byteLength === 0) return "";
  const text = new TextDecoder().decode(response.bodyBytes.subarray(0, MAX_DETAIL_SOURCE));
  let detail: string;
  try {
    detail = pickDetail(JSON.parse(text)) ?? text;
  } catch {
    // Not JSON (or cut short): quote the text (HTML is reduced to its text).
    detail = text.replace(/<[^>]*>/g, " ");
  }
  return clip(oneLine(detail), MAX_DETAIL);
}

/** Longest single validation item quoted. */
export const MAX_DETAIL_ITEM = 160;
/** Most validation items quoted. */
const MAX_DETAIL_ITEMS = 8;
/** Bytes of an error body read for its detail (a larger body is treated as text). */
const MAX_DETAIL_SOURCE = 64 * 1024;

const LIST_KEYS = ["errors", "validation", "validation_errors", "validationErrors", "invalid_params", "invalidParams"]
  .concat(["violations", "fieldErrors", "field_errors", "issues", "details"]);
const FIELD_KEYS = ["field", "path", "pointer", "instancePath", "param", "parameter", "name", "property", "loc"];
const TEXT_KEYS = ["message", "msg", "detail", "reason", "description", "title", "error", "code"];

function pickDetail(body: unknown): string | undefined {
  if (typeof body === "string") return body;
  if (Array.isArray(body)) return validationList(body) ?? undefined;
  if (body === null || typeof body !== "object") return undefined;
  const o = body as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ["title", "detail", "message", "error_description"]) {
    if (typeof o[key] === "string" && !parts.includes(o[key] as string)) parts.push(o[key] as string);
  }
  if (typeof o.error === "string") parts.push(o.error);
  else if (o.error && typeof o.error === "object") {
    const inner = pickDetail(o.error);
    if (inner) parts.push(inner);
  }
  for (const key of [...LIST_KEYS, "detail"]) {
    const list = validationList(o[key]);
    if (list) {
      parts.push(list);
      break;
    }
  }
  return parts.length ? parts.join(" — ") : undefined;
}

/** `field: message; field: message` from a validation list (array, or object of field → message(s)). */
function validationList(value: unknown): string | undefined {
  let items: string[] = [];
  let total = 0;
  if (Array.isArray(value)) {
    total = value.length;
    items = value.slice(0, MAX_DETAIL_ITEMS).map(validationItem).filter((x) => x !== "");
  } else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    total = entries.length;
    items = entries.slice(0, MAX_DETAIL_ITEMS).map(([field, v]) => {
      const text = Array.isArray(v) ? v.filter((x) => typeof x === "string").join(", ") : validationItem(v);
      return text ? clip(oneLine(`${field}: ${text}`), MAX_DETAIL_ITEM) : "";
    }).filter((x) => x !== "");
  }
  if (items.length === 0) return undefined;
  const more = total > items.length ? ` (+${total - items.length} more)` : "";
  return `${items.join("; ")}${more}`;
}

function validationItem(item: unknown): string {
  if (typeof item === "string") return clip(oneLine(item), MAX_DETAIL_ITEM);
  if (item === null || typeof item !== "object" || Array.isArray(item)) return "";
  const o = item as Record<string, unknown>;
  const source = o.source && typeof o.source === "object" ? o.source as Record<string, unknown> : {};
  const rawField = FIELD_KEYS.map((k) => o[k] ?? source[k]).find((v) => typeof v === "string" || Array.isArray(v));
  const field = Array.isArray(rawField) ? rawField.map(String).join(".") : rawField as string | undefined;
  const text = TEXT_KEYS.map((k) => o[k]).find((v) => typeof v === "string") as string | undefined;
  if (!text && !field) return "";
  return clip(oneLine(field && text ? `${field}: ${text}` : (text ?? `${field}: invalid`)), MAX_DETAIL_ITEM);
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters from the remote are exactly what must go
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
}

function retryAfter(value: string | null): string | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d{1,9}$/.test(v)) return `${v}s`;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : new Date(date).toISOString();
}

function mediaType(value: string): string {
  const m = value.split(";")[0].trim().toLowerCase().replace(/[^a-z0-9!#$&^_.+\-\/*]/g, "");
  return m ? clip(m, 80) : "(empty)";
}

function peek(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 64)));
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
