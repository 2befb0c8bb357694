/**
 * Lisp sessions of the MCP face (`lisp_session_*` tools): each owns a sandbox worker whose namespace persists
 * between turns. Bounded: a total cap, a per-owner cap, a TTL from creation and an idle expiry. A closed or expired
 * session frees its worker.
 * @module
 */
import type { Engine, EngineSession } from "../engine/types.ts";

/** Limits of the session manager. */
export interface SessionLimits {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  idleMs: number;
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

/** The session manager. `now` is injectable for tests. */
export class SessionManager {
  #entries = new Map<string, Entry>();
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

  /** Open a session for `owner`. */
  async start(owner: string, title = "", ttlMs?: number): Promise<SessionInfo> {
    await this.sweep();
    if (this.#entries.size >= this.limits.maxSessions) {
      throw new SessionError("session_limit", `session limit reached (${this.limits.maxSessions} open sessions)`);
    }
    const owned = [...this.#entries.values()].filter((e) => e.owner === owner).length;
    if (owned >= this.limits.maxPerOwner) {
      throw new SessionError(
        "session_limit",
        `this client already has ${owned} open sessions (max ${this.limits.maxPerOwner}); close one first`,
      );
    }
    const session = await this.engine.openSession();
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
    entry.busy = true;
    try {
      return await fn(entry.session);
    } finally {
      entry.busy = false;
      entry.evals++;
      entry.lastUsed = this.now();
      // A session that passed its memory cap closed itself: it is gone for its owner too.
      if (entry.session.closed) this.#entries.delete(id);
    }
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

  /** Number of open sessions. */
  get size(): number {
    return this.#entries.size;
  }

  /** Close expired and idle sessions. */
  async sweep(): Promise<void> {
    const t = this.now();
    const dead: Entry[] = [];
    for (const [id, e] of this.#entries) {
      if (!e.busy && (t >= e.expires || t - e.lastUsed >= this.limits.idleMs || e.session.closed)) {
        this.#entries.delete(id);
        dead.push(e);
      }
    }
    await Promise.all(dead.map((e) => e.session.close()));
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
