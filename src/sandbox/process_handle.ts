/**
 * One sandbox process as seen from the host: spawns it (no permissions, capped heap), speaks the frame protocol over
 * its stdin/stdout, runs one evaluation at a time with a wall-clock backstop, and reports how it ended.
 *
 * What the host does when the program does not stop by itself:
 * - at its deadline the host sends `abort` (a program waiting for a tool stops at once, with `timeout`);
 * - `graceMs` later the process is killed (SIGKILL) and the caller answered `timeout`: a regex or a builtin that
 *   never returns to the interpreter costs at most that long; the pool starts a replacement;
 * - on cancel the host sends `abort` (a program waiting for a tool stops with `cancelled` and the process is kept);
 *   a program busy computing cannot read it, so after `cancelGraceMs` its process is killed (`sessionLost`);
 * - a heap overflow kills only the process; its evaluation is answered `memory_limit`.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import { HostBridge, type SandboxHost } from "./bridge.ts";
import { type SandboxLimits, toEvalLimits } from "./limits.ts";
import {
  answerFrame,
  type CachedPayload,
  type ChildMessage,
  encodeFrame,
  type EvalMessage,
  FrameDecoder,
  type HostMessage,
  type SandboxResult,
} from "./protocol.ts";
import { sandboxCommand, type SpawnSpec } from "./spawn.ts";

/** Options of one run on a process. */
export interface RunOptions {
  mode: "fresh" | "session";
  host?: SandboxHost;
  context?: JsonObject;
  globals?: Record<string, JsonValue>;
  limits: SandboxLimits;
  onPrint?: (line: string) => void;
  /** Cancels the run (see the module comment). */
  signal?: AbortSignal;
  /** JSON Schema the value must satisfy, checked inside the sandbox process. */
  outputSchema?: JsonObject;
}

/**
 * Result of a run; `abandoned` is set when the process had to be given up (it must not be reused), `sessionEnded`
 * when a session passed its memory cap (it must not continue).
 */
export type RunResult = SandboxResult & { abandoned?: boolean; sessionEnded?: boolean };

/** The process was stopped on purpose (pool closed, session closed) before it was ready. */
export class SandboxStopped extends Error {
  constructor() {
    super("the sandbox process was stopped before it was ready");
    this.name = "SandboxStopped";
  }
}

/** After a cancel, how long a program busy computing may take to reach its next tool call before it is killed. */
export const CANCEL_GRACE_MS = 250;

/** Largest frame accepted from a sandbox process (a result is bounded well below this). */
const MAX_CHILD_FRAME = 512 * 1024 * 1024;
/** Bytes read from a process's stdout at once. */
const READ_CHUNK = 256 * 1024;
/** Characters of the process's stderr kept to explain a crash. */
const STDERR_TAIL = 4096;

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

/** Every live sandbox process, killed when ptc exits. */
const live = new Set<SandboxProcess>();
let unloadHooked = false;
function track(p: SandboxProcess): void {
  live.add(p);
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const proc of live) proc.kill();
  });
}

interface Pending {
  id: number;
  mode: "fresh" | "session";
  resolve: (r: RunResult) => void;
  onPrint?: (line: string) => void;
  started: number;
}

const decoder = new TextDecoder();

function failure(reason: string, message: string, started: number, extra: Partial<RunResult> = {}): RunResult {
  return { ok: false, reason, message, prints: [], elapsedMs: Date.now() - started, ...extra } as RunResult;
}

/** A live sandbox process. Create with `SandboxProcess.spawn`, await `ready`, then `run` one evaluation at a time. */
export class SandboxProcess {
  /** Resolves when the process loaded the language; rejects if it failed to start. */
  readonly ready: Promise<void>;
  /** Resolves once the process has exited and its pipes are closed. */
  readonly exited: Promise<void>;
  /** Heap bytes the process reported after its last session evaluation (diagnostics). */
  heapBytes = 0;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #bridge: HostBridge;
  #dead = false;
  #nextId = 1;
  #run: Pending | null = null;
  #replies = new Map<number, (v: JsonValue) => void>();
  #held: { context?: number; globals?: number } = {};
  #settleReady!: (error?: Error) => void;
  #stderr = "";
  #heapMb: number;

  private constructor(spec: SpawnSpec, maxAnswerBytes: number) {
    this.#heapMb = spec.heapMb;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settleReady = (error) => (error ? reject(error) : resolve());
    });
    // A start-up failure is reported through `ready` and through the next run; never an unhandled rejection.
    this.ready.catch(() => {});
    this.#bridge = new HostBridge(
      maxAnswerBytes,
      (seq, json) => this.#sendAnswer(seq, json),
      () => this.#abortRun("timeout"),
    );
    const { command, args } = sandboxCommand(spec);
    try {
      this.#child = new Deno.Command(command, {
        args,
        env: { NO_COLOR: "1" },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (e) {
      this.#dead = true;
      const detail = e instanceof Error ? e.message : String(e);
      this.#settleReady(new Error(`cannot start a sandbox process (${command}): ${detail}`));
      this.exited = Promise.resolve();
      return;
    }
    track(this);
    this.#writer = this.#child.stdin.getWriter();
    this.#send({ type: "init", libraries: spec.libraries ?? [] });
    const frames = this.#readFrames(this.#child.stdout);
    const stderr = this.#readStderr(this.#child.stderr);
    this.exited = Promise.all([this.#child.status, frames, stderr]).then(([status]) => this.#onExit(status));
  }

  /** Spawn a sandbox process whose bridge carries answers of up to `maxAnswerBytes`. */
  static spawn(spec: SpawnSpec, maxAnswerBytes: number): SandboxProcess {
    return new SandboxProcess(spec, maxAnswerBytes);
  }

  /** OS process id (0 if it never started). */
  get pid(): number {
    return this.#child?.pid ?? 0;
  }

  /** False once the process crashed, was abandoned or killed. */
  get alive(): boolean {
    return !this.#dead;
  }

  /** True while an evaluation runs. */
  get busy(): boolean {
    return this.#run !== null;
  }

  /** Evaluate `source`. Never rejects: every failure is a result with a reason. */
  run(source: string, opts: RunOptions): Promise<RunResult> {
    const started = Date.now();
    if (this.#dead) {
      return Promise.resolve(failure("internal_error", "the sandbox process is gone", started, { abandoned: true }));
    }
    if (this.#run) throw new Error("SandboxProcess.run: an evaluation is already running on this process");
    const id = this.#nextId++;
    const limits = opts.limits;
    const deadline = started + limits.timeoutMs;
    const context = this.#payload("context", opts.context);
    const globals = this.#payload("globals", opts.globals);
    const msg: EvalMessage = {
      type: "eval",
      id,
      source,
      mode: opts.mode,
      toolNames: opts.host ? [...opts.host.toolNames] : null,
      hasDiscovery: opts.host?.discovery !== undefined,
      context: context.wire,
      globals: globals.wire,
      limits: toEvalLimits(limits, deadline),
      streamPrints: opts.onPrint !== undefined,
      maxResultChars: limits.maxResultChars,
      ...(opts.outputSchema ? { outputSchema: opts.outputSchema } : {}),
    };
    let frame: Uint8Array;
    try {
      frame = encodeFrame(msg);
    } catch (e) {
      // Nothing was written, but a process whose request could not be handed over is never reused.
      this.kill();
      const detail = e instanceof Error ? e.message : String(e);
      return Promise.resolve(failure(
        "internal_error",
        `the evaluation could not be handed to the sandbox (${detail}); its process was discarded`,
        started,
        { abandoned: true },
      ));
    }
    this.#held.context = context.id;
    this.#held.globals = globals.id;
    return new Promise<RunResult>((resolve) => {
      const abortTimer = setTimeout(
        () => this.#send({ type: "abort", id, why: "timeout" }),
        timerDelay(limits.timeoutMs),
      );
      let cancelTimer: ReturnType<typeof setTimeout> | undefined;
      const onCancel = () => {
        this.#send({ type: "abort", id, why: "cancelled" });
        cancelTimer ??= setTimeout(() => {
          this.#finish(
            id,
            failure("cancelled", "the evaluation was cancelled; its sandbox process was stopped", started, {
              abandoned: true,
            }),
          );
          this.kill();
        }, CANCEL_GRACE_MS);
      };
      opts.signal?.addEventListener("abort", onCancel, { once: true });
      const backstop = setTimeout(() => {
        this.#finish(
          id,
          failure(
            "timeout",
            `the program did not finish within ${limits.timeoutMs} ms; its sandbox process was stopped`,
            started,
            { abandoned: true },
          ),
        );
        this.kill();
      }, timerDelay(limits.timeoutMs + limits.graceMs));
      this.#run = {
        id,
        mode: opts.mode,
        started,
        onPrint: opts.onPrint,
        resolve: (r) => {
          clearTimeout(abortTimer);
          clearTimeout(cancelTimer);
          clearTimeout(backstop);
          opts.signal?.removeEventListener("abort", onCancel);
          resolve(r);
        },
      };
      this.#bridge.begin(opts.host);
      this.#write(frame);
      if (opts.signal?.aborted) onCancel();
    });
  }

  /** Ask the process a housekeeping question (`reset`, `names`, `probe`). */
  async control(type: "reset" | "names" | "probe"): Promise<JsonValue> {
    await this.ready;
    if (this.#dead) throw new Error("the sandbox process is gone");
    const id = this.#nextId++;
    return await new Promise<JsonValue>((resolve) => {
      this.#replies.set(id, resolve);
      this.#send({ type, id });
    });
  }

  /** Stop the process for good (SIGKILL; idempotent). A running evaluation ends with reason `cancelled`. */
  kill(): void {
    if (this.#dead) return;
    this.#dead = true;
    live.delete(this);
    this.#bridge.end();
    try {
      this.#child?.kill("SIGKILL");
    } catch {
      // already gone
    }
    this.#settleReady(new SandboxStopped());
    const run = this.#run;
    if (run) {
      this.#finish(
        run.id,
        failure("cancelled", "the sandbox was shut down during the evaluation", run.started, { abandoned: true }),
      );
    }
    for (const resolve of this.#replies.values()) resolve(null);
    this.#replies.clear();
  }

  #payload<T extends object>(
    kind: "context" | "globals",
    value: T | undefined,
  ): { id: number | undefined; wire: CachedPayload<T> | undefined } {
    if (value === undefined) return { id: this.#held[kind], wire: undefined };
    const id = payloadId(value);
    return { id, wire: this.#held[kind] === id ? { id } : { id, value } };
  }

  #send(msg: HostMessage): void {
    if (this.#dead) return;
    this.#write(encodeFrame(msg));
  }

  #write(bytes: Uint8Array): void {
    // A failed write means the process is gone; its exit is reported through `exited`.
    this.#writer?.write(bytes).catch(() => {});
  }

  #sendAnswer(seq: number, json: Uint8Array): void {
    if (this.#dead) return;
    this.#write(answerFrame(seq, json));
  }

  #abortRun(why: "timeout" | "cancelled"): void {
    const run = this.#run;
    if (run) this.#send({ type: "abort", id: run.id, why });
  }

  #finish(id: number, result: RunResult): void {
    const run = this.#run;
    if (!run || run.id !== id) return;
    this.#run = null;
    this.#bridge.end();
    run.resolve(result);
  }

  async #readFrames(stdout: ReadableStream<Uint8Array>): Promise<void> {
    const frames = new FrameDecoder(MAX_CHILD_FRAME);
    // A BYOB reader into one reused buffer: about half the latency of iterating the stream's own chunks.
    const reader = stdout.getReader({ mode: "byob" });
    let scratch = new Uint8Array(READ_CHUNK);
    try {
      while (true) {
        const { value, done } = await reader.read(scratch);
        if (done || !value) break;
        frames.push(value);
        scratch = new Uint8Array(value.buffer, 0, READ_CHUNK);
        for (let body = frames.next(); body; body = frames.next()) {
          this.#onMessage(JSON.parse(decoder.decode(body)) as ChildMessage);
        }
        // Let answers that are already known (a tool that resolved at once) go out before the next read is set up.
        await null;
      }
    } catch (e) {
      this.#fail(`the sandbox process broke the protocol (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
        this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
      }
    } catch {
      // the process is gone
    }
  }

  #onExit(status: Deno.CommandStatus): void {
    const wasDead = this.#dead;
    this.#dead = true;
    live.delete(this);
    this.#writer?.releaseLock();
    this.#settleReady(new Error(`the sandbox process exited while starting: ${this.#describe(status)}`));
    const run = this.#run;
    if (run && !wasDead) {
      if (/out of memory|heap limit/i.test(this.#stderr)) {
        const session = run.mode === "session";
        this.#finish(
          run.id,
          failure(
            "memory_limit",
            session
              ? `the session's sandbox process ran out of memory (its cap is ${this.#heapMb} MiB for the ` +
                `definitions and this program together): the session has ended`
              : `the program exhausted the memory of its sandbox process (cap ${this.#heapMb} MiB)`,
            run.started,
            { abandoned: true, sessionEnded: session },
          ),
        );
      } else {
        this.#finish(
          run.id,
          failure("internal_error", `the sandbox process crashed: ${this.#describe(status)}`, run.started, {
            abandoned: true,
          }),
        );
      }
    }
    for (const resolve of this.#replies.values()) resolve(null);
    this.#replies.clear();
  }

  #describe(status: Deno.CommandStatus): string {
    const how = status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
    const last = this.#stderr.trim().split("\n").filter((l) => l.trim() && !/^\s*\[\d+:0x/.test(l)).slice(-2);
    return last.length ? `${how}; ${last.join(" | ").slice(0, 300)}` : how;
  }

  #fail(message: string): void {
    const run = this.#run;
    this.#settleReady(new Error(message));
    if (run) this.#finish(run.id, failure("internal_error", message, run.started, { abandoned: true }));
    this.kill();
  }

  #onMessage(msg: ChildMessage): void {
    switch (msg.type) {
      case "ready":
        this.#settleReady();
        return;
      case "request":
        if (this.#run?.id === msg.id) this.#bridge.serve(msg.seq, msg.request);
        return;
      case "print":
        if (this.#run?.id === msg.id) this.#run.onPrint?.(msg.line);
        return;
      case "result": {
        if (msg.heapBytes !== undefined) this.heapBytes = msg.heapBytes;
        const r = msg.result as RunResult;
        if (!r.ok && r.sessionEnded) r.abandoned = true;
        if (msg.fatal) r.abandoned = true;
        this.#finish(msg.id, r);
        // The child is exiting (an error escaped its loop): never hand it out again.
        if (msg.fatal) this.kill();
        return;
      }
      case "reply": {
        const resolve = this.#replies.get(msg.id);
        this.#replies.delete(msg.id);
        resolve?.(msg.value);
        return;
      }
    }
  }
}
