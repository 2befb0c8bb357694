/**
 * A non-queueing concurrency gate with per-owner shares: at most `limit` evaluations run at once, and one owner at
 * most `perOwner` of them (default: half the permits, rounded up), so a client's long programs can never make
 * everyone else `busy`. A call beyond either bound is refused immediately (the caller answers `busy`) instead of
 * waiting in a queue that could grow without bound. The sandbox pool is sized to `limit`, so a permit always finds
 * a sandbox process.
 * @module
 */

/** The outcome of `tryAcquire`. */
export type Permit = { ok: true; release: () => void } | { ok: false; message: string };

/** The gate. */
export class ConcurrencyGate {
  #inFlight = 0;
  #byOwner = new Map<string, number>();
  #idle: (() => void)[] = [];
  readonly perOwner: number;

  constructor(readonly limit: number, perOwner?: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("concurrency limit must be a positive integer");
    this.perOwner = Math.min(limit, Math.max(1, perOwner ?? Math.ceil(limit / 2)));
  }

  /** Calls currently holding a permit. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Permits `owner` holds. */
  heldBy(owner: string): number {
    return this.#byOwner.get(owner) ?? 0;
  }

  /** Take a permit for `owner`, or say why not. `release` gives it back (idempotent). */
  tryAcquire(owner = "local"): Permit {
    if (this.#inFlight >= this.limit) {
      return {
        ok: false,
        message: `the server runs ${this.#inFlight} calls at once (max ${this.limit}); retry shortly`,
      };
    }
    const held = this.heldBy(owner);
    if (held >= this.perOwner) {
      return {
        ok: false,
        message: `this client already runs ${held} programs (at most ${this.perOwner} of the server's ` +
          `${this.limit} at once); retry when one finishes`,
      };
    }
    this.#inFlight++;
    this.#byOwner.set(owner, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      const left = this.heldBy(owner) - 1;
      if (left > 0) this.#byOwner.set(owner, left);
      else this.#byOwner.delete(owner);
      if (this.#inFlight === 0) {
        for (const resolve of this.#idle.splice(0)) resolve();
      }
    };
    return { ok: true, release };
  }

  /** Resolves once no permit is held (graceful shutdown waits for in-flight calls). */
  drained(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
