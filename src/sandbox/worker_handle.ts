/**
 * One sandbox worker as seen from the host: spawns it with no permissions, hands it its mailbox, runs one
 * evaluation at a time with a wall-clock backstop, and reports crashes.
 *
 * In Deno 2.9 `worker.terminate()` does not interrupt a worker that is busy in JavaScript (the thread keeps
 * running), and a worker that exhausts the V8 heap aborts the whole process. So the interpreter's cooperative
 * deadline, step and allocation checks are what stop a runaway program. The host backstop abandons a worker that
 * missed its deadline by `graceMs` (terminates it, which works when it is blocked or idle, and never reuses it) so
 * the caller gets its `timeout` answer and the pool a fresh worker.
 * @module
 */
import type { JsonObject, JsonValue } from "../lisp/api.ts";
import { HostBridge, type SandboxHost } from "./bridge.ts";
import { type SandboxLimits, toEvalLimits } from "./limits.ts";
import {
  type CachedPayload,
  createMailbox,
  createOutbox,
  type EvalMessage,
  type HostMessage,
  type SandboxResult,
  type WorkerMessage,
} from "./protocol.ts";

/** The production worker entry. */
export const DEFAULT_WORKER_URL: URL = new URL("./worker.ts", import.meta.url);

/** Options of one run on a worker. */
export interface RunOptions {
  mode: "fresh" | "session";
  host?: SandboxHost;
  context?: JsonObject;
  globals?: Record<string, JsonValue>;
  limits: SandboxLimits;
  onPrint?: (line: string) => void;
  /** Cancels the run: pending and later tool calls fail with `cancelled` (see `EvaluateOptions.signal`). */
  signal?: AbortSignal;
}

/** Result of a run; `abandoned` is set when the worker had to be given up (it must not be reused). */
export type RunResult = SandboxResult & { abandoned?: boolean };

const payloadIds = new WeakMap<object, number>();
let nextPayloadId = 1;
function payloadId(value: object): number {
  let id = payloadIds.get(value);
  if (id === undefined) {
    id = nextPayloadId++;
    payloadIds.set(value, id);
  }
  return id;
}

/** setTimeout fires at once for delays above 2^31-1 ms; longer limits are capped (about 24.8 days). */
function timerDelay(ms: number): number {
  return Math.min(ms, 2 ** 31 - 1);
}

interface Pending {
  id: number;
  resolve: (r: RunResult) => void;
  onPrint?: (line: string) => void;
  started: number;
}

/** A live worker. Create with `SandboxWorker.spawn`, await `ready`, then `run` one evaluation at a time. */
export class SandboxWorker {
  /** Resolves when the worker loaded the language and holds its mailbox; rejects if it failed to start. */
  readonly ready: Promise<void>;
  #worker: Worker;
  #bridge: HostBridge;
  #dead = false;
  #nextId = 1;
  #run: Pending | null = null;
  #replies = new Map<number, (v: JsonValue) => void>();
  #held: { context?: number; globals?: number } = {};
  #settleReady!: (error?: Error) => void;

  private constructor(url: URL, maxAnswerBytes: number) {
    const mailbox = createMailbox(maxAnswerBytes);
    const outbox = createOutbox();
    this.#bridge = new HostBridge(mailbox, outbox, maxAnswerBytes);
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settleReady = (error) => (error ? reject(error) : resolve());
    });
    // A start-up failure is reported through `ready` and through the next run; never an unhandled rejection.
    this.ready.catch(() => {});
    this.#worker = new Worker(url, { type: "module", name: "ptc-sandbox", deno: { permissions: "none" } });
    this.#worker.onmessage = (e: MessageEvent<WorkerMessage>) => this.#onMessage(e.data);
    this.#worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#fail(`the sandbox worker crashed: ${e.message}`);
    };
    this.#worker.onmessageerror = () => this.#fail("the sandbox worker sent an unreadable message");
    this.#post({ type: "init", mailbox, outbox });
  }

  /** Spawn a worker from `url` whose bridge carries answers of up to `maxAnswerBytes`. */
  static spawn(url: URL = DEFAULT_WORKER_URL, maxAnswerBytes: number): SandboxWorker {
    return new SandboxWorker(url, maxAnswerBytes);
  }

  /** False once the worker crashed, was abandoned or killed. */
  get alive(): boolean {
    return !this.#dead;
  }

  /** True while an evaluation runs. */
  get busy(): boolean {
    return this.#run !== null;
  }

  /** Evaluate `source`. Never rejects: every failure is a result with a reason. */
  run(source: string, opts: RunOptions): Promise<RunResult> {
    if (this.#dead) {
      return Promise.resolve({
        ok: false,
        reason: "internal_error",
        message: "the sandbox worker is gone",
        prints: [],
        elapsedMs: 0,
        abandoned: true,
      });
    }
    if (this.#run) throw new Error("SandboxWorker.run: an evaluation is already running on this worker");
    const id = this.#nextId++;
    const limits = opts.limits;
    const started = Date.now();
    const deadline = started + limits.timeoutMs;
    const msg: EvalMessage = {
      type: "eval",
      id,
      source,
      mode: opts.mode,
      toolNames: opts.host ? [...opts.host.toolNames] : null,
      hasDiscovery: opts.host?.discovery !== undefined,
      context: this.#payload("context", opts.context),
      globals: this.#payload("globals", opts.globals),
      limits: toEvalLimits(limits, deadline),
      streamPrints: opts.onPrint !== undefined,
      maxResultChars: limits.maxResultChars,
    };
    return new Promise<RunResult>((resolve) => {
      const abortTimer = setTimeout(() => this.#bridge.abort("deadline"), timerDelay(limits.timeoutMs));
      const onCancel = () => this.#bridge.abort("cancelled");
      opts.signal?.addEventListener("abort", onCancel, { once: true });
      const backstop = setTimeout(() => {
        this.#finish(id, {
          ok: false,
          reason: "timeout",
          message: `the program did not finish within ${limits.timeoutMs} ms and was stopped`,
          prints: [],
          elapsedMs: Date.now() - started,
          abandoned: true,
        });
        this.kill();
      }, timerDelay(limits.timeoutMs + limits.graceMs));
      this.#run = {
        id,
        started,
        onPrint: opts.onPrint,
        resolve: (r) => {
          clearTimeout(abortTimer);
          opts.signal?.removeEventListener("abort", onCancel);
          clearTimeout(backstop);
          resolve(r);
        },
      };
      this.#bridge.begin(opts.host);
      if (opts.signal?.aborted) onCancel();
      this.#post(msg);
    });
  }

  /** Ask the worker a housekeeping question (`reset`, `names`, `probe`). */
  async control(type: "reset" | "names" | "probe"): Promise<JsonValue> {
    await this.ready;
    if (this.#dead) throw new Error("the sandbox worker is gone");
    const id = this.#nextId++;
    return await new Promise<JsonValue>((resolve) => {
      this.#replies.set(id, resolve);
      this.#post({ type, id });
    });
  }

  /** Stop the worker for good (idempotent). A running evaluation ends with reason `cancelled`. */
  kill(): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#bridge.abort();
    this.#bridge.end();
    this.#worker.terminate();
    this.#settleReady(new Error("the sandbox worker was stopped before it was ready"));
    const run = this.#run;
    if (run) {
      this.#finish(run.id, {
        ok: false,
        reason: "cancelled",
        message: "the sandbox was shut down during the evaluation",
        prints: [],
        elapsedMs: Date.now() - run.started,
        abandoned: true,
      });
    }
    for (const resolve of this.#replies.values()) resolve(null);
    this.#replies.clear();
  }

  #payload<T extends object>(kind: "context" | "globals", value: T | undefined): CachedPayload<T> | undefined {
    if (value === undefined) return undefined;
    const id = payloadId(value);
    if (this.#held[kind] === id) return { id };
    this.#held[kind] = id;
    return { id, value };
  }

  #post(msg: HostMessage): void {
    this.#worker.postMessage(msg);
  }

  #finish(id: number, result: RunResult): void {
    const run = this.#run;
    if (!run || run.id !== id) return;
    this.#run = null;
    this.#bridge.end();
    run.resolve(result);
  }

  #fail(message: string): void {
    const run = this.#run;
    this.#settleReady(new Error(message));
    if (run) {
      this.#finish(run.id, {
        ok: false,
        reason: "internal_error",
        message,
        prints: [],
        elapsedMs: Date.now() - run.started,
        abandoned: true,
      });
    }
    this.kill();
  }

  #onMessage(msg: WorkerMessage): void {
    switch (msg.type) {
      case "ready":
        this.#settleReady();
        return;
      case "print":
        if (this.#run?.id === msg.id) this.#run.onPrint?.(msg.line);
        return;
      case "result":
        this.#finish(msg.id, msg.result);
        return;
      case "reply": {
        const resolve = this.#replies.get(msg.id);
        this.#replies.delete(msg.id);
        resolve?.(msg.value);
        return;
      }
    }
  }
}
