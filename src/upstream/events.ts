/**
 * Typed events of the upstream runtime: every phase change of an upstream's supervisor and every finished call
 * record. Metrics and the viewer subscribe here instead of polling diagnostics. Publishing is synchronous and a
 * listener that throws is dropped from that delivery only (it never breaks a call or a reconnect).
 * @module
 */
import type { CallRecord } from "./call_record.ts";

/** Where an upstream is in its life (src/upstream/supervisor.ts). */
export type UpstreamPhase = "idle" | "connecting" | "ready" | "reconnecting" | "failed" | "stopped";

/** Why an upstream is not ready: a closed code (e.g. `connection_refused`, `crashed`) and a redacted message. */
export interface UpstreamCause {
  code: string;
  message: string;
}

/** An upstream moved from one phase to another. */
export interface PhaseEvent {
  type: "phase";
  upstream: string;
  from: UpstreamPhase;
  to: UpstreamPhase;
  /** Epoch ms of the change (the supervisor's clock). */
  at: number;
  /** Set when the upstream is not ready because of a fault (failed, reconnecting). */
  cause?: UpstreamCause;
  /** Epoch ms of the next scheduled attempt (failed, reconnecting). */
  nextAttemptAt?: number;
}

/** A tool call finished (any outcome) and was recorded in its run. */
export interface CallEvent {
  type: "call";
  upstream: string;
  /** Epoch ms when the record was made. */
  at: number;
  record: CallRecord;
}

/** Everything the runtime publishes. */
export type UpstreamEvent = PhaseEvent | CallEvent;

/** A subscriber; it sees every event published after it subscribed. */
export type UpstreamListener = (event: UpstreamEvent) => void;

/** A small synchronous emitter: `subscribe` returns the function that unsubscribes. */
export class UpstreamEvents {
  #listeners = new Set<UpstreamListener>();

  /** Hear every later event; call the returned function to stop. */
  subscribe(listener: UpstreamListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Deliver one event to every listener, in subscription order. */
  publish(event: UpstreamEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // a broken subscriber must not break the upstream that published
      }
    }
  }
}
