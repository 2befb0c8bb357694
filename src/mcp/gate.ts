/**
 * A non-queueing concurrency gate: at most `limit` evaluations run at once; one more is refused immediately
 * (the caller answers `busy`) instead of waiting in a queue that could grow without bound.
 * @module
 */

/** The gate. */
export class ConcurrencyGate {
  #inFlight = 0;
  #idle: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("concurrency limit must be a positive integer");
  }

  /** Calls currently holding a permit. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Take a permit, or return undefined when the gate is full. The returned function releases it (idempotent). */
  tryAcquire(): (() => void) | undefined {
    if (this.#inFlight >= this.limit) return undefined;
    this.#inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      if (this.#inFlight === 0) {
        for (const resolve of this.#idle.splice(0)) resolve();
      }
    };
  }

  /** Resolves once no permit is held (graceful shutdown waits for in-flight calls). */
  drained(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
