/**
 * Closed classification of everything that can go wrong under an MCP client: thrown SDK errors, JSON-RPC errors
 * from the server, and the wire failures our own transports raise. Messages are written here; remote text appears
 * only where it is the tool's or server's own answer (JSON-RPC error messages, redacted and clipped), never in
 * connection diagnostics.
 * @module
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { FailureReason, Redactor, ToolResult } from "../../src/upstream/types.ts";
import type { HttpFailureKind } from "../../src/upstream/http_client.ts";
import { type ErrorFeedback, errorFeedbackText } from "./tool_map.ts";

/**
 * Closed kinds of wire failure raised by our transports (fetch wrapper, stdio line reader): the guarded HTTP client's
 * failure kinds plus a credential that could not be materialized and an OAuth upstream that needs a new login.
 */
export type WireFailureKind = HttpFailureKind | "credential_failed" | "login_required";

/** A wire failure with a message that is safe to show (no endpoint, no certificate, no remote text). */
export class McpWireFailure extends Error {
  constructor(readonly kind: WireFailureKind, message: string) {
    super(message);
    this.name = "McpWireFailure";
  }
}

/** JSON-RPC error code our stdio reader synthesizes for a response line over the byte cap. */
export const OVERSIZE_RPC_CODE = -32099;

const MAX_REMOTE_CHARS = 300;

/** Find a wire failure anywhere in an error's cause chain. */
export function findWireFailure(error: unknown): McpWireFailure | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof McpWireFailure) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function wireReason(kind: WireFailureKind): FailureReason {
  switch (kind) {
    case "timeout":
      return "timeout";
    case "response_too_large":
      return "response_too_large";
    case "credential_failed":
    case "login_required":
      return "auth_failed";
    case "redirect_refused":
    case "too_many_redirects":
      return "upstream_error";
    default:
      return "upstream_unavailable";
  }
}

function httpReason(status: number): FailureReason {
  if (status === 401) return "auth_failed";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "upstream_unavailable";
  return "upstream_error";
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_REMOTE_CHARS ? `${oneLine.slice(0, MAX_REMOTE_CHARS)}…` : oneLine;
}

/** What a classified failure says. */
export interface Classified {
  reason: FailureReason;
  message: string;
  /** What is known of a write's fate: a JSON-RPC error from the server is a complete refusal (`not_applied`). */
  mutationState?: "not_applied";
}

/**
 * Classify an error thrown by an MCP request (`label` names upstream and tool, e.g. `upstream fs, tool read-file`).
 * `timeoutMs` is the call's timeout; `signal` the call's signal (its reason tells a timeout from a cancellation).
 * `errorFeedback` (a mapped tool's `error_feedback`) governs the server's text in a JSON-RPC error exactly as it does
 * an `isError` result's; without it the text is redacted and clipped to 300 characters.
 */
export function classifyCallError(
  error: unknown,
  label: string,
  options: { timeoutMs: number; signal?: AbortSignal; redactor: Redactor; errorFeedback?: ErrorFeedback },
): Classified {
  const wire = findWireFailure(error);
  if (wire) return { reason: wireReason(wire.kind), message: `${label}: ${wire.message}` };
  if (options.signal?.aborted) {
    const r = options.signal.reason;
    const timedOut = r instanceof DOMException && r.name === "TimeoutError";
    return timedOut
      ? { reason: "timeout", message: `${label}: no answer within ${options.timeoutMs} ms` }
      : { reason: "upstream_unavailable", message: `${label}: the call was cancelled` };
  }
  if (error instanceof SdkHttpError) {
    return { reason: httpReason(error.status), message: `${label}: the server answered HTTP ${error.status}` };
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return { reason: "timeout", message: `${label}: no answer within ${options.timeoutMs} ms` };
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return { reason: "upstream_unavailable", message: `${label}: the connection to the server closed` };
      case SdkErrorCode.InvalidResult:
      case SdkErrorCode.UnsupportedResultType:
      case SdkErrorCode.InputRequiredRoundsExceeded:
        return { reason: "invalid_response", message: `${label}: the server's answer is not a valid result` };
      case SdkErrorCode.ClientHttpAuthentication:
        return { reason: "auth_failed", message: `${label}: the server rejected the credentials (HTTP 401)` };
      case SdkErrorCode.ClientHttpForbidden:
        return { reason: "forbidden", message: `${label}: the server denied access (HTTP 403)` };
      default:
        return { reason: "upstream_error", message: `${label}: client error ${error.code}` };
    }
  }
  if (error instanceof ProtocolError) {
    if (error.code === OVERSIZE_RPC_CODE) {
      return { reason: "response_too_large", message: `${label}: ${clip(error.message)}` };
    }
    return rpcError(error, label, options.redactor, options.errorFeedback);
  }
  if (error instanceof Error && /output schema|structured content/i.test(error.message)) {
    return { reason: "invalid_response", message: `${label}: structured content does not match the output schema` };
  }
  return { reason: "upstream_error", message: `${label}: the request failed` };
}

/**
 * A JSON-RPC error the server answered: `not_found` for an unknown tool, else `upstream_error`; a complete refusal,
 * so a write was not applied.
 */
function rpcError(error: ProtocolError, label: string, redactor: Redactor, feedback?: ErrorFeedback): Classified {
  const unknownTool = error.code === -32602 && /not found|unknown tool/i.test(error.message);
  const reason: FailureReason = unknownTool ? "not_found" : "upstream_error";
  if (feedback) {
    const what = `the server answered with JSON-RPC error ${error.code}`;
    const message = errorFeedbackText(label, redactor.redact(error.message), feedback, what);
    return { reason, message, mutationState: "not_applied" };
  }
  const text = redactor.redact(clip(error.message));
  const message = unknownTool
    ? `${label}: the server does not know this tool (${text})`
    : `${label}: JSON-RPC error ${error.code}: ${text}`;
  return { reason, message, mutationState: "not_applied" };
}

/** A failed ToolResult from a classification. */
export function failure(c: Classified): ToolResult {
  return {
    ok: false,
    reason: c.reason,
    message: c.message,
    ...(c.mutationState ? { mutationState: c.mutationState } : {}),
  };
}
