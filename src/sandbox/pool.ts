/**
 * The worker pool: pre-warmed workers for stateless evaluations, dedicated workers for sessions, replacement of
 * workers that crashed or had to be abandoned, and host-side checks (program size) before anything is sent.
 * @module
 */
import type { JsonObject, JsonValue } from "../lisp/api.ts";
import type { SandboxHost } from "./bridge.ts";
import { resolveLimits, type SandboxLimits } from "./limits.ts";
import type { SandboxResult } from "./protocol.ts";
import { DEFAULT_WORKER_URL, type RunResult, SandboxWorker } from "./worker_handle.ts";

/** Options of a pool. */
export interface PoolOptions {
  /** Pre-warmed workers for stateless evaluations (default 2). */
  size?: number;
  /** Limits for every evaluation of this pool (per-evaluation limits override them). */
  limits?: Partial<SandboxLimits>;
  /** Worker entry module (tests substitute a stand-in language). */
  workerUrl?: URL;
}

/** Options of one evaluation. */
export interface EvaluateOptions {
  /** Tools and discovery for this evaluation (absent: the program can call no tools). */
  host?: SandboxHost;
  /** Keys become `data/<key>`. Pass the same object again to avoid re-sending it to a worker. */
  context?: JsonObject;
  /** Extra top-level bindings (e.g. `data`). Pass the same object again to avoid re-sending it. */
  globals?: Record<string, JsonValue>;
  limits?: Partial<SandboxLimits>;
  /** Receives println lines as they happen. */
  onPrint?: (line: string) => void;
  /**
   * Cancels the evaluation (MCP cancellation, REPL interrupt): tool calls in flight and later ones fail with reason
   * `cancelled`, which ends the program. A program busy computing stops at its next tool call or at its deadline
   * (the interpreter has no other interruption point).
   */
  signal?: AbortSignal;
}

/** A session result: `sessionLost` is set when the session's worker had to be replaced (its definitions are gone). */
export type SessionResult = SandboxResult & { sessionLost?: boolean };

/** Counters for diagnostics and tests. */
export interface PoolStats {
  size: number;
  idle: number;
  busy: number;
  sessions: number;
  /** Workers replaced after a crash or an abandoned (non-stopping) evaluation. */
  replaced: number;
}

const utf8 = new TextEncoder();

/** Host-side program size check (before a worker is involved). */
function checkProgram(source: string, limits: SandboxLimits): SandboxResult | null {
  const bytes = utf8.encode(source).length;
  if (bytes <= limits.maxProgramBytes) return null;
  return {
    ok: false,
    reason: "program_too_large",
    message: `the program is ${bytes} bytes; the limit is ${limits.maxProgramBytes} bytes`,
    prints: [],
    elapsedMs: 0,
  };
}

const CANCELLED: SandboxResult = Object.freeze({
  ok: false,
  reason: "cancelled",
  message: "the sandbox was shut down before the evaluation started",
  prints: [],
  elapsedMs: 0,
});

function publicResult(r: RunResult): SandboxResult {
  const { abandoned: _abandoned, ...rest } = r;
  return rest;
}

/** A pool of sandbox workers. Always `close()` it. */
export class SandboxPool {
  #limits: SandboxLimits;
  #url: URL;
  #size: number;
  #idle: SandboxWorker[] = [];
  #all = new Set<SandboxWorker>();
  /** Callers waiting for a worker; handed `null` when the pool closes. */
  #waiters: ((w: SandboxWorker | null) => void)[] = [];
  #sessions = new Set<SandboxSession>();
  #closed = false;
  #replaced = 0;

  constructor(options: PoolOptions = {}) {
    this.#limits = resolveLimits(options.limits);
    this.#url = options.workerUrl ?? DEFAULT_WORKER_URL;
    this.#size = Math.max(1, Math.floor(options.size ?? 2));
    for (let i = 0; i < this.#size; i++) this.#idle.push(this.#spawn());
  }

  /** Resolves once every pre-warmed worker has loaded the language (rejects if they cannot start). */
  async warm(): Promise<void> {
    await Promise.all([...this.#all].map((w) => w.ready));
  }

  /** The pool's effective limits merged with `overrides`. */
  limits(overrides?: Partial<SandboxLimits>): SandboxLimits {
    return resolveLimits(this.#limits, overrides);
  }

  /** Evaluate a program in a fresh namespace on a pooled worker. Never rejects for program faults. */
  async evaluate(source: string, options: EvaluateOptions = {}): Promise<SandboxResult> {
    this.#assertOpen();
    const limits = this.limits(options.limits);
    const early = checkProgram(source, limits);
    if (early) return early;
    const worker = await this.#acquire();
    if (!worker) return CANCELLED;
    let result: RunResult;
    try {
      result = await runOn(worker, source, "fresh", options, limits);
    } finally {
      this.#release(worker);
    }
    return publicResult(result);
  }

  /** Open a session: a dedicated worker whose namespace persists across evaluations. Close it when done. */
  openSession(): SandboxSession {
    this.#assertOpen();
    const session = new SandboxSession(this, () => this.#spawnDedicated(), (s) => this.#sessions.delete(s));
    this.#sessions.add(session);
    return session;
  }

  /** Ask a pooled worker what it may do (permission states as seen inside the sandbox). */
  async probe(): Promise<JsonValue> {
    this.#assertOpen();
    const worker = await this.#acquire();
    if (!worker) throw new Error("the sandbox pool is closed");
    try {
      return await worker.control("probe");
    } finally {
      this.#release(worker);
    }
  }

  /** Current counters. */
  stats(): PoolStats {
    const pooled = [...this.#all].filter((w) => w.alive);
    return {
      size: this.#size,
      idle: this.#idle.length,
      busy: pooled.filter((w) => w.busy).length,
      sessions: this.#sessions.size,
      replaced: this.#replaced,
    };
  }

  /** Stop every worker (pooled and sessions). Pending evaluations end with reason `cancelled`. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const s of [...this.#sessions]) s.close();
    for (const w of this.#all) w.kill();
    this.#all.clear();
    this.#idle = [];
    for (const waiter of this.#waiters.splice(0)) waiter(null);
    return Promise.resolve();
  }

  /** @internal used by sessions to count replacements. */
  noteReplaced(): void {
    this.#replaced++;
  }

  /** @internal */
  get closed(): boolean {
    return this.#closed;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error("the sandbox pool is closed");
  }

  #spawn(): SandboxWorker {
    const w = SandboxWorker.spawn(this.#url, this.#limits.maxToolResultBytes);
    this.#all.add(w);
    return w;
  }

  #spawnDedicated(): SandboxWorker {
    return SandboxWorker.spawn(this.#url, this.#limits.maxToolResultBytes);
  }

  async #acquire(): Promise<SandboxWorker | null> {
    while (true) {
      const worker = this.#idle.pop() ??
        await new Promise<SandboxWorker | null>((resolve) => this.#waiters.push(resolve));
      if (!worker) return null;
      const started = await worker.ready.then(() => true, () => false);
      // A worker that could not start is handed out: the evaluation reports why (no endless respawning).
      if (!started || worker.alive || this.#closed) return worker;
      // It died while idle (crash during start-up or between evaluations): replace it and take another.
      this.#release(worker);
    }
  }

  #release(worker: SandboxWorker): void {
    if (this.#closed) {
      worker.kill();
      return;
    }
    let next = worker;
    if (!worker.alive) {
      this.#all.delete(worker);
      worker.kill();
      this.#replaced++;
      next = this.#spawn();
    }
    const waiter = this.#waiters.shift();
    if (waiter) waiter(next);
    else this.#idle.push(next);
  }
}

async function runOn(
  worker: SandboxWorker,
  source: string,
  mode: "fresh" | "session",
  options: EvaluateOptions,
  limits: SandboxLimits,
): Promise<RunResult> {
  try {
    await worker.ready;
  } catch (e) {
    return {
      ok: false,
      reason: "internal_error",
      message: `the sandbox worker failed to start: ${e instanceof Error ? e.message : String(e)}`,
      prints: [],
      elapsedMs: 0,
      abandoned: true,
    };
  }
  return await worker.run(source, {
    mode,
    host: options.host,
    context: options.context,
    globals: options.globals,
    limits,
    onPrint: options.onPrint,
    signal: options.signal,
  });
}

/**
 * A stateful evaluation context on a dedicated worker: definitions, closures and `*1 *2 *3` persist between
 * evaluations; a failed evaluation rolls back its definitions. Evaluations are serialized.
 */
export class SandboxSession {
  #worker: SandboxWorker;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** @internal use `SandboxPool.openSession()`. */
  constructor(
    private pool: SandboxPool,
    private spawn: () => SandboxWorker,
    private onClose: (s: SandboxSession) => void,
  ) {
    this.#worker = spawn();
  }

  /** Evaluate in this session's namespace. */
  eval(source: string, options: EvaluateOptions = {}): Promise<SessionResult> {
    return this.#serial(async () => {
      const limits = this.pool.limits(options.limits);
      const early = checkProgram(source, limits);
      if (early) return early;
      const result = await runOn(this.#worker, source, "session", options, limits);
      if (!result.abandoned || this.#closed) return publicResult(result);
      this.#replaceWorker();
      const lost = publicResult(result) as SessionResult;
      if (!lost.ok) {
        lost.message += " (the session's definitions were lost; it continues with a fresh namespace)";
      }
      lost.sessionLost = true;
      return lost;
    });
  }

  /** Drop every definition and the history. */
  reset(): Promise<void> {
    return this.#serial(async () => {
      await this.#worker.control("reset");
    });
  }

  /** Names defined in the session, sorted. */
  definedNames(): Promise<string[]> {
    return this.#serial(async () => (await this.#worker.control("names")) as string[]);
  }

  /** Stop the session's worker (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.kill();
    this.onClose(this);
  }

  #replaceWorker(): void {
    this.#worker.kill();
    this.pool.noteReplaced();
    this.#worker = this.spawn();
  }

  #serial<T>(job: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("the sandbox session is closed"));
    const next = this.#queue.then(job, job);
    this.#queue = next.catch(() => {});
    return next;
  }
}
