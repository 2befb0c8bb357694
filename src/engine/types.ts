/**
 * The engine: one sandbox pool plus (optionally) one upstream runtime, wired together. The faces (`ptc eval`,
 * `ptc repl`, `ptc mcp`, the demo) evaluate programs through it and never touch the bridge or run contexts.
 *
 * Layering: cli → mcp, repl → engine → sandbox, upstream. The engine is the only place that knows both.
 * @module
 */
import type { Approver } from "../upstream/approval.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { CallRecord } from "../upstream/run_context.ts";
import type { RunLimits } from "../upstream/config.ts";
import type { UpstreamListener, UpstreamPhase } from "../upstream/events.ts";
import type { LibraryNamespace } from "../lisp/mod.ts";

/**
 * One upstream call made by a program (secrets already redacted): the record the run context keeps, handed to the
 * faces unchanged — one shape from the tool call to the MCP debug profile.
 */
export type { CallRecord, RunLimits };

/**
 * One tool call of an evaluation and the answer the program got (a `ToolRequest` and a `ToolOutcome` of the
 * language seam; values are upstream data, already redacted). Recorded so a program can be re-run without upstreams.
 */
export interface RecordedCall {
  request: JsonObject;
  outcome: JsonObject;
}

/** What a face asks for. */
export interface EngineEvalRequest {
  program: string;
  /** Keys become `data/<key>`. */
  context?: JsonObject;
  /** Extra global bindings (e.g. `data` for `ptc eval --data`). */
  globals?: Record<string, JsonValue>;
  /** Wall-clock limit for this program. */
  timeoutMs?: number;
  /**
   * Cancels the evaluation (e.g. MCP `notifications/cancelled`, REPL Ctrl-C): in-flight tool calls are aborted and
   * a program waiting for a tool ends with `cancelled` and a session keeps its namespace; a program busy computing
   * has its sandbox process killed, and a session then moves to a fresh process (`sessionLost`).
   */
  signal?: AbortSignal;
  /** Who asked (`ptc mcp`'s owner key: `local`, `token:<12 hex>`): written into a recording of the evaluation. */
  owner?: string;
  /** Run without upstream access: the program sees no tools and no discovery. */
  offline?: boolean;
  /**
   * JSON Schema the returned value must satisfy. It is checked inside the sandbox process, under the program's
   * deadline (a catastrophic `pattern` costs that process, never the host); the verdict is `outputCheck`.
   */
  outputSchema?: JsonObject;
  /** Return every tool call with its answer in the result's `recorded`. */
  record?: boolean;
  /**
   * Who approves this evaluation's writes when approval is on (`--approve-writes` / `approve_writes`): the MCP
   * client through elicitation, the REPL's terminal. Without one such writes end `approval_unavailable`.
   */
  approver?: Approver;
  /** How long one approval may take, ms (capped by `APPROVAL_WAIT_CAP_MS`). */
  approvalWaitMs?: number;
  /**
   * Answer tool calls from a recording instead of the upstreams (never contacted): each recorded answer is used
   * once, for an identical request; any other call fails with reason `replay_mismatch`. No discovery.
   */
  replay?: RecordedCall[];
}

/** The outcome of one evaluation, with the upstream calls it made. */
export type EngineEvalResult =
  & {
    prints: string[];
    calls: CallRecord[];
    /** Wall-clock ms of the whole evaluation, run-context set-up and tool calls included. */
    elapsedMs: number;
    /** Ms the sandbox spent evaluating (parse + analyse + run), as `ptc eval` reports it; the engine always sets it. */
    evalMs?: number;
    /**
     * Set on a session evaluation after which the session continues on a fresh sandbox process (cancelled while
     * computing, or killed after its deadline): every definition made before is gone.
     */
    sessionLost?: boolean;
    /** Set when the session passed its memory cap: the session is closed and refuses further evaluations. */
    sessionEnded?: boolean;
    /** With `record`: the tool calls made and their answers, in completion order. */
    recorded?: RecordedCall[];
    /**
     * Set when any tool call or discovery operation of the evaluation was refused for a budget (the answer may be
     * partial even though the program returned): one line per budget, with how many were refused.
     */
    budgetRefusals?: string[];
    /** How many discovery operations (`tool/servers`, `dir`, `doc`, `meta`, `apropos`) the program made. */
    discoveryOps?: number;
  }
  & (
    | {
      ok: true;
      status: "ok" | "returned" | "failed";
      printed: string;
      json: JsonValue;
      /** With `outputSchema` (and a program that did not fail): whether the value satisfied it. */
      outputCheck?: { valid: true } | { valid: false; message: string };
    }
    | { ok: false; reason: string; message: string; line?: number; column?: number }
  );

/** A stateful evaluation context that owns a sandbox process (defs, closures and `*1 *2 *3` persist). */
export interface EngineSession {
  readonly id: string;
  eval(request: EngineEvalRequest): Promise<EngineEvalResult>;
  /** Drop the namespace. */
  reset(): Promise<void>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/** A server of the catalog, as faces see it. */
export interface CatalogServer {
  name: string;
  description: string;
  transport: string;
  /** Where its supervisor is: `idle` (starts on first use), `connecting`, `ready`, `reconnecting`, `failed`, `stopped`. */
  status: UpstreamPhase;
  /** The state as one line: `ready`, `not started (starts on first use)`, `unavailable: …; next attempt in 4 s` … */
  statusText: string;
  /** Why the server is not ready (redacted), while failed or reconnecting. */
  error?: string;
  tools: CatalogTool[];
}

/** A tool of the catalog (transport-neutral view). */
export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** True when the tool's effect is read. */
  readOnly: boolean;
  /** What the tool does: the operator's declaration, else its annotations (src/upstream/install.ts). */
  effect: "read" | "write";
  provenance: JsonObject;
}

/** The engine's interface. */
export interface Engine {
  evaluate(request: EngineEvalRequest): Promise<EngineEvalResult>;
  openSession(): Promise<EngineSession>;
  /** The catalog (empty when no upstreams are configured). */
  catalog(): CatalogServer[];
  /**
   * Catalog text for prompts: inline (every tool with its signature), lazy (servers only), auto (by size); `mode`
   * defaults to the config's `catalog.exposure`. Tools a prompt-visible library `:replaces` are left out of the
   * listing (they stay callable, counted and named in their server's line).
   */
  renderCatalog(mode?: "auto" | "inline" | "lazy"): string;
  /** The full catalog as JSON (`ptc catalog --format json`, the input of `--diff`); no servers without upstreams. */
  catalogJson(): JsonObject;
  /** The `(doc 'server/tool)` text of an installed tool (redacted); undefined for an unknown tool. */
  toolDoc(server: string, tool: string): string | undefined;
  /** `text` with every secret the upstreams know replaced (what any face shows of client-written text). */
  redact(text: string): string;
  /** Server name → snapshot identity of its compiled catalog (`src/upstream/snapshot_id.ts`); empty without upstreams. */
  snapshots(): Record<string, string>;
  /** The full catalog as text, one line per tool with its signature and result type (`ptc catalog`). */
  catalogText(): string;
  /** Non-secret facts (upstreams, transports, limits). */
  diagnostics(): JsonObject;
  /**
   * Hear every upstream phase change and finished call record (src/upstream/events.ts); returns the function that
   * stops listening. Without upstreams nothing is ever heard.
   */
  subscribe(listener: UpstreamListener): () => void;
  /**
   * Start every upstream and wait until each is ready or has finished one attempt (at most the connect timeout plus
   * the call timeout): `ptc catalog` shows every catalog it can.
   */
  settleUpstreams(): Promise<void>;
  /** The per-evaluation budgets of the configured runtime (undefined without upstreams). */
  runLimits(): RunLimits | undefined;
  /** Writes wait for a person's approval (`--approve-writes` or the config's `approve_writes`). */
  approvesWrites(): boolean;
  /** The operator libraries loaded at start (namespaces with their public functions), in load order. */
  libraries(): LibraryNamespace[];
  close(): Promise<void>;
}
