/**
 * Concurrent tool calls for `pmap`/`pcalls` on a synchronous interpreter, by replay: every branch runs until it
 * needs a tool result it does not have yet (it then stops with PENDING); the pending requests of all branches go to
 * the host as ONE `callBatch`; the results are appended to each branch's cache and the unfinished branches run
 * again from the start, reading earlier results from their cache, until all complete. A branch's prints are kept
 * from the run that finishes it (replays that stop at a pending call drop theirs and give back their print budget),
 * so each branch's lines appear once, together, in order of completion. Branch defs are rolled back (docs/language.md §6). Results
 * keep input order.
 * @module
 */
import { LispError } from "./errors.ts";
import type { BranchState, EvalContext } from "./runtime.ts";
import { outcomeValue, PENDING } from "./tools.ts";
import type { Value } from "./vals.ts";

/** Thrown by `(return v)` / `(fail v)`: ends the whole run successfully. */
export class ReturnSignal {
  constructor(readonly value: Value, readonly status: "returned" | "failed") {}
}

/** Undo namespace writes back to log position `mark`. */
export function undoDefs(run: EvalContext, mark: number): void {
  const log = run.defLog;
  for (let i = log.length - 1; i >= mark; i--) log[i][0].value = log[i][1];
  log.length = mark;
}

const STABLE = new Set(["timeout", "memory_limit", "step_limit_exceeded", "stack_overflow", "print_limit_exceeded"]);

function branchError(e: unknown, what: "pmap" | "pcalls", i: number): unknown {
  if (e instanceof ReturnSignal) {
    return new LispError(`${what}_error`, `${what} branch ${i}: return/fail cannot be used inside ${what}`);
  }
  if (e instanceof LispError) {
    if (e.uncatchable || STABLE.has(e.reason)) return e;
    return new LispError(`${what}_error`, `${what} branch ${i} failed: ${e.reason}: ${e.message}`);
  }
  return e;
}

/** Run zero-argument branches "in parallel" (tool calls batched per round); results in branch order. */
export function runBranches(run: EvalContext, thunks: (() => Value)[], what: "pmap" | "pcalls"): Value[] {
  const n = thunks.length;
  const out = new Array<Value>(n);
  if (run.branch !== null) {
    // Nested inside another branch: run sequentially; tool calls go through the outer branch's cache.
    for (let i = 0; i < n; i++) {
      const depth = run.depth;
      try {
        out[i] = thunks[i]();
      } catch (e) {
        run.depth = depth;
        if (e === PENDING) throw e;
        throw branchError(e, what, i);
      }
    }
    return out;
  }
  const states: BranchState[] = thunks.map(() => ({ results: [], cursor: 0, pending: null }));
  const done = new Array<boolean>(n).fill(false);
  const mark = run.defLog.length;
  const prints = run.prints;
  const onPrint = run.onPrint;
  try {
    for (;;) {
      const waiting: number[] = [];
      for (let i = 0; i < n; i++) {
        if (done[i]) continue;
        const st = states[i];
        st.cursor = 0;
        st.pending = null;
        run.branch = st;
        const depth = run.depth;
        const chars = run.printChars;
        const lines: string[] = [];
        run.prints = lines;
        run.onPrint = undefined;
        let pending = false;
        try {
          out[i] = thunks[i]();
          done[i] = true;
        } catch (e) {
          pending = e === PENDING;
          if (pending) waiting.push(i);
          else throw branchError(e, what, i);
        } finally {
          run.branch = null;
          run.depth = depth;
          run.prints = prints;
          run.onPrint = onPrint;
          if (pending) run.printChars = chars;
          else {
            for (const line of lines) {
              prints.push(line);
              if (onPrint !== undefined) onPrint(line);
            }
          }
          undoDefs(run, mark);
        }
      }
      if (waiting.length === 0) return out;
      const reqs = waiting.map((i) => states[i].pending!);
      const outcomes = run.tools!.callBatch(reqs);
      waiting.forEach((i, k) => {
        const o = outcomes[k];
        states[i].results.push(
          o === undefined
            ? outcomeValue({ kind: "raise", reason: "tool_error", message: "tool batch returned too few results" }, "")
            : outcomeValue(o, reqs[k].name),
        );
      });
    }
  } finally {
    run.prints = prints;
    run.onPrint = onPrint;
    run.branch = null;
  }
}
