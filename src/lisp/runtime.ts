/**
 * The evaluation context: everything about the evaluation in progress — budgets (steps, allocation, prints, call
 * depth, deadline), captured prints, the host seam (tools, discovery), the `data/…` context, the undo log of defs and
 * the pmap branch state. Each session owns one, reset at the start of every evaluation; analysis hands it to every
 * node it compiles (`ProgramCtx.run`), closures carry it in their `FnInfo`, and builtins receive it as their `ctx`.
 * Nothing about the running evaluation lives in a module variable.
 * @module
 */
import type { DiscoveryBackend, HostTools } from "../core/tool_seam.ts";
import type { JsonObject } from "../core/json.ts";
import type { EvalLimits } from "./api.ts";
import { LispError, type LispErrorReason } from "./errors.ts";
import { type Builtin, type BuiltinContext, BuiltinFn } from "./builtins/table.ts";
import { callValue } from "./values/fn.ts";
import type { Value } from "./values/types.ts";
import type { LibraryIndex } from "./library_types.ts";

export { DEFAULT_EVAL_LIMITS } from "./default_limits.ts";
import { DEFAULT_EVAL_LIMITS } from "./default_limits.ts";

/** Steps between two cooperative deadline checks. */
const CHECK_EVERY = 4096;

/** A budget error: ends the run; no program form can intercept it. */
export function limitError(reason: LispErrorReason, message: string): LispError {
  return new LispError(reason, message, undefined, true);
}

/** Per-branch state while `pmap`/`pcalls` branches run under the replay scheme (see pmap.ts). */
export interface BranchState {
  /** Tool outcomes already obtained for this branch, in call order (already converted to values). */
  results: unknown[];
  /** Index of the next tool call of the current replay. */
  cursor: number;
  /** The request this branch is waiting for, when it stopped. */
  pending: { name: string; args: JsonObject } | null;
}

/** The context of a session's evaluations (see the module doc); also what builtins get as `ctx`. */
export class EvalContext implements BuiltinContext {
  steps = 0;
  /** Next step count at which `slowCheck` must run (min of the step budget and the next deadline check). */
  nextCheck = 0;
  maxSteps = DEFAULT_EVAL_LIMITS.maxSteps;
  deadline = Infinity;
  /** Host interrupt probe (see EvalLimits.interrupt). */
  interrupt: (() => "cancelled" | "timeout" | null) | undefined = undefined;
  /** Host clock holds so far (see EvalLimits.paused). */
  paused: (() => number) | undefined = undefined;
  allocBytes = 0;
  maxAllocBytes = DEFAULT_EVAL_LIMITS.maxAllocBytes;
  printChars = 0;
  maxPrintChars = DEFAULT_EVAL_LIMITS.maxPrintChars;
  maxPrintLength = DEFAULT_EVAL_LIMITS.maxPrintLength;
  depth = 0;
  maxCallDepth = DEFAULT_EVAL_LIMITS.maxCallDepth;
  prints: string[] = [];
  onPrint: ((line: string) => void) | undefined = undefined;
  tools: HostTools | undefined = undefined;
  discovery: DiscoveryBackend | undefined = undefined;
  /** Non-null while a pmap/pcalls branch runs. */
  branch: BranchState | null = null;
  /** Undo log of namespace writes made by this evaluation: [cell, previous value]. */
  defLog: [{ value: unknown }, unknown][] = [];
  /** Journal of `task` results (id → value) handed in by the host, if any. */
  journal: Map<string, unknown> | null = null;
  /** `(step-done id summary)` records, in order. */
  summaries: [string, string][] = [];
  /** The evaluation's context map (`data/…`). */
  context: Value = null;
  /** The source of the program now running (positions in code an earlier evaluation defined would mislead). */
  source: string | undefined = undefined;
  /** The operator libraries loaded into this process (kept across evaluations; discovery reads them). */
  libraries: LibraryIndex | undefined = undefined;
  /** The function value of each builtin the programs of this context refer to (one per builtin: `(= inc inc)`). */
  private readonly fns = new Map<Builtin, BuiltinFn>();

  /** Reset for a new evaluation with the given limits. */
  reset(limits: EvalLimits | undefined): void {
    const l = { ...DEFAULT_EVAL_LIMITS, ...(limits ?? {}) };
    this.steps = 0;
    this.maxSteps = l.maxSteps;
    this.deadline = limits?.deadline ?? Infinity;
    this.interrupt = limits?.interrupt;
    this.paused = limits?.paused;
    this.nextCheck = Math.min(this.maxSteps, CHECK_EVERY);
    this.allocBytes = 0;
    this.maxAllocBytes = l.maxAllocBytes;
    this.printChars = 0;
    this.maxPrintChars = l.maxPrintChars;
    this.maxPrintLength = l.maxPrintLength;
    this.depth = 0;
    this.maxCallDepth = l.maxCallDepth;
    this.prints = [];
    this.onPrint = undefined;
    this.tools = undefined;
    this.discovery = undefined;
    this.branch = null;
    this.defLog = [];
    this.journal = null;
    this.summaries = [];
    this.context = null;
    this.source = undefined;
  }

  /** Drop the references to the host and to the evaluation's data once it has ended. */
  release(): void {
    this.tools = undefined;
    this.discovery = undefined;
    this.onPrint = undefined;
    this.context = null;
  }

  /** The function value of builtin `b` in this context: calling it charges this context's budgets. */
  builtinFn(b: Builtin): BuiltinFn {
    let f = this.fns.get(b);
    if (f === undefined) {
      f = new BuiltinFn(b, this);
      this.fns.set(b, f);
    }
    return f;
  }

  /** Call any callable value (BuiltinContext). */
  callFn(f: Value, args: Value[]): Value {
    return callValue(f, args);
  }

  /** The deadline, moved by the time the host held the program's clock. */
  deadlineNow(): number {
    return this.deadline + (this.paused?.() ?? 0);
  }

  /** Called when `steps` reaches `nextCheck`: enforces the step budget and the deadline. */
  slowCheck(): void {
    if (this.steps >= this.maxSteps) {
      throw limitError(
        "step_limit_exceeded",
        `Step budget exhausted (${this.maxSteps} steps): the program runs too long; check for an endless loop`,
      );
    }
    if (Date.now() > this.deadlineNow()) {
      throw limitError("timeout", "Evaluation timed out (wall-clock deadline reached)");
    }
    const stop = this.interrupt?.();
    if (stop === "cancelled") throw limitError("cancelled", "Evaluation cancelled by the host");
    if (stop === "timeout") throw limitError("timeout", "Evaluation timed out (the host's deadline passed)");
    this.nextCheck = Math.min(this.maxSteps, this.steps + CHECK_EVERY);
  }

  /** Count `n` steps (loop iterations, calls). */
  step(n = 1): void {
    if ((this.steps += n) >= this.nextCheck) this.slowCheck();
  }

  /** Account `bytes` of allocation; raises `memory_limit` past the budget. */
  alloc(bytes: number): void {
    if ((this.allocBytes += bytes) > this.maxAllocBytes) {
      throw limitError(
        "memory_limit",
        `Allocation budget exhausted (${Math.round(this.maxAllocBytes / 1048576)} MiB): the program builds too ` +
          `much data (runaway growth?)`,
      );
    }
  }

  /**
   * Record one println entry (already rendered), applying the per-entry and total print budgets. Documentation
   * printed by `doc` (`whole`) is exempt from the per-entry cut — a tool's Result<…> shape is its most useful
   * part — but still counts against the total budget.
   */
  print(line: string, whole = false): void {
    let entry = line;
    if (!whole && entry.length > this.maxPrintLength) {
      entry = `${entry.slice(0, this.maxPrintLength)}... (${this.maxPrintLength}/${entry.length} chars)`;
    }
    this.printChars += entry.length;
    if (this.printChars > this.maxPrintChars) {
      throw limitError("print_limit_exceeded", `Print budget exhausted (${this.maxPrintChars} characters of output)`);
    }
    this.prints.push(entry);
    if (this.onPrint !== undefined) this.onPrint(entry);
  }

  /** Raise `stack_overflow` (called when `depth` passed `maxCallDepth`). */
  tooDeep(): never {
    throw limitError(
      "stack_overflow",
      `Call depth exceeded (${this.maxCallDepth} nested calls): runaway recursion? Use loop/recur`,
    );
  }
}

/** Convert a JS engine failure (RangeError from a too-deep stack, out of memory) into a LispError. */
export function hostFault(e: unknown, run: EvalContext): LispError {
  if (e instanceof LispError) return e;
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return limitError(
      "stack_overflow",
      `Call stack exhausted after ${run.depth} nested calls: runaway recursion? Use loop/recur`,
    );
  }
  if (e instanceof RangeError && /(Invalid (string|array) length|allocation failed)/i.test(e.message)) {
    return limitError("memory_limit", "Value too large: the program builds too much data");
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new LispError("internal_error", `Internal error: ${msg}`);
}
