/**
 * The one reconnect policy of every upstream: capped exponential backoff. After `n` consecutive failures the next
 * attempt waits `min(maxMs, initialMs × 2^(n-1))`; there is no attempt limit — ptc keeps trying for as long as it
 * runs, so an upstream that comes back is used again without a restart of ptc.
 * @module
 */

/** `reconnect_backoff_ms` and `reconnect_max_backoff_ms` of an upstream. */
export interface BackoffPolicy {
  /** The first delay after a failure. @default 500 */
  initialMs: number;
  /** The longest delay. @default 30000 */
  maxMs: number;
}

/** The default policy (docs/configuration.md, "Starting and reconnecting"). */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 30_000 };

/** The wait before the next attempt after `failures` consecutive failures (0 → no wait). */
export function backoffDelay(policy: BackoffPolicy, failures: number): number {
  if (failures <= 0) return 0;
  // 2^(failures-1) overflows to Infinity long after the cap, and min() handles Infinity.
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(failures - 1, 60));
}
