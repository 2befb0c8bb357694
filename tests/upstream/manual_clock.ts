/** A clock the test moves by hand: timers fire, in order, only inside `advance`. */
import type { Clock, TimerHandle } from "../../src/upstream/clock.ts";

export class ManualClock implements Clock {
  #now: number;
  #timers: { at: number; fn: () => void; seq: number }[] = [];
  #seq = 0;

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer = { at: this.#now + Math.max(0, ms), fn, seq: this.#seq++ };
    this.#timers.push(timer);
    return { cancel: () => this.#timers = this.#timers.filter((t) => t !== timer) };
  }

  /** Timers still pending. */
  get pending(): number {
    return this.#timers.length;
  }

  /** When the next timer fires (undefined: none pending). */
  get nextAt(): number | undefined {
    return this.#timers.reduce<number | undefined>((m, t) => m === undefined || t.at < m ? t.at : m, undefined);
  }

  /** Move time forward by `ms`, firing every timer due on the way (and letting promise callbacks run between). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    while (true) {
      await settle();
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
    await settle();
  }
}

/** Let pending promise callbacks run (a few macrotask turns). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}
