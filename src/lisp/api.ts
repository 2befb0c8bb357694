/**
 * The seam between the PTC-Lisp language (src/lisp) and whatever hosts it (src/sandbox, tests): options, budgets
 * and results of one evaluation, sessions and builtin docs.
 *
 * src/lisp knows nothing about upstreams, transports, MCP, files or the network. Everything from the outside world
 * reaches a program through the tool seam (`HostTools`, `DiscoveryBackend` in src/core/tool_seam.ts), handed in by
 * the host for one evaluation.
 *
 * All host functions are SYNCHRONOUS: inside a sandbox process they block on a read of the pipe while the host
 * does the asynchronous work (docs/architecture.md, docs/sandbox-internals.md).
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { DiscoveryBackend, HostTools } from "../core/tool_seam.ts";

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
  /**
   * Ms the host has held the program's clock so far (a person deciding about a write); the deadline moves by it. Not
   * serializable: the sandbox process supplies it.
   */
  paused?: () => number;
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
    /** JSON projection of the value (docs/language.md §2: keywords → strings, functions → "#fn[...]", sets → arrays). */
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
  /** Evaluate a program. A failed evaluation rolls back its defs (docs/language.md §3); a successful one updates `*1 *2 *3`. */
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
