/**
 * One supervised lifecycle per upstream. The supervisor owns the upstream's connection (what its transport's
 * `start` returned), its phase and its one reconnect policy:
 *
 * ```
 * idle ──start()──► connecting ──ok──► ready ──connection lost──► reconnecting ──ok──► ready
 *                        │                                            │
 *                        └──fails──► failed ◄─────────fails───────────┘
 *                                      │  (next attempt after the capped backoff) ──► connecting
 * any ──stop()──► stopped
 * ```
 *
 * - `idle`: nothing started yet; the first call (or a background start) moves it on.
 * - `connecting`: an attempt is running (the first one, or the next one after `failed`).
 * - `ready`: connected; calls go to the connection.
 * - `reconnecting`: a ready connection was lost (its `closed` settled); the next attempt runs now or at
 *   `nextAttemptAt` (a connection that keeps dying right after it came up backs off like failed attempts).
 * - `failed`: the last attempt failed (`cause` says why); the next one is scheduled at `nextAttemptAt`. Not final:
 *   ptc keeps trying with capped backoff for as long as it runs.
 * - `stopped`: `stop()` was called; final.
 *
 * Every change is published as a `PhaseEvent` (events.ts). Callers never retry by themselves: `whenReady` waits
 * for the connection within a deadline, and joins at most one attempt.
 * @module
 */
import type { Upstream } from "./types.ts";
import { backoffDelay, type BackoffPolicy } from "./backoff.ts";
import type { Clock, TimerHandle } from "./clock.ts";
import type { UpstreamCause, UpstreamEvents, UpstreamPhase } from "./events.ts";

export type { UpstreamCause, UpstreamPhase } from "./events.ts";

/** What a supervisor needs: how to make one connection attempt and what to do with a connection. */
export interface SupervisorOptions {
  /** The upstream's name (events and messages). */
  name: string;
  /** One attempt: the transport's `start` with its deps. Throws on failure. */
  connect: () => Promise<Upstream>;
  /** Called with each new connection before the supervisor reports `ready` (the runtime installs its tools). */
  onConnected?: (connection: Upstream) => void;
  /** A failed attempt's error as a redacted cause (closed code and message naming the upstream). */
  describe: (error: unknown) => UpstreamCause;
  backoff: BackoffPolicy;
  clock: Clock;
  events: UpstreamEvents;
  /** Diagnostics log (lines are prefixed and redacted by the caller). */
  log: (message: string) => void;
}

/** How long `stop()` waits for an attempt in flight before leaving it to close itself when it ends. */
const STOP_WAIT_MS = 2_000;

/** The phase, connection and schedule of one upstream. */
export class UpstreamSupervisor {
  readonly name: string;
  #opts: SupervisorOptions;
  #phase: UpstreamPhase = "idle";
  #connection: Upstream | undefined;
  #cause: UpstreamCause | undefined;
  #nextAttemptAt: number | undefined;
  #timer: TimerHandle | undefined;
  #attempt: Promise<void> | undefined;
  /** Consecutive failed attempts and short-lived connections (the backoff's exponent). */
  #failures = 0;
  #readySince = 0;
  /** Settled (and replaced) on every phase change: what `whenReady` waits on. */
  #changed = Promise.withResolvers<void>();
  /** Successful connections after the first. */
  #reconnects = 0;

  constructor(options: SupervisorOptions) {
    this.name = options.name;
    this.#opts = options;
  }

  /** The current phase. */
  get phase(): UpstreamPhase {
    return this.#phase;
  }

  /** The live connection while `ready`. */
  get connection(): Upstream | undefined {
    return this.#phase === "ready" ? this.#connection : undefined;
  }

  /** Why the upstream is not ready (the last failure), while failed or reconnecting. */
  get cause(): UpstreamCause | undefined {
    return this.#phase === "failed" || this.#phase === "reconnecting" ? this.#cause : undefined;
  }

  /** Epoch ms of the next scheduled attempt, if one is scheduled. */
  get nextAttemptAt(): number | undefined {
    return this.#timer ? this.#nextAttemptAt : undefined;
  }

  /** Connections made after the first one (diagnostics). */
  get reconnects(): number {
    return this.#reconnects;
  }

  /** True while an attempt is running. */
  get attempting(): boolean {
    return this.#attempt !== undefined;
  }

  /** idle → connecting: start the first attempt without waiting for it. No-op in any other phase. */
  start(): void {
    if (this.#phase === "idle") this.#beginAttempt("connecting");
  }

  /**
   * The connection once ready, or undefined when it is not ready by `deadline` (epoch ms of the supervisor's clock)
   * or `signal` aborts. Starts an idle upstream, joins an attempt in flight, and waits for a scheduled attempt that
   * begins before the deadline — at most one attempt: when it fails, the answer is undefined at once.
   */
  async whenReady(deadline: number, signal?: AbortSignal): Promise<Upstream | undefined> {
    this.start();
    let joined = false;
    while (true) {
      if (this.#phase === "ready") return this.#connection;
      if (this.#phase === "stopped" || signal?.aborted) return undefined;
      if (this.#attempt) joined = true;
      else if (joined) return undefined; // the attempt we waited for failed
      else if (this.#nextAttemptAt === undefined || this.#nextAttemptAt > deadline) return undefined;
      const left = deadline - this.#opts.clock.now();
      if (left <= 0) return undefined;
      await this.#changeWithin(left, signal);
    }
  }

  /** Any phase → stopped: cancel the schedule, close the connection, let an attempt in flight close its own. */
  async stop(): Promise<void> {
    if (this.#phase === "stopped") return;
    this.#timer?.cancel();
    this.#timer = undefined;
    const attempt = this.#attempt;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#moveTo("stopped");
    if (connection) await this.#close(connection);
    if (attempt) {
      let timer: TimerHandle | undefined;
      await Promise.race([attempt, new Promise<void>((r) => timer = this.#opts.clock.setTimer(r, STOP_WAIT_MS))]);
      timer?.cancel();
    }
  }

  /** Wait until the next phase change, at most `ms`, or until `signal` aborts. */
  async #changeWithin(ms: number, signal?: AbortSignal): Promise<void> {
    let timer: TimerHandle | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        this.#changed.promise,
        new Promise<void>((resolve) => {
          timer = this.#opts.clock.setTimer(resolve, ms);
          onAbort = resolve;
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      timer?.cancel();
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  #moveTo(to: UpstreamPhase): void {
    const from = this.#phase;
    this.#phase = to;
    const faulty = to === "failed" || to === "reconnecting";
    this.#opts.events.publish({
      type: "phase",
      upstream: this.name,
      from,
      to,
      at: this.#opts.clock.now(),
      ...(faulty && this.#cause ? { cause: this.#cause } : {}),
      ...(faulty && this.#timer && this.#nextAttemptAt !== undefined ? { nextAttemptAt: this.#nextAttemptAt } : {}),
    });
    this.#notify();
  }

  /** Wake whoever waits in `whenReady`. */
  #notify(): void {
    const changed = this.#changed;
    this.#changed = Promise.withResolvers<void>();
    changed.resolve();
  }

  /** Run one attempt now; `phase` is the phase to show while it runs (connecting, or reconnecting after a loss). */
  #beginAttempt(phase: "connecting" | "reconnecting"): void {
    this.#timer = undefined;
    this.#nextAttemptAt = undefined;
    const attempt: Promise<void> = this.#opts.connect().then(
      (connection) => this.#connected(attempt, connection),
      (error) => this.#attemptFailed(attempt, error),
    );
    this.#attempt = attempt;
    if (this.#phase !== phase) this.#moveTo(phase);
    else this.#notify(); // waiters learn that the scheduled attempt began
  }

  /** An attempt connected: → ready (or closed again when ptc stopped meanwhile). */
  async #connected(attempt: Promise<void>, connection: Upstream): Promise<void> {
    if (this.#attempt === attempt) this.#attempt = undefined;
    if (this.#phase === "stopped") return await this.#close(connection);
    try {
      this.#opts.onConnected?.(connection);
    } catch (error) {
      await this.#close(connection);
      return this.#attemptFailed(undefined, error);
    }
    if (this.#readySince > 0) this.#reconnects++;
    this.#connection = connection;
    this.#cause = undefined;
    this.#readySince = this.#opts.clock.now();
    this.#moveTo("ready");
    connection.closed?.then(
      (why) => this.#lost(connection, why),
      () => this.#lost(connection, "the connection closed"),
    );
  }

  /** An attempt failed: → failed, the next attempt scheduled after the backoff. */
  #attemptFailed(attempt: Promise<void> | undefined, error: unknown): void {
    if (attempt && this.#attempt === attempt) this.#attempt = undefined;
    if (this.#phase === "stopped") return;
    this.#cause = this.#opts.describe(error);
    this.#failures++;
    this.#scheduleIn(backoffDelay(this.#opts.backoff, this.#failures), "connecting");
    this.#moveTo("failed");
  }

  /** ready → reconnecting when the current connection ends by itself. */
  #lost(connection: Upstream, why: string): void {
    if (this.#phase !== "ready" || this.#connection !== connection) return;
    this.#connection = undefined;
    // A connection that lived at least the longest backoff was healthy: start counting failures afresh.
    if (this.#opts.clock.now() - this.#readySince >= this.#opts.backoff.maxMs) this.#failures = 0;
    this.#cause = { code: "connection_lost", message: `upstream ${this.name}: ${why}` };
    this.#opts.log(`${why}; reconnecting`);
    this.#close(connection);
    const delay = backoffDelay(this.#opts.backoff, this.#failures);
    this.#failures++;
    if (delay === 0) this.#beginAttempt("reconnecting");
    else {
      this.#scheduleIn(delay, "reconnecting");
      this.#moveTo("reconnecting");
    }
  }

  #scheduleIn(delay: number, phase: "connecting" | "reconnecting"): void {
    this.#nextAttemptAt = this.#opts.clock.now() + delay;
    this.#timer = this.#opts.clock.setTimer(
      () => {
        if (this.#phase === "stopped") return;
        this.#beginAttempt(phase);
      },
      delay,
      { background: true },
    );
  }

  async #close(connection: Upstream): Promise<void> {
    try {
      await connection.stop();
    } catch (e) {
      this.#opts.log(`stop failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
