/**
 * Sandbox limits: generous defaults, merging, conversion to the language's `EvalLimits`, and parsing from
 * command-line flags (shared by `ptc eval`, `ptc repl` and `ptc mcp`).
 *
 * Which layer enforces what:
 * - the interpreter (cooperatively, uncatchable by programs): steps, allocation (`memory_limit`), prints, call
 *   depth, reader depth and the deadline (`timeout`);
 * - the host: program size (before anything is sent), the wall-clock backstop (a process that does not answer
 *   `graceMs` after its deadline is killed and replaced), result size and tool-answer size; the heap cap of the
 *   sandbox process (V8 `--max-old-space-size`) bounds memory behind the allocation budget.
 * @module
 */
import type { EvalLimits } from "../lisp/api.ts";
import { DEFAULT_EVAL_LIMITS } from "../lisp/default_limits.ts";

/** Every budget of one sandboxed evaluation. */
export interface SandboxLimits {
  /** Wall-clock time for one evaluation, in ms. Reason `timeout`. */
  timeoutMs: number;
  /** Extra time the host waits past the deadline before killing a sandbox process that does not stop. */
  graceMs: number;
  /** Interpreter steps (calls + loop iterations). Reason `step_limit_exceeded`. */
  maxSteps: number;
  /** Approximate bytes the program may allocate. Reason `memory_limit`. */
  maxAllocBytes: number;
  /** Total characters of println output. Reason `print_limit_exceeded`. */
  maxPrintChars: number;
  /** Characters of one println entry before truncation (not an error). */
  maxPrintLength: number;
  /** Program source size in UTF-8 bytes. Reason `program_too_large`. */
  maxProgramBytes: number;
  /** Reader nesting depth. Reason `parse_error`. */
  maxDepth: number;
  /** Call-stack depth. Reason `stack_overflow`. */
  maxCallDepth: number;
  /** Characters of the printed result. Reason `result_too_large`. */
  maxResultChars: number;
  /**
   * Bytes of one tool (or batch) answer crossing the bridge; larger answers become `response_too_large`. Fixed per
   * process when it is spawned: only the pool-level value applies.
   */
  maxToolResultBytes: number;
}

/**
 * Defaults: sized so that iterating 100,000 items or handling multi-MB tool results is normal work. The language's
 * budgets are its own defaults (`src/lisp/runtime.ts`); only the host-side keys are set here.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeoutMs: 10_000,
  graceMs: 1_000,
  ...DEFAULT_EVAL_LIMITS,
  maxResultChars: 16 * 1024 * 1024,
  maxToolResultBytes: 64 * 1024 * 1024,
});

/** Merge partial limits over the defaults (later arguments win; undefined entries are ignored). */
export function resolveLimits(...layers: (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const out: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer) as [keyof SandboxLimits, number | undefined][]) {
      if (value === undefined) continue;
      if (!Object.hasOwn(DEFAULT_SANDBOX_LIMITS, key)) throw new Error(`unknown sandbox limit '${key}'`);
      if (typeof value !== "number" || !(value >= 0)) {
        throw new Error(`sandbox limit '${key}' must be a non-negative number, got ${String(value)}`);
      }
      out[key] = value;
    }
  }
  return out;
}

/** The language-side budgets for one evaluation that must end by `deadline` (epoch ms). */
export function toEvalLimits(limits: SandboxLimits, deadline: number): EvalLimits {
  return {
    maxSteps: limits.maxSteps,
    maxAllocBytes: limits.maxAllocBytes,
    maxPrintChars: limits.maxPrintChars,
    maxPrintLength: limits.maxPrintLength,
    maxProgramBytes: limits.maxProgramBytes,
    maxDepth: limits.maxDepth,
    maxCallDepth: limits.maxCallDepth,
    deadline,
  };
}

/** Flag name → [limit key, multiplier from the flag's unit, help text]. */
const FLAG_TABLE = {
  "timeout-ms": ["timeoutMs", 1, "wall-clock time per evaluation in ms"],
  "max-steps": ["maxSteps", 1, "interpreter steps (calls + loop iterations)"],
  "max-memory-mb": ["maxAllocBytes", 1024 * 1024, "MiB the program may allocate"],
  "max-print-chars": ["maxPrintChars", 1, "total characters of println output"],
  "max-program-bytes": ["maxProgramBytes", 1, "program source size in bytes"],
  "max-result-chars": ["maxResultChars", 1, "characters of the printed result"],
} as const satisfies Record<string, readonly [keyof SandboxLimits, number, string]>;

/** `node:util` parseArgs option specs for the limit flags; spread them into a command's options. */
export const LIMIT_FLAG_OPTIONS: Record<keyof typeof FLAG_TABLE, { type: "string" }> = Object.fromEntries(
  Object.keys(FLAG_TABLE).map((name) => [name, { type: "string" as const }]),
) as Record<keyof typeof FLAG_TABLE, { type: "string" }>;

/** A limit flag with a bad value; the message names the flag (commands turn it into a usage error, exit 2). */
export class LimitFlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LimitFlagError";
  }
}

/** Read the limit flags out of parsed flag values; bad numbers throw LimitFlagError naming the flag. */
export function limitsFromFlags(values: Record<string, unknown>): Partial<SandboxLimits> {
  const out: Partial<SandboxLimits> = {};
  for (const [flag, [key, unit]] of Object.entries(FLAG_TABLE)) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (typeof raw !== "string" || !/^\d+$/.test(raw)) {
      throw new LimitFlagError(`--${flag} expects a whole number, got '${String(raw)}'`);
    }
    const n = Number(raw);
    if (n < 1) throw new LimitFlagError(`--${flag} must be at least 1, got ${raw}`);
    if (n * unit > Number.MAX_SAFE_INTEGER) {
      throw new LimitFlagError(
        `--${flag} is too large (at most ${Math.floor(Number.MAX_SAFE_INTEGER / unit)}), got ${raw}`,
      );
    }
    out[key] = n * unit;
  }
  return out;
}

/** Help lines describing the limit flags and their defaults. */
export function limitsUsage(): string[] {
  return Object.entries(FLAG_TABLE).map(([flag, [key, unit, help]]) => {
    const dflt = DEFAULT_SANDBOX_LIMITS[key] / unit;
    return `  --${flag} N`.padEnd(28) + `${help} (default ${dflt})`;
  });
}
