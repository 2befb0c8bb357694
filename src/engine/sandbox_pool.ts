/**
 * The engine's one use of the sandbox: a pool of sandbox processes made at start-up (warm) or on the first
 * evaluation (lazy), closed with the engine.
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { LibrarySource } from "../lisp/mod.ts";
import { SandboxPool } from "../sandbox/mod.ts";
import type { SandboxLimits } from "../sandbox/mod.ts";

/** The engine's one use of the sandbox: a pool made now (warm) or on first use (lazy). */
export class Sandbox {
  #pool: SandboxPool | undefined;
  #closed = false;

  constructor(
    readonly options: { size: number; limits?: Partial<SandboxLimits>; heapMb?: number; libraries?: LibrarySource[] },
  ) {}

  /** The pool, made on first use. */
  get pool(): SandboxPool {
    if (!this.#pool && this.#closed) throw new Error("the engine is closed");
    this.#pool ??= new SandboxPool(this.options);
    return this.#pool;
  }

  /** Start the sandbox processes now (rejects if they cannot start). */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  stats(): JsonObject {
    return this.#pool ? { ...this.#pool.stats() } : { size: 0, idle: 0, busy: 0, sessions: 0, replaced: 0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool?.close();
  }
}
