/**
 * The per-evaluation run context: budgets (tool calls, discovery operations, call timeout, response bytes, catalog
 * result bytes), the call and discovery records drained after the run, and an AbortController aborted on close.
 * `pmap` branches of one program share one context; two evaluations never do. `withRunContext` creates, drains and
 * closes it so teardown cannot be forgotten.
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { RunLimits } from "./config.ts";
import type { Runtime } from "./runtime.ts";
import type {
  DiscoveryOp,
  DiscoveryOutcome,
  HostCallbacks,
  RunClock,
  ToolOutcome,
  ToolRequest,
} from "../core/tool_seam.ts";
import { HOST_TOOL_NAMES } from "../core/tool_seam.ts";
import { callTool } from "./tool_call.ts";
import { RESOURCE_TOOLS, resourceTool } from "./tool_resources.ts";
import type { CallInterceptor, CallRecord, CatalogOpRecord, RunRecords, RunScope } from "./run_records.ts";
import { pagesTool } from "./tool_pages.ts";
import { discover } from "./discovery.ts";
import { ApprovalQueue, type Approver } from "./approval.ts";

export type {
  CallInterceptor,
  CallRecord,
  CatalogOpRecord,
  DispatchedCall,
  RunRecords,
  RunScope,
} from "./run_records.ts";

/** Options of one run. */
export interface RunOptions {
  /** Override the runtime's limits for this run. */
  limits?: Partial<RunLimits>;
  /** An outer signal (program timeout): aborting it aborts every in-flight call. */
  signal?: AbortSignal;
  /** Sees or answers every dispatched call (a recording, a replay). */
  intercept?: CallInterceptor;
  /** Who approves writes when the runtime requires approval (the face's person: MCP elicitation, the terminal). */
  approver?: Approver;
  /** How long one approval may take (default `DEFAULT_APPROVAL_WAIT_MS`, capped by `APPROVAL_WAIT_CAP_MS`). */
  approvalWaitMs?: number;
}

/** The per-run state. Create with `createRunContext` or (preferably) `withRunContext`. */
export class RunContext implements RunScope {
  readonly limits: RunLimits;
  readonly #controller = new AbortController();
  #calls: CallRecord[] = [];
  #ops: CatalogOpRecord[] = [];
  /** Writes sent and not yet settled, with when they started. */
  #inFlight = new Set<{ call: Pick<CallRecord, "server" | "tool" | "args">; started: number }>();
  #closed = false;
  /** When the run opened: call records carry their start as an offset from it (`start_ms`). */
  readonly #opened = performance.now();
  #outer?: AbortSignal;
  #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  /** Tool calls attempted (bumped before validation, as in the reference). */
  callCount = 0;
  /** Discovery operations attempted. */
  catalogOpCount = 0;
  /** Calls to write tools attempted (charged against `maxWriteCalls`). */
  writeCount = 0;
  readonly intercept?: CallInterceptor;
  readonly approver?: Approver;
  readonly approvalWaitMs?: number;
  readonly approvals = new ApprovalQueue();
  #clock?: RunClock;

  /** Hold the program's clock (a person deciding about a write); a run without a sandbox clock holds nothing. */
  holdClock(): () => void {
    return this.#clock?.hold() ?? (() => {});
  }

  constructor(readonly runtime: Runtime, options: RunOptions = {}) {
    this.limits = { ...runtime.limits, ...options.limits };
    this.intercept = options.intercept;
    this.approver = options.approver;
    this.approvalWaitMs = options.approvalWaitMs;
    if (options.signal) {
      this.#outer = options.signal;
      if (options.signal.aborted) this.#controller.abort(options.signal.reason);
      else options.signal.addEventListener("abort", this.#onOuterAbort, { once: true });
    }
  }

  /** Aborted on close or when the outer signal fires. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True after close. Stale callbacks fail closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Append a call record. */
  record(r: CallRecord): void {
    if (this.#closed) return;
    const recorded = { ...r, start_ms: this.#offset(performance.now() - r.duration_ms) };
    this.#calls.push(recorded);
    this.runtime.events.publish({ type: "call", upstream: r.server, at: this.runtime.clock.now(), record: recorded });
  }

  /** Ms from the run's opening to `at` (a `performance.now()` reading), rounded to µs. */
  #offset(at: number): number {
    return Math.max(0, Math.round((at - this.#opened) * 1000) / 1000);
  }

  /** Append a discovery record. */
  recordOp(r: CatalogOpRecord): void {
    if (!this.#closed) this.#ops.push(r);
  }

  /** Hold a write that is being sent; the returned function releases it once it settled (see `RunScope`). */
  writeInFlight(call: Pick<CallRecord, "server" | "tool" | "args">): () => void {
    const entry = { call, started: performance.now() };
    this.#inFlight.add(entry);
    return () => this.#inFlight.delete(entry);
  }

  /**
   * Take the records collected so far (completion order). A write still in flight — the program ended (its deadline,
   * a cancellation) before the answer came — is recorded as `indeterminate`: it was sent, and closing the run only
   * stops ptc from waiting for the answer.
   */
  drain(): RunRecords {
    for (const { call, started } of this.#inFlight) {
      this.#calls.push({
        ...call,
        start_ms: this.#offset(started),
        status: "error",
        reason: "run_context_closed",
        message: "the run ended before the write answered — the write may or may not have been applied; " +
          "check the service before repeating it",
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        bytes: 0,
        mutation_state: "indeterminate",
      });
    }
    this.#inFlight.clear();
    const out = { calls: this.#calls, catalogOps: this.#ops };
    this.#calls = [];
    this.#ops = [];
    return out;
  }

  /** Close: abort in-flight calls; later calls return `run_context_closed`. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
    this.#controller.abort(new DOMException("run context closed", "AbortError"));
  }

  /**
   * The host tool callback for this run: `tool/call`, `tool/pages` (a loop of such calls), `tool/resources` and
   * `tool/read-resource` (MCP resources, `tool_resources.ts`), and the unlisted `budget`
   * request behind `(budget/remaining)`.
   */
  callTool(request: ToolRequest): Promise<ToolOutcome> {
    if (request.name === "budget") return Promise.resolve({ kind: "value", value: this.remaining() });
    if (request.name === "pages") return pagesTool(this, request);
    if ((RESOURCE_TOOLS as readonly string[]).includes(request.name)) return resourceTool(this, request);
    return callTool(this, request);
  }

  /**
   * What is left of this run's budgets (counts left, not used), and the per-call limits (`(budget/remaining)`; costs
   * nothing). `write_calls` only when a write tool is installed (or may be, by an upstream not started yet):
   * otherwise no call can spend it.
   */
  remaining(): JsonObject {
    const writes = this.runtime.mayInstallWrites();
    return {
      tool_calls: Math.max(0, this.limits.maxToolCalls - this.callCount),
      ...(writes ? { write_calls: Math.max(0, this.limits.maxWriteCalls - this.writeCount) } : {}),
      discovery_ops: Math.max(0, this.limits.maxCatalogOps - this.catalogOpCount),
      call_timeout_ms: this.limits.callTimeoutMs,
      max_response_bytes: this.limits.maxResponseBytes,
    };
  }

  /** The discovery host callback for this run. */
  discovery(op: DiscoveryOp, args: JsonObject): Promise<DiscoveryOutcome> {
    return discover(this, op, args);
  }

  /** Both callbacks, bound, with the host tool names they serve (`call`, `pages`, resources): the sandbox bridge's host. */
  callbacks(): HostCallbacks & { toolNames: string[] } {
    return {
      toolNames: [...HOST_TOOL_NAMES],
      callTool: (request) => this.callTool(request),
      discovery: (op, args) => this.discovery(op, args),
      attachClock: (clock) => (this.#clock = clock),
    };
  }
}

/** Create a run context (the caller must `drain()` and `close()` it; prefer `withRunContext`). */
export function createRunContext(runtime: Runtime, options?: RunOptions): RunContext {
  return new RunContext(runtime, options);
}

/** The value a run produced plus its records. */
export interface RunReport<T> extends RunRecords {
  value: T;
}

/**
 * Run `fn` with a fresh run context; always drains and closes it, also when `fn` throws (the error is rethrown
 * with the drained records attached as `records`).
 */
export async function withRunContext<T>(
  runtime: Runtime,
  fn: (ctx: RunContext) => Promise<T> | T,
  options?: RunOptions,
): Promise<RunReport<T>> {
  const ctx = new RunContext(runtime, options);
  try {
    const value = await fn(ctx);
    const records = ctx.drain();
    return { value, ...records };
  } catch (e) {
    const records = ctx.drain();
    if (e !== null && typeof e === "object") (e as { records?: RunRecords }).records = records;
    throw e;
  } finally {
    ctx.close();
  }
}
