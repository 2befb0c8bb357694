/**
 * One sandbox process as seen from the host: spawns it (no permissions, capped heap), speaks the frame protocol over
 * its stdin/stdout, runs one evaluation at a time, and reports how it ended. The pieces it is built from:
 * - `run_watch.ts`: the deadline, cancel and kill timers of one run (abort at the deadline, SIGKILL `graceMs` later;
 *   abort on cancel, SIGKILL after `CANCEL_GRACE_MS` if the program does not stop);
 * - `child_streams.ts`: frames read from stdout, the stderr tail, crash and heap-overflow (`memory_limit`) answers;
 * - `payload_cache.ts`: context and globals sent once per process;
 * - `live_processes.ts`: every live process is killed when ptc exits;
 * - `run_result.ts`: the result type and the failure constructor.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import { HostBridge, type SandboxHost } from "./bridge.ts";
import { type SandboxLimits, toEvalLimits } from "./limits.ts";
import { type ChildMessage, encodeFrame, type EvalMessage, type HostMessage } from "./protocol.ts";
import { sandboxCommand, spawnSandboxChild, type SpawnSpec } from "./spawn.ts";
import { takePrestarted } from "./prestart.ts";
import { failure, type RunResult, SandboxStopped } from "./run_result.ts";
import { watchRun } from "./run_watch.ts";
import { exitResult, readFrames, StderrTail } from "./child_streams.ts";
import { PayloadCache } from "./payload_cache.ts";
import { carriesPayload, encodeV8Frame, loadV8, v8Loaded } from "./v8_frames.ts";
import { forgetLive, trackLive } from "./live_processes.ts";

/** Options of one run on a process. */
export interface RunOptions {
  mode: "fresh" | "session";
  host?: SandboxHost;
  context?: JsonObject;
  globals?: Record<string, JsonValue>;
  limits: SandboxLimits;
  onPrint?: (line: string) => void;
  /** Cancels the run (see `run_watch.ts`). */
  signal?: AbortSignal;
  /** JSON Schema the value must satisfy, checked inside the sandbox process. */
  outputSchema?: JsonObject;
}

interface Pending {
  id: number;
  mode: "fresh" | "session";
  resolve: (r: RunResult) => void;
  onPrint?: (line: string) => void;
  started: number;
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
  #payloads = new PayloadCache();
  #settleReady!: (error?: Error) => void;
  #stderr = new StderrTail();
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
      (frame) => this.#sendAnswer(frame),
      () => this.#abortRun("timeout"),
    );
    const { command, args } = sandboxCommand(spec);
    try {
      // A process `prestart.ts` started for exactly this command line while ptc was still loading, else a new one.
      this.#child = takePrestarted(command, args) ?? spawnSandboxChild(command, args);
    } catch (e) {
      this.#dead = true;
      const detail = e instanceof Error ? e.message : String(e);
      this.#settleReady(new Error(`cannot start a sandbox process (${command}): ${detail}`));
      this.exited = Promise.resolve();
      return;
    }
    trackLive(this);
    // Payload frames go in V8's format once `node:v8` is loaded (v8_frames.ts); until then they go as JSON.
    void loadV8().catch(() => {});
    this.#writer = this.#child.stdin.getWriter();
    this.#send({ type: "init", libraries: spec.libraries ?? [] });
    const frames = readFrames(this.#child.stdout, (msg) => this.#onMessage(msg), (why) => this.#fail(why));
    const stderr = this.#stderr.read(this.#child.stderr);
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
    if (opts.signal?.aborted) {
      // Cancelled before it started: nothing is sent, and the process stays as it was for the next run.
      return Promise.resolve(failure("cancelled", "the evaluation was cancelled before it started", started));
    }
    const id = this.#nextId++;
    const limits = opts.limits;
    const deadline = started + limits.timeoutMs;
    const context = this.#payloads.prepare("context", opts.context);
    const globals = this.#payloads.prepare("globals", opts.globals);
    const msg: EvalMessage = {
      type: "eval",
      id,
      source,
      mode: opts.mode,
      toolNames: opts.host ? [...opts.host.toolNames] : null,
      ...(opts.host && v8Loaded() ? { binaryAnswers: true } : {}),
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
      frame = (carriesPayload(msg) ? encodeV8Frame(msg) : null) ?? encodeFrame(msg);
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
    this.#payloads.hold("context", context.id);
    this.#payloads.hold("globals", globals.id);
    return new Promise<RunResult>((resolve) => {
      let stopWatch = () => {};
      this.#run = {
        id,
        mode: opts.mode,
        started,
        onPrint: opts.onPrint,
        resolve: (r) => {
          stopWatch();
          resolve(r);
        },
      };
      this.#bridge.begin(opts.host, msg.binaryAnswers === true);
      this.#write(frame);
      const watch = watchRun(limits, started, opts.signal, {
        abort: (why) => this.#send({ type: "abort", id, why }),
        finish: (r) => this.#finish(id, r),
        kill: () => this.kill(),
      });
      stopWatch = watch;
      // A person deciding about a write holds the clock: the host's timers stop, and on release the process is told
      // how long, before any answer it waits for, so its own deadline moves by as much.
      opts.host?.attachClock?.({
        hold: () => {
          const release = watch.hold();
          return () => {
            const ms = release();
            if (ms > 0 && this.#run?.id === id) this.#send({ type: "paused", id, ms });
          };
        },
      });
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
    forgetLive(this);
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
    this.#dropReplies();
  }

  #send(msg: HostMessage): void {
    if (this.#dead) return;
    this.#write(encodeFrame(msg));
  }

  #write(bytes: Uint8Array): void {
    // A failed write means the process is gone; its exit is reported through `exited`.
    this.#writer?.write(bytes).catch(() => {});
  }

  #sendAnswer(frame: Uint8Array): void {
    if (this.#dead) return;
    this.#write(frame);
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

  /** Housekeeping questions still waiting get `null`: the process will not answer them. */
  #dropReplies(): void {
    for (const resolve of this.#replies.values()) resolve(null);
    this.#replies.clear();
  }

  #onExit(status: Deno.CommandStatus): void {
    const wasDead = this.#dead;
    this.#dead = true;
    forgetLive(this);
    this.#writer?.releaseLock();
    this.#settleReady(new Error(`the sandbox process exited while starting: ${this.#stderr.describe(status)}`));
    const run = this.#run;
    if (run && !wasDead) this.#finish(run.id, exitResult(status, this.#stderr, run, this.#heapMb));
    this.#dropReplies();
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
