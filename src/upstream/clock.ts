/**
 * The time source of the upstream supervisors: `now()` and one-shot timers. The system clock in production; a test
 * hands in a manual clock and advances it, so backoff schedules are checked without waiting.
 * @module
 */

/** A handle returned by {@link Clock.setTimer}. */
export type TimerHandle = { cancel(): void };

/** What a supervisor reads the time from and schedules its next attempt with. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Run `fn` once after `ms` milliseconds. A `background` timer (a scheduled reconnect) never keeps the process
   * alive; any other (a caller waiting for an upstream) does.
   */
  setTimer(fn: () => void, ms: number, options?: { background?: boolean }): TimerHandle;
}

/** The real clock: `Date.now()` and `setTimeout` (unref'd in the background: a pending reconnect never keeps ptc up). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms, options) {
    const id = setTimeout(fn, ms);
    if (options?.background) Deno.unrefTimer(id);
    return { cancel: () => clearTimeout(id) };
  },
};
