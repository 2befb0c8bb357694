/**
 * The host's clock on one evaluation, for a program that does not stop by itself:
 * - at its deadline the host sends `abort` (a program waiting for a tool stops at once, with `timeout`);
 * - `graceMs` later the process is killed (SIGKILL) and the caller answered `timeout`: a regex or a builtin that never
 *   returns to the interpreter costs at most that long;
 * - on cancel the host sends `abort` (a program waiting for a tool stops with `cancelled` and the process is kept); a
 *   program busy computing cannot read it, so after {@link CANCEL_GRACE_MS} its process is killed.
 * @module
 */
import type { SandboxLimits } from "./limits.ts";
import { failure, type RunResult } from "./run_result.ts";

/** After a cancel, how long a program busy computing may take to reach its next tool call before it is killed. */
export const CANCEL_GRACE_MS = 250;

/** setTimeout fires at once for delays above 2^31-1 ms; longer limits are capped (about 24.8 days). */
function timerDelay(ms: number): number {
  return Math.min(ms, 2 ** 31 - 1);
}

/** What the watch does to the process and the run. */
export interface RunWatchActions {
  /** Send `abort` for this run to the process. */
  abort(why: "timeout" | "cancelled"): void;
  /** Answer the run (ignored when it already ended). */
  finish(result: RunResult): void;
  /** Kill the process. */
  kill(): void;
}

/**
 * Start the clock of a run that started at `started` under `limits`, cancelled when `signal` aborts (a run whose
 * signal was already aborted is never started: `SandboxProcess.run` answers it first). Returns the function that
 * stops every timer and the cancel listener once the run is answered.
 */
export function watchRun(
  limits: Pick<SandboxLimits, "timeoutMs" | "graceMs">,
  started: number,
  signal: AbortSignal | undefined,
  act: RunWatchActions,
): (() => void) & { hold(): () => number } {
  let abortTimer = setTimeout(() => act.abort("timeout"), timerDelay(limits.timeoutMs));
  let cancelTimer: ReturnType<typeof setTimeout> | undefined;
  const onCancel = () => {
    act.abort("cancelled");
    cancelTimer ??= setTimeout(() => {
      act.finish(
        failure("cancelled", "the evaluation was cancelled; its sandbox process was stopped", started, {
          abandoned: true,
        }),
      );
      act.kill();
    }, CANCEL_GRACE_MS);
  };
  signal?.addEventListener("abort", onCancel, { once: true });
  const timedOut = () => {
    act.finish(
      failure(
        "timeout",
        `the program did not finish within ${limits.timeoutMs} ms; its sandbox process was stopped`,
        started,
        { abandoned: true },
      ),
    );
    act.kill();
  };
  let backstop = setTimeout(timedOut, timerDelay(limits.timeoutMs + limits.graceMs));
  let held = 0;
  let heldSince = 0;
  /** Ms held in total: the deadline is `started + timeoutMs + pausedMs`. */
  let pausedMs = 0;
  const stop = () => {
    clearTimeout(abortTimer);
    clearTimeout(cancelTimer);
    clearTimeout(backstop);
    signal?.removeEventListener("abort", onCancel);
  };
  /** Stop the deadline until the returned release (which answers the ms held); holds nest. */
  const hold = (): () => number => {
    if (held++ === 0) {
      heldSince = Date.now();
      clearTimeout(abortTimer);
      clearTimeout(backstop);
    }
    let released = false;
    return () => {
      if (released) return 0;
      released = true;
      if (--held > 0) return 0;
      const ms = Date.now() - heldSince;
      pausedMs += ms;
      const left = Math.max(0, started + limits.timeoutMs + pausedMs - Date.now());
      abortTimer = setTimeout(() => act.abort("timeout"), timerDelay(left));
      backstop = setTimeout(timedOut, timerDelay(left + limits.graceMs));
      return ms;
    };
  };
  return Object.assign(stop, { hold });
}
