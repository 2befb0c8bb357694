/**
 * The process pool: pre-warmed sandbox processes for stateless evaluations, a dedicated process per session,
 * replacement of processes that crashed, ran out of memory or had to be killed, and host-side checks (program size)
 * before anything is sent. A process whose evaluation could not be handed over is discarded, never reused.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { SandboxHost } from "./bridge.ts";
import { resolveLimits, type SandboxLimits } from "./limits.ts";
import type { SandboxResult } from "./protocol.ts";
import { SandboxProcess } from "./process_handle.ts";
import { type RunResult, SandboxStopped } from "./run_result.ts";
import { DEFAULT_ENTRY, DEFAULT_HEAP_MB, type SpawnSpec } from "./spawn.ts";
import type { LibrarySource } from "../lisp/library_types.ts";

/** Options of a pool. */
export interface PoolOptions {
  /** Pre-warmed processes for stateless evaluations (default 2). */
  size?: number;
  /** Limits for every evaluation of this pool (per-evaluation limits override them). */
  limits?: Partial<SandboxLimits>;
  /** Child entry module (tests substitute a stand-in language). */
  entry?: URL;
  /** V8 heap cap of each sandbox process in MiB (default 1024); a session's cumulative memory cap derives from it. */
  heapMb?: number;
  /** Operator libraries each process loads once at start (checked by the host beforehand). */
  libraries?: LibrarySource[];
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
  /** JSON Schema the returned value must satisfy: checked in the sandbox process (result `outputCheck`). */
  outputSchema?: JsonObject;
  /**
   * Cancels the evaluation (MCP cancellation, REPL interrupt): a program waiting for a tool ends with `cancelled`
   * and keeps its process; a program busy computing cannot hear it, so its process is killed shortly after (a
   * session then reports `sessionLost`).
   */
  signal?: AbortSignal;
}

/**
 * A session result: `sessionLost` is set when the session's process had to be replaced (its definitions are gone),
 * `sessionEnded` when the session passed its memory cap and is closed.
 */
export type SessionResult = SandboxResult & { sessionLost?: boolean; sessionEnded?: boolean };

/** Counters for diagnostics and tests. */
export interface PoolStats {
  size: number;
  idle: number;
  busy: number;
  sessions: number;
  /** Processes replaced after a crash, an out-of-memory or a kill. */
  replaced: number;
  /** Heap cap of each process, MiB. */
  heapMb: number;
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
  const { abandoned: _abandoned, sessionEnded: _ended, ...rest } = r as RunResult & { sessionEnded?: boolean };
  return rest as SandboxResult;
}

/** A pool of sandbox processes. Always `close()` it. */
export class SandboxPool {
  #limits: SandboxLimits;
  #spec: SpawnSpec;
  #size: number;
  #idle: SandboxProcess[] = [];
  #all = new Set<SandboxProcess>();
  /** Every process ever started and not yet reaped (pooled and sessions): close() waits for them. */
  #spawned = new Set<SandboxProcess>();
  /** Callers waiting for a process; handed `null` when the pool closes. */
  #waiters: ((w: SandboxProcess | null) => void)[] = [];
  #sessions = new Set<SandboxSession>();
  #closed = false;
  #replaced = 0;

  constructor(options: PoolOptions = {}) {
    this.#limits = resolveLimits(options.limits);
    this.#spec = {
      entry: options.entry ?? DEFAULT_ENTRY,
      heapMb: options.heapMb ?? DEFAULT_HEAP_MB,
      libraries: options.libraries,
    };
    this.#size = Math.max(1, Math.floor(options.size ?? 2));
    for (let i = 0; i < this.#size; i++) this.#idle.push(this.#spawn());
  }

  /** Resolves once every pre-warmed process has loaded the language (rejects if they cannot start). */
  async warm(): Promise<void> {
    await Promise.all([...this.#all].map((w) => w.ready));
  }

  /** The pool's effective limits merged with `overrides`. */
  limits(overrides?: Partial<SandboxLimits>): SandboxLimits {
    return resolveLimits(this.#limits, overrides);
  }

  /** Evaluate a program in a fresh namespace on a pooled process. Never rejects for program faults. */
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

  /** Open a session: a dedicated process whose namespace persists across evaluations. Close it when done. */
  openSession(): SandboxSession {
    this.#assertOpen();
    const session = new SandboxSession(this, () => this.#spawnDedicated(), (s) => this.#sessions.delete(s));
    this.#sessions.add(session);
    return session;
  }

  /** Ask a pooled process what it may do (permission states as seen inside the sandbox). */
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
      heapMb: this.#spec.heapMb,
    };
  }

  /** Pids of the live sandbox processes (pooled and sessions; diagnostics and tests). */
  pids(): number[] {
    return [...this.#spawned].filter((p) => p.alive).map((p) => p.pid);
  }

  /** Stop every process (pooled and sessions) and wait until they are reaped. Pending evaluations end `cancelled`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of [...this.#sessions]) s.close();
    for (const w of this.#all) w.kill();
    this.#all.clear();
    this.#idle = [];
    for (const waiter of this.#waiters.splice(0)) waiter(null);
    for (const p of this.#spawned) p.kill();
    await Promise.all([...this.#spawned].map((p) => p.exited));
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

  #spawn(): SandboxProcess {
    const w = this.#spawnDedicated();
    this.#all.add(w);
    return w;
  }

  #spawnDedicated(): SandboxProcess {
    const p = SandboxProcess.spawn(this.#spec, this.#limits.maxToolResultBytes);
    this.#spawned.add(p);
    void p.exited.then(() => this.#spawned.delete(p));
    return p;
  }

  async #acquire(): Promise<SandboxProcess | null> {
    while (true) {
      const worker = this.#idle.pop() ??
        await new Promise<SandboxProcess | null>((resolve) => this.#waiters.push(resolve));
      if (!worker) return null;
      const started = await worker.ready.then(() => true, () => false);
      // A process that could not start is handed out: the evaluation reports why (no endless respawning).
      if (!started || worker.alive || this.#closed) return worker;
      // It died while idle (crash during start-up or between evaluations): replace it and take another.
      this.#release(worker);
    }
  }

  #release(worker: SandboxProcess): void {
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
  worker: SandboxProcess,
  source: string,
  mode: "fresh" | "session",
  options: EvaluateOptions,
  limits: SandboxLimits,
): Promise<RunResult> {
  try {
    await worker.ready;
  } catch (e) {
    if (e instanceof SandboxStopped) return { ...CANCELLED, abandoned: true };
    return {
      ok: false,
      reason: "internal_error",
      message: `the sandbox process failed to start: ${e instanceof Error ? e.message : String(e)}`,
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
    outputSchema: options.outputSchema,
  });
}

/**
 * A stateful evaluation context on a dedicated process: definitions, closures and `*1 *2 *3` persist between
 * evaluations; a failed evaluation rolls back its definitions. Evaluations are serialized. The process heap is the
 * session's cumulative memory cap: passing it ends the session (`sessionEnded`), it is not silently restarted.
 */
export class SandboxSession {
  #worker: SandboxProcess;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #ended = false;

  /** @internal use `SandboxPool.openSession()`. */
  constructor(
    private pool: SandboxPool,
    private spawn: () => SandboxProcess,
    private onClose: (s: SandboxSession) => void,
  ) {
    this.#worker = spawn();
  }

  /** True once the session passed its memory cap (it refuses further evaluations). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Resolves once the session's current process has loaded the language (rejects if it could not start). */
  get ready(): Promise<void> {
    return this.#worker.ready;
  }

  /** Pid of the session's process (diagnostics and tests). */
  get pid(): number {
    return this.#worker.pid;
  }

  /** Evaluate in this session's namespace. */
  eval(source: string, options: EvaluateOptions = {}): Promise<SessionResult> {
    return this.#serial(async () => {
      const limits = this.pool.limits(options.limits);
      const early = checkProgram(source, limits);
      if (early) return early;
      const result = await runOn(this.#worker, source, "session", options, limits);
      if (!result.abandoned || this.#closed) return publicResult(result);
      if (result.sessionEnded) {
        const ended = publicResult(result) as SessionResult;
        ended.sessionEnded = true;
        this.#ended = true;
        this.close();
        return ended;
      }
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

  /** Stop the session's process (idempotent). */
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
    if (this.#closed) {
      return Promise.reject(
        new Error(
          this.#ended ? "the sandbox session ended: it passed its memory cap" : "the sandbox session is closed",
        ),
      );
    }
    const next = this.#queue.then(job, job);
    this.#queue = next.catch(() => {});
    return next;
  }
}
