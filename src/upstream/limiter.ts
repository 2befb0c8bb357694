/**
 * The per-upstream request limiter (`max_concurrent_requests`): at most `max` calls to one upstream are in flight;
 * the others wait in arrival order, each at most until its own deadline (the call's budget inside the run's
 * deadline) or until its run ends. A call that could not get a slot was never sent.
 * @module
 */

/** Give the slot back (call exactly once; later calls do nothing). */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

/** A FIFO counting semaphore with bounded waits. */
export class RequestLimiter {
  #active = 0;
  #queue: Waiter[] = [];
  #peak = 0;

  constructor(readonly max: number) {}

  /** Calls in flight now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** The most calls that were in flight at once. */
  get peak(): number {
    return this.#peak;
  }

  /** A slot, or undefined when none freed up within `waitMs` or `signal` aborted first. */
  acquire(waitMs: number, signal?: AbortSignal): Promise<Release | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (this.#active < this.max && this.#queue.length === 0) return Promise.resolve(this.#take());
    return new Promise((resolve) => {
      const done = (release: Release | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(release);
      };
      const waiter: Waiter = { grant: (release) => done(release) };
      const giveUp = () => {
        const i = this.#queue.indexOf(waiter);
        if (i >= 0) this.#queue.splice(i, 1);
        done(undefined);
      };
      const onAbort = () => giveUp();
      const timer = setTimeout(giveUp, Math.max(0, waitMs));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #take(): Release {
    this.#active++;
    if (this.#active > this.#peak) this.#peak = this.#active;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      const next = this.#queue.shift();
      if (next) next.grant(this.#take());
    };
  }
}
