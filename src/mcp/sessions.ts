/**
 * Lisp sessions of the MCP face (`lisp_session_*` tools): each has a namespace that persists between turns, on a
 * sandbox worker of its own (with parking, only while it is used). Bounded: a total cap, a per-owner cap, a TTL from creation and an idle expiry. A closed or expired
 * session frees its worker.
 * @module
 */
import type { Engine, EngineSession } from "../engine/types.ts";
import { ParkedSession, type ParkingOptions } from "./parked_session.ts";

/** Limits of the session manager. */
export interface SessionLimits {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  idleMs: number;
  /**
   * When set, a session holds a sandbox process only while it is used: it parks after `parkAfterMs` idle and is
   * restored on its next evaluation (src/mcp/parked_session.ts). Absent: each session keeps its process.
   */
  parking?: ParkingOptions;
  /**
   * With parking: what all sessions may hold between evaluations (their logs; a pinned session counts its heap cap).
   * Past it, session starts and evaluations are refused with `memory_budget` until sessions close or expire.
   */
  memoryBudgetBytes?: number;
}

/** Defaults: 64 sessions, 16 per owner, 30 min TTL, 15 min idle. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessions: 64,
  maxPerOwner: 16,
  ttlMs: 30 * 60_000,
  idleMs: 15 * 60_000,
};

/** What the manager knows of a session. */
export interface SessionInfo {
  session_id: string;
  owner: string;
  title: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  evals: number;
}

interface Entry {
  session: EngineSession;
  owner: string;
  title: string;
  created: number;
  lastUsed: number;
  expires: number;
  evals: number;
  busy: boolean;
}

/** A refused session operation, with a stable reason. */
export class SessionError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = "SessionError";
  }
}

/**
 * The session manager. `now` is injectable for tests.
 *
 * Caps hold under concurrency: `start` checks both caps and reserves its slot in the same synchronous step, before it
 * awaits anything (the engine's session start); a start that fails gives its slot back. Open sessions plus starts in
 * progress never exceed `maxSessions`, nor `maxPerOwner` for one owner.
 */
export class SessionManager {
  #entries = new Map<string, Entry>();
  /** Starts in progress per owner: slots reserved before the engine's session exists. */
  #starting = new Map<string, number>();
  #startingTotal = 0;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly engine: Engine,
    readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Start the periodic expiry sweep (unref'd so it never keeps the process alive). */
  startSweeper(intervalMs = 30_000): void {
    if (this.#sweeper !== undefined) return;
    const timer = setInterval(() => void this.sweep(), intervalMs);
    Deno.unrefTimer(timer);
    this.#sweeper = timer;
  }

  /** Open a session for `owner`; refused with `session_limit` when a cap is reached (counting starts in progress). */
  async start(owner: string, title = "", ttlMs?: number): Promise<SessionInfo> {
    const release = this.#reserve(owner);
    let session: EngineSession;
    try {
      session = this.limits.parking
        ? new ParkedSession(this.engine, this.limits.parking)
        : await this.engine.openSession();
    } catch (e) {
      throw new SessionError("internal_error", e instanceof Error ? e.message : String(e));
    } finally {
      release();
    }
    const t = this.now();
    const ttl = Math.min(ttlMs ?? this.limits.ttlMs, this.limits.ttlMs);
    const entry: Entry = {
      session,
      owner,
      title,
      created: t,
      lastUsed: t,
      expires: t + ttl,
      evals: 0,
      busy: false,
    };
    this.#entries.set(session.id, entry);
    return this.#info(session.id, entry);
  }

  /**
   * Check both caps and take a slot, synchronously (no await between the count and the reservation): expired
   * sessions are dropped first. Returns the function that gives the slot back once the session is in the table.
   */
  /** Bytes all sessions hold between evaluations (parked sessions only; others are bounded by their process). */
  get footprintBytes(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.session instanceof ParkedSession) n += e.session.footprintBytes;
    return n;
  }

  #checkBudget(): void {
    const budget = this.limits.memoryBudgetBytes;
    if (budget === undefined) return;
    const used = this.footprintBytes;
    if (used < budget) return;
    const mib = (b: number) => Math.round(b / (1024 * 1024));
    throw new SessionError(
      "memory_budget",
      `the server's sessions hold about ${mib(used)} MiB, at their budget of ${mib(budget)} MiB ` +
        "(--session-memory-budget-mb): close sessions you no longer need, or retry once others expire",
    );
  }

  #reserve(owner: string): () => void {
    // Closing is not awaited: the table is already right for the count below.
    for (const e of this.#expire()) void e.session.close().catch(() => {});
    this.#checkBudget();
    if (this.#entries.size + this.#startingTotal >= this.limits.maxSessions) {
      throw new SessionError("session_limit", `session limit reached (${this.limits.maxSessions} open sessions)`);
    }
    let owned = this.#starting.get(owner) ?? 0;
    for (const e of this.#entries.values()) if (e.owner === owner) owned++;
    if (owned >= this.limits.maxPerOwner) {
      throw new SessionError(
        "session_limit",
        `this client already has ${owned} open sessions (max ${this.limits.maxPerOwner}); close one first`,
      );
    }
    this.#starting.set(owner, (this.#starting.get(owner) ?? 0) + 1);
    this.#startingTotal++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#startingTotal--;
      const left = (this.#starting.get(owner) ?? 1) - 1;
      if (left > 0) this.#starting.set(owner, left);
      else this.#starting.delete(owner);
    };
  }

  /** Evaluate in a session; refuses unknown, foreign, expired or busy sessions. */
  async use<T>(owner: string, id: string, fn: (s: EngineSession) => Promise<T>): Promise<T> {
    await this.sweep();
    const entry = this.#entries.get(id);
    if (!entry || entry.owner !== owner) {
      throw new SessionError("unknown_session", `no open session '${id}' (it may have expired or been closed)`);
    }
    if (entry.busy) {
      throw new SessionError("busy", `session '${id}' is already evaluating a program`);
    }
    this.#checkBudget();
    entry.busy = true;
    try {
      return await fn(entry.session);
    } finally {
      entry.busy = false;
      entry.evals++;
      entry.lastUsed = this.now();
      // A session that passed its memory cap closed itself: it is gone for its owner too.
      if (entry.session.closed) this.#entries.delete(id);
      this.#parkBeyondLimit();
    }
  }

  /**
   * With parking, at most `parking.maxLive` idle sessions keep their process until their park timer: beyond that the
   * least recently used are parked at once, so sessions used in quick succession cannot pile up processes.
   */
  #parkBeyondLimit(): void {
    const max = this.limits.parking?.maxLive;
    if (max === undefined) return;
    const live = [...this.#entries.values()]
      .filter((e) => !e.busy && e.session instanceof ParkedSession && e.session.holdsProcess && !e.session.pinned)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const e of live.slice(0, Math.max(0, live.length - max))) void (e.session as ParkedSession).park();
  }

  /** Sessions of an owner. */
  list(owner: string): SessionInfo[] {
    return [...this.#entries.entries()].filter(([, e]) => e.owner === owner).map(([id, e]) => this.#info(id, e));
  }

  /** Close a session; returns false when it was not open for this owner. */
  async close(owner: string, id: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (!entry || entry.owner !== owner) return false;
    this.#entries.delete(id);
    await entry.session.close();
    return true;
  }

  /** Open sessions that hold a sandbox process now. */
  get holdingProcess(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (!(e.session instanceof ParkedSession) || e.session.holdsProcess) n++;
    return n;
  }

  /** Number of open sessions. */
  get size(): number {
    return this.#entries.size;
  }

  /** Close expired and idle sessions. */
  async sweep(): Promise<void> {
    await Promise.all(this.#expire().map((e) => e.session.close()));
  }

  /** Drop expired, idle and self-closed sessions from the table (synchronously); returns them, to be closed. */
  #expire(): Entry[] {
    const t = this.now();
    const dead: Entry[] = [];
    for (const [id, e] of this.#entries) {
      if (!e.busy && (t >= e.expires || t - e.lastUsed >= this.limits.idleMs || e.session.closed)) {
        this.#entries.delete(id);
        dead.push(e);
      }
    }
    return dead;
  }

  /** Close everything (shutdown). */
  async closeAll(): Promise<void> {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => e.session.close()));
  }

  #info(id: string, e: Entry): SessionInfo {
    return {
      session_id: id,
      owner: e.owner,
      title: e.title,
      created_at: new Date(e.created).toISOString(),
      last_used_at: new Date(e.lastUsed).toISOString(),
      expires_at: new Date(Math.min(e.expires, e.lastUsed + this.limits.idleMs)).toISOString(),
      evals: e.evals,
    };
  }
}
