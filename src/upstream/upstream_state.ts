/**
 * How an upstream's state reads to a person or a model: one short label for catalogs and `(tool/servers)`, and
 * the message of a call that found it not ready (the cause — refused, TLS, auth, command not found, crashed,
 * restarting — and when ptc tries again).
 * @module
 */
import type { UpstreamCause, UpstreamPhase } from "./events.ts";

/** The state facts of one upstream (a `UpstreamSnapshot` has them). */
export interface StateFacts {
  name: string;
  state: UpstreamPhase;
  cause?: UpstreamCause;
  /** Epoch ms of the next attempt, when one is scheduled. */
  next_attempt_at?: number;
}

/** "in 4 s" / "in 350 ms" / "now". */
function after(at: number | undefined, now: number): string {
  if (at === undefined) return "shortly";
  const ms = Math.max(0, at - now);
  if (ms === 0) return "now";
  return ms < 1000 ? `in ${ms} ms` : `in ${Math.round(ms / 1000)} s`;
}

/** The cause without the `upstream <name>: ` prefix the transports' messages carry. */
function bareCause(facts: StateFacts): string | undefined {
  const m = facts.cause?.message;
  if (m === undefined) return undefined;
  const prefix = `upstream ${facts.name}: `;
  return m.split("\n").map((line) => line.startsWith(prefix) ? line.slice(prefix.length) : line).join("; ");
}

/**
 * One label for listings: `ready`, `not started (starts on first use)`, `starting`, `unavailable: <cause>; next
 * attempt in 4 s`, `restarting: <cause>; …`, `stopped`. Without `now` the label leaves out when (a prompt's text
 * must not change every second).
 */
export function stateLabel(facts: StateFacts, now?: number): string {
  switch (facts.state) {
    case "ready":
      return "ready";
    case "idle":
      return "not started (starts on first use)";
    case "connecting":
      return "starting";
    case "stopped":
      return "stopped";
    case "failed": {
      const when = now === undefined ? "ptc tries again later" : `next attempt ${after(facts.next_attempt_at, now)}`;
      return `unavailable: ${bareCause(facts) ?? "start failed"}; ${when}`;
    }
    case "reconnecting": {
      const when = now === undefined || facts.next_attempt_at === undefined
        ? "reconnecting"
        : `next attempt ${after(facts.next_attempt_at, now)}`;
      return `restarting: ${bareCause(facts) ?? "connection lost"}; ${when}`;
    }
  }
}

/** The message of a call to an upstream that was not ready within the call's time. */
export function unavailableMessage(facts: StateFacts, now: number, callTimeoutMs: number): string {
  const n = facts.name;
  switch (facts.state) {
    case "failed":
      return `upstream ${n} is unavailable: ${bareCause(facts) ?? "it failed to start"}; ptc tries again ` +
        `${after(facts.next_attempt_at, now)}`;
    case "reconnecting":
      return `upstream ${n} is restarting: ${bareCause(facts) ?? "its connection was lost"}; ` +
        (facts.next_attempt_at !== undefined
          ? `ptc tries again ${after(facts.next_attempt_at, now)}`
          : "still reconnecting after this call's time ran out");
    case "connecting":
    case "idle":
      return `upstream ${n} is still starting (not ready within this call's ${callTimeoutMs} ms); call again shortly`;
    case "stopped":
      return `upstream ${n} is stopped (ptc is shutting down)`;
    case "ready":
      return `upstream ${n} closed its connection during the call; ptc is reconnecting`;
  }
}
