/**
 * The one call-record shape (a leaf module: the run's records and the upstream events both carry it).
 * @module
 */
import type { JsonValue } from "../core/json.ts";
import type { MutationState } from "../core/tool_seam.ts";
import type { ApprovalOutcome } from "./approval.ts";

/**
 * One tool call as recorded for the run report (args redacted). The one call-record shape: the engine hands it to
 * the faces as is, and the MCP debug profile's `upstream_calls` uses its field names.
 */
export interface CallRecord {
  server: string;
  tool: string;
  args: JsonValue;
  status: "ok" | "error";
  reason?: string;
  message?: string;
  duration_ms: number;
  /** Ms from the run's start to the call's start (set by the run context; a waterfall's row offset). */
  start_ms?: number;
  /** UTF-8 bytes of the upstream payload (or of the JSON value), 0 when no request was made. */
  bytes: number;
  /** Successful calls: the first ~120 characters of the redacted value as JSON (untrusted upstream data). */
  preview?: string;
  /** Calls to write tools: what the write did (`applied` / `not_applied` / `indeterminate`). */
  mutation_state?: MutationState;
  /** Writes under `--approve-writes`: how the person asked answered (`accepted`, `declined`, …). */
  approval?: ApprovalOutcome;
}
