/**
 * What one evaluation's run leaves behind (call and discovery records) and the view of a run context that the
 * `tool/call` and discovery steps work on. Kept apart from `run_context.ts` so those steps depend on this interface,
 * not on the class that calls them (no import cycle).
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolOutcome } from "../core/tool_seam.ts";
import type { CallRecord } from "./call_record.ts";
import type { RunLimits } from "./config.ts";
import type { Runtime } from "./runtime.ts";
import type { ToolEffect, ToolResult } from "./types.ts";
import type { ApprovalQueue, Approver } from "./approval.ts";

export type { CallRecord } from "./call_record.ts";

/** One discovery operation as recorded for the run report. */
export interface CatalogOpRecord {
  operation: string;
  args: JsonValue;
  outcome: "ok" | "nil_world_fault" | "raise";
  reason?: string;
  duration_ms: number;
}

/** What a run leaves behind. */
export interface RunRecords {
  calls: CallRecord[];
  catalogOps: CatalogOpRecord[];
}

/** A call about to reach an upstream: validated, charged against the budgets, its arguments mapped to the tool's. */
export interface DispatchedCall {
  server: string;
  tool: string;
  args: JsonObject;
  effect: ToolEffect;
  /** A write a person approved (`--approve-writes`) before it was sent. */
  approval?: "accepted";
}

/**
 * Stands between a run and its upstreams for every dispatched call: a recorder awaits `perform()` and notes the
 * result, a replay answers without calling it. A `raise` outcome ends the program (a replay's unrecorded call).
 */
export type CallInterceptor = (
  call: DispatchedCall,
  perform: () => Promise<ToolResult>,
) => Promise<ToolResult | Extract<ToolOutcome, { kind: "raise" }>>;

/** The per-run state `tool/call` and discovery read and update; `RunContext` implements it. */
export interface RunScope {
  readonly limits: RunLimits;
  readonly runtime: Runtime;
  /** Aborted on close or when the outer signal fires. */
  readonly signal: AbortSignal;
  /** True after close: stale callbacks fail closed. */
  readonly closed: boolean;
  /** Tool calls attempted. */
  callCount: number;
  /** Discovery operations attempted. */
  catalogOpCount: number;
  /** Calls to write tools attempted (charged against `maxWriteCalls`). */
  writeCount: number;
  /** Sees (or answers) every call that passed validation and the budgets (record / replay). */
  readonly intercept?: CallInterceptor;
  /** Who approves writes when the runtime requires approval; absent → such writes are `approval_unavailable`. */
  readonly approver?: Approver;
  /** How long one approval may take (capped by `APPROVAL_WAIT_CAP_MS`). */
  readonly approvalWaitMs?: number;
  /** The run's approvals, asked one at a time. */
  readonly approvals: ApprovalQueue;
  /** Stop the program's deadline while a person decides; call the returned function when they have. */
  holdClock(): () => void;
  record(r: CallRecord): void;
  recordOp(r: CatalogOpRecord): void;
  /**
   * A write is about to be sent: until the returned function is called (the write settled), the run's records hold
   * it as `indeterminate` should the run end first — a program that timed out mid-write still lists that write.
   */
  writeInFlight(call: Pick<CallRecord, "server" | "tool" | "args">): () => void;
}
