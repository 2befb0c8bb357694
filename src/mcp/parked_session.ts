/**
 * A session that holds a sandbox process only while it is used: after `parkAfterMs` without an evaluation its
 * process is closed (the session is *parked*), and the next evaluation brings the namespace back on a fresh process
 * by re-running, in order, every program that evaluated successfully before — each with the tool answers it
 * received then, so no tool call is ever repeated: a write never, a read neither. Prints of the
 * re-runs are discarded. The session keeps values, not the calls that made them.
 *
 * What a re-run cannot reproduce, and what happens then:
 * - values computed from the clock (`(System/currentTimeMillis)`, dates) or the time a budget had left are computed
 *   anew; a program whose control flow depended on them may take another path and ask for a tool call it did not
 *   make — that call fails with `replay_mismatch`;
 * - an upstream answer that contained a configured secret was recorded redacted, so it comes back redacted;
 * - discovery (`tool/servers`, `doc`, `apropos`, `dir`, `meta`) is not answered during a re-run: a program that used it
 *   cannot be re-run;
 * - `*e` (the last error) is not restored: failed programs rolled their definitions back and are not re-run.
 * Any program that fails to re-run ends the restore: the evaluation runs on a fresh namespace and is answered with
 * `session_lost` (as when a process is killed), never silently on a half-restored one.
 *
 * A session whose log of programs and answers passes `maxLogChars` is pinned: it keeps its process (and so its full
 * memory cost) rather than forget how to restore itself.
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { Engine, EngineEvalRequest, EngineEvalResult, EngineSession, RecordedCall } from "../engine/types.ts";

/** Options of a parked session. */
export interface ParkingOptions {
  /** Close the process after this long without an evaluation. */
  parkAfterMs: number;
  /** Characters (JSON) of programs, contexts and answers kept for the restore; past it the session is pinned. */
  maxLogChars: number;
  /** Wall-clock limit of each re-run program. */
  replayTimeoutMs: number;
  /** What a pinned session is counted as against the memory budget (its process's heap cap), bytes. */
  pinnedBytes?: number;
  /** Idle sessions that may keep their process until their timer; more park at once, least recently used first. */
  maxLive?: number;
}

/** Defaults: park after 5 s idle; keep up to 8 MiB of log per session; 30 s per re-run program. */
export const DEFAULT_PARKING: ParkingOptions = {
  parkAfterMs: 5_000,
  maxLogChars: 8 * 1024 * 1024,
  replayTimeoutMs: 30_000,
};

interface LoggedProgram {
  program: string;
  context?: JsonObject;
  calls: RecordedCall[];
}

/** Counters of all parked sessions of a process (tests, metrics). */
export const parkingStats = { parked: 0, restored: 0, restoreFailed: 0 };

/** An `EngineSession` that parks itself when idle (see the module comment). */
export class ParkedSession implements EngineSession {
  readonly id = crypto.randomUUID();
  #live: EngineSession | undefined;
  #log: LoggedProgram[] = [];
  #chars = 0;
  #pinned = false;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly engine: Engine, private readonly options: ParkingOptions = DEFAULT_PARKING) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** True while the session holds a sandbox process. */
  get holdsProcess(): boolean {
    return this.#live !== undefined;
  }

  /**
   * What the session costs the server between evaluations, for the memory budget: its log (about two bytes a
   * character), or when pinned, its process's heap cap.
   */
  get footprintBytes(): number {
    return this.#pinned ? (this.options.pinnedBytes ?? 1024 * 1024 * 1024) : this.#chars * 2;
  }

  /** True once the log passed its cap: the session keeps its process. */
  get pinned(): boolean {
    return this.#pinned;
  }

  async eval(request: EngineEvalRequest): Promise<EngineEvalResult> {
    if (this.#closed) throw new Error("the session is closed");
    clearTimeout(this.#timer);
    try {
      const lost = this.#live ? undefined : await this.#revive(request.signal);
      const live = this.#live!;
      const result = await live.eval({ ...request, record: true });
      const recorded = result.recorded ?? [];
      if (!request.record) delete result.recorded;
      if (result.sessionEnded || live.closed) {
        this.#closed = true;
        this.#forget();
        this.#live = undefined;
        return result;
      }
      if (result.sessionLost) this.#forget();
      else if (result.ok) this.#append({ program: request.program, context: request.context, calls: recorded });
      if (lost) {
        result.sessionLost = true;
        if (!result.ok) result.message += ` (${lost})`;
      }
      return result;
    } finally {
      this.#schedulePark();
    }
  }

  async reset(): Promise<void> {
    this.#forget();
    await this.#live?.reset();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#forget();
    const live = this.#live;
    this.#live = undefined;
    await live?.close();
  }

  /** Park now (tests; the timer does it otherwise). */
  async park(): Promise<void> {
    clearTimeout(this.#timer);
    if (this.#pinned || !this.#live) return;
    const live = this.#live;
    this.#live = undefined;
    parkingStats.parked++;
    await live.close();
  }

  #schedulePark(): void {
    clearTimeout(this.#timer);
    if (this.#closed || this.#pinned || !this.#live) return;
    this.#timer = setTimeout(() => void this.park(), this.options.parkAfterMs);
    Deno.unrefTimer(this.#timer);
  }

  #append(entry: LoggedProgram): void {
    this.#chars += entry.program.length + (entry.context ? JSON.stringify(entry.context).length : 0) +
      (entry.calls.length ? JSON.stringify(entry.calls).length : 0);
    this.#log.push(entry);
    if (this.#chars > this.options.maxLogChars) {
      this.#pinned = true;
      this.#log = [];
    }
  }

  #forget(): void {
    this.#log = [];
    this.#chars = 0;
  }

  /**
   * Open a fresh process and re-run the log on it with the recorded answers. Returns why the namespace could not be
   * restored (it is then empty, the log forgotten), or undefined when it was.
   */
  async #revive(signal?: AbortSignal): Promise<string | undefined> {
    const live = await this.engine.openSession();
    this.#live = live;
    if (this.#log.length === 0 || this.#pinned) return undefined;
    for (const [i, entry] of this.#log.entries()) {
      const r = await live.eval({
        program: entry.program,
        context: entry.context,
        timeoutMs: this.options.replayTimeoutMs,
        replay: entry.calls,
        signal,
      });
      if (!r.ok || r.sessionLost || r.sessionEnded) {
        parkingStats.restoreFailed++;
        const why = r.ok ? "its process was replaced" : `${r.reason}: ${r.message.split("\n")[0].slice(0, 200)}`;
        this.#forget();
        await live.reset().catch(() => {});
        return `the session's earlier definitions could not be restored (program ${i + 1} of its history: ${why})`;
      }
    }
    parkingStats.restored++;
    return undefined;
  }
}
