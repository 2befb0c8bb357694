/**
 * The connect timeout an HTTP upstream's requests use: its own `connect_timeout_ms` and the config's
 * `limits.connect_timeout_ms` (the run's limit, passed to every transport in `TransportDeps.limits`), the smaller one
 * winning — as the call timeout bounds `request_timeout_ms`.
 * @module
 */
import type { TransportDeps } from "../../src/upstream/types.ts";

/** The smaller of the upstream's `connect_timeout_ms` and `limits.connect_timeout_ms` (a missing limit: the own). */
export function connectTimeoutOf(ownMs: number, deps: Pick<TransportDeps, "limits">): number {
  const limit = deps.limits?.connectTimeoutMs;
  return typeof limit === "number" && limit > 0 ? Math.min(ownMs, limit) : ownMs;
}
