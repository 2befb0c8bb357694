/**
 * The seam between the PTC-Lisp language (src/lisp) and whatever hosts it (src/sandbox, tests).
 *
 * src/lisp knows nothing about upstreams, transports, MCP, files or the network. Everything from the outside world
 * reaches a program through the functions declared here, handed in by the host for one evaluation.
 *
 * All host functions are SYNCHRONOUS: inside the sandbox worker they block on a SharedArrayBuffer while the host
 * thread does the asynchronous work (ARCHITECTURE.md §3).
 */

/** Plain JSON data as it crosses the language boundary. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * What a host tool call produced. `tool/call` (the aggregator) answers with `tagged` outcomes; a plain host tool may
 * answer with `value`. `raise` is a programmer fault that ends the program with `reason`.
 */
export type ToolOutcome =
  | { kind: "value"; value: JsonValue }
  | { kind: "tagged"; ok: true; value: JsonValue; valueKind: "json" | "text" | "none" }
  | { kind: "tagged"; ok: false; reason: string; message: string }
  | { kind: "raise"; reason: string; message: string };

/** One tool request as the language hands it to the host (arguments already converted at the boundary, §5.1). */
export interface ToolRequest {
  /** The host tool name after `tool/`, e.g. `"call"`. */
  name: string;
  /**
   * Arguments. For `tool/call` the program's forms `(tool/call 'srv/t {...})` and `(tool/call {:server … :tool …
   * :args …})` are both normalized by the language into `{server, tool, args}`.
   */
  args: JsonObject;
}

/** Host tools callable as `tool/<name>`. */
export interface HostTools {
  /** Names of tools callable as `tool/<name>` (used by the static unknown-tool check). */
  names(): string[];
  /** Perform one call, synchronously. */
  call(request: ToolRequest): ToolOutcome;
  /** Perform several calls concurrently (used by `pmap`/`pcalls`); results in request order. */
  callBatch(requests: ToolRequest[]): ToolOutcome[];
}

/** Discovery operations that go to the host backend (§5.3 of the language digest). */
export type DiscoveryOp = "servers" | "apropos" | "dir" | "doc" | "meta";

/**
 * Discovery outcome. `ok.result` is JSON; for `doc` it is the text to print; for `meta`/`servers` maps whose keys the
 * language turns into keywords when `keywordKeys` is true.
 */
export type DiscoveryOutcome =
  | { kind: "ok"; result: JsonValue; keywordKeys?: boolean }
  | { kind: "world_fault"; reason: string; message: string }
  | { kind: "programmer_fault"; message: string };

/** The host's discovery backend: upstream catalog lookups. Local builtins are resolved by the language first. */
export interface DiscoveryBackend {
  exec(op: DiscoveryOp, args: JsonObject): DiscoveryOutcome;
}

/** Budgets the host sets for one evaluation. Exceeding any ends the run with its own reason; `try` cannot catch it. */
export interface EvalLimits {
  /** Interpreter steps (calls + loop iterations). Reason `step_limit_exceeded`. Default 50,000,000. */
  maxSteps?: number;
  /** Approximate bytes allocated for collections/strings by the program. Reason `memory_limit`. Default 256 MiB. */
  maxAllocBytes?: number;
  /** Total characters of println output per run. Reason `print_limit_exceeded`. Default 1,000,000. */
  maxPrintChars?: number;
  /** Characters of one println entry before truncation (not an error). Default 2,000. */
  maxPrintLength?: number;
  /** Source size in bytes. Reason `program_too_large`. Default 1,000,000. */
  maxProgramBytes?: number;
  /** Reader nesting depth. Reason `parse_error`. Default 256. */
  maxDepth?: number;
  /** Call-stack depth of the running program. Reason `stack_overflow`. Default 1,000 (within the JS stack's reach). */
  maxCallDepth?: number;
  /**
   * Wall-clock deadline (epoch ms). The interpreter checks it cooperatively (reason `timeout`); the host also
   * terminates the worker if the interpreter does not stop in time.
   */
  deadline?: number;
  /**
   * Checked together with the deadline (every few thousand steps): returns why the host wants the evaluation to stop
   * now (`cancelled` — e.g. REPL Ctrl-C, MCP cancellation — or `timeout`), or null to go on. Lets a CPU-bound program
   * stop promptly without the host having to kill its worker. Not serializable: the sandbox worker supplies it.
   */
  interrupt?: () => "cancelled" | "timeout" | null;
}

/** Options of one evaluation. */
export interface EvalOptions {
  tools?: HostTools;
  discovery?: DiscoveryBackend;
  /** Keys become `data/<key>` (flex lookup). */
  context?: JsonObject;
  /** Extra top-level bindings visible as plain symbols, e.g. `data` for `ptc eval --data FILE`. */
  globals?: Record<string, JsonValue>;
  limits?: EvalLimits;
  /** Called for each println line as it happens (in addition to `prints` in the result). */
  onPrint?: (line: string) => void;
}

/** How a successful run ended: normally, via `(return v)` or via `(fail v)`. */
export type EvalStatus = "ok" | "returned" | "failed";

/** The outcome of one evaluation. `value` is the language's internal value; hosts use `printed`/`json`. */
export type EvalResult =
  | {
    ok: true;
    status: EvalStatus;
    /** Internal value (only meaningful inside the worker that produced it). */
    value: unknown;
    /** The printer form of the value (deterministic). */
    printed: string;
    /** JSON projection of the value (§2.9: keywords → strings, functions → "#fn[...]", sets → arrays). */
    json: JsonValue;
    prints: string[];
    /** Steps consumed (for diagnostics / benchmarks). */
    steps: number;
  }
  | {
    ok: false;
    /** Stable reason keyword without the colon, e.g. `type_error`, `timeout`, `memory_limit`. */
    reason: string;
    /** Human-readable message (no stack traces). Parse errors include `line N, column M`. */
    message: string;
    prints: string[];
    line?: number;
    column?: number;
  };

/** A stateful evaluation context: the user namespace (defs), `*1 *2 *3` and `*e` persist across evaluations. */
export interface LispSession {
  /** Evaluate a program. A failed evaluation rolls back its defs (§3.7); a successful one updates `*1 *2 *3`. */
  eval(source: string, options?: EvalOptions): EvalResult;
  /** Drop every def and the history. */
  reset(): void;
  /** Names defined in the user namespace, sorted. */
  definedNames(): string[];
}

/** Documentation of a builtin or special form, for `doc`, `:doc` and the MCP language card. */
export interface BuiltinDoc {
  name: string;
  /** e.g. `["[f coll]", "[f c1 c2]"]`. */
  arglists: string[];
  doc: string;
  /** e.g. `"sequences"`, `"maps"`, `"strings"`. */
  section: string;
}
