/**
 * The worker side of the sandbox: owns the language session of one worker, runs evaluations, and implements the
 * synchronous `HostTools`/`DiscoveryBackend` seam by writing requests into the outbox, waking the host, and blocking
 * on the mailbox until the answer is there.
 *
 * The entry module (`worker.ts`) passes in the language; tests pass in a stand-in language to exercise failure
 * paths that a correct interpreter never produces (crashes, ignored deadlines).
 * @module
 */
import type {
  DiscoveryBackend,
  DiscoveryOutcome,
  EvalOptions,
  EvalResult,
  HostTools,
  JsonObject,
  JsonValue,
  LispSession,
  ToolOutcome,
  ToolRequest,
} from "../lisp/api.ts";
import {
  ABORT,
  type BridgeRequest,
  type CachedPayload,
  DATA_OFFSET,
  type EvalMessage,
  HEADER_SLOTS,
  type HostMessage,
  type SandboxResult,
  SLOT,
  STATE,
  type WorkerMessage,
} from "./protocol.ts";

/** What the worker needs from the language (src/lisp/mod.ts provides both). */
export interface LanguageModule {
  createSession(): LispSession;
  /** Stateless evaluation; when absent a fresh session is created per evaluation. */
  evaluate?(source: string, options?: EvalOptions): EvalResult;
}

/** Blocking request/answer over the shared mailbox and outbox. */
class MailboxClient {
  #ctrl: Int32Array;
  #decoder = new TextDecoder();
  #encoder = new TextEncoder();

  constructor(private mailbox: SharedArrayBuffer, private outbox: SharedArrayBuffer) {
    this.#ctrl = new Int32Array(mailbox, 0, HEADER_SLOTS);
  }

  /** Whether the host asked the running evaluation to stop, and why (read by the interpreter's periodic check). */
  interruptReason(): "cancelled" | "timeout" | null {
    const v = Atomics.load(this.#ctrl, SLOT.ABORT);
    return v === 0 ? null : v === ABORT.CANCELLED ? "cancelled" : "timeout";
  }

  /** Why the last request got no answer: the host cancelled the evaluation, or its deadline passed. */
  get abortReason(): "cancelled" | "timeout" {
    return Atomics.load(this.#ctrl, SLOT.ABORT) === ABORT.CANCELLED ? "cancelled" : "timeout";
  }

  /**
   * Write a request into the outbox, wake the host and block until it answers. Returns the parsed answer; null when
   * the evaluation was aborted by the host or its deadline passed (`abortReason` says which). Throws `RangeError`
   * when the request is larger than the outbox can hold.
   */
  request(msg: BridgeRequest, deadline: number): unknown | null {
    const ctrl = this.#ctrl;
    if (Atomics.load(ctrl, SLOT.ABORT) !== 0 || Date.now() >= deadline) return null;
    const bytes = this.#encoder.encode(JSON.stringify(msg));
    if (bytes.length > this.outbox.maxByteLength) {
      throw new RangeError(
        `tool arguments of ${bytes.length} bytes exceed the bridge limit of ${this.outbox.maxByteLength}`,
      );
    }
    if (this.outbox.byteLength < bytes.length) {
      this.outbox.grow(Math.min(this.outbox.maxByteLength, Math.max(bytes.length, this.outbox.byteLength * 2)));
    }
    new Uint8Array(this.outbox, 0, bytes.length).set(bytes);
    Atomics.store(ctrl, SLOT.STATE, STATE.IDLE);
    Atomics.store(ctrl, SLOT.REQ_LENGTH, bytes.length);
    const seq = Atomics.add(ctrl, SLOT.REQ_SEQ, 1) + 1;
    Atomics.notify(ctrl, SLOT.REQ_SEQ);
    while (true) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return null;
      Atomics.wait(ctrl, SLOT.STATE, STATE.IDLE, remaining === Infinity ? undefined : remaining);
      if (Atomics.load(ctrl, SLOT.ABORT) !== 0) return null;
      if (Atomics.load(ctrl, SLOT.STATE) !== STATE.READY) continue;
      if (Atomics.load(ctrl, SLOT.SEQ) !== seq) {
        Atomics.store(ctrl, SLOT.STATE, STATE.IDLE);
        continue;
      }
      const length = Atomics.load(ctrl, SLOT.LENGTH);
      // TextDecoder does not accept views of shared memory: copy out first.
      const answer = new Uint8Array(this.mailbox, DATA_OFFSET, length).slice();
      return JSON.parse(this.#decoder.decode(answer));
    }
  }
}

const ABORT_MESSAGES = {
  timeout: "the evaluation ran out of time while waiting for a tool",
  cancelled: "the evaluation was cancelled by the host",
};

/** Host tools backed by the mailbox. */
function bridgeTools(client: MailboxClient, names: string[], deadline: number): HostTools {
  const callBatch = (requests: ToolRequest[]): ToolOutcome[] => {
    if (requests.length === 0) return [];
    let answer: unknown;
    try {
      answer = client.request({ type: "tools", requests }, deadline);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return requests.map(() => ({ kind: "raise", reason: "invalid_tool_args", message }));
    }
    if (answer === null) {
      const reason = client.abortReason;
      return requests.map(() => ({ kind: "raise", reason, message: ABORT_MESSAGES[reason] }));
    }
    return answer as ToolOutcome[];
  };
  return {
    names: () => names,
    call: (request) => callBatch([request])[0],
    callBatch,
  };
}

/** Discovery backend backed by the mailbox. */
function bridgeDiscovery(client: MailboxClient, deadline: number): DiscoveryBackend {
  return {
    exec(op, args): DiscoveryOutcome {
      let answer: unknown;
      try {
        answer = client.request({ type: "discovery", op, args }, deadline);
      } catch (e) {
        return { kind: "programmer_fault", message: e instanceof Error ? e.message : String(e) };
      }
      if (answer === null) {
        const reason = client.abortReason;
        return { kind: "world_fault", reason, message: ABORT_MESSAGES[reason] };
      }
      return answer as DiscoveryOutcome;
    },
  };
}

/**
 * Report which permissions the worker holds and whether touching the outside world actually fails (tests, doctor).
 * Every attempt must end in `NotCapable` inside the sandbox.
 */
async function probePermissions(): Promise<JsonValue> {
  const states: Record<string, JsonValue> = {};
  for (const name of ["read", "write", "net", "env", "run", "ffi", "sys"] as const) {
    try {
      states[name] = Deno.permissions.querySync({ name }).state;
    } catch (e) {
      states[name] = `error: ${e instanceof Error ? e.name : String(e)}`;
    }
  }
  const attempt = async (f: () => unknown): Promise<string> => {
    try {
      const r = await f();
      if (r && typeof (r as Deno.Conn).close === "function") (r as Deno.Conn).close();
      return "allowed";
    } catch (e) {
      return e instanceof Error ? e.name : String(e);
    }
  };
  return {
    permissions: states,
    readFile: await attempt(() => Deno.readTextFileSync(new URL(import.meta.url))),
    writeFile: await attempt(() => Deno.writeTextFileSync("/tmp/ptc-sandbox-probe", "x")),
    readEnv: await attempt(() => Deno.env.get("HOME")),
    connect: await attempt(() => Deno.connect({ hostname: "127.0.0.1", port: 9 })),
    run: await attempt(() => new Deno.Command("true").outputSync()),
  };
}

/**
 * Name an exception that escaped the interpreter. Engine limits hit below the interpreter's own budgets still get
 * the reason a program author can act on; anything else is an interpreter bug (`internal_error`).
 */
export function classifyEscape(e: unknown): { reason: string; message: string } {
  if (e instanceof RangeError) {
    if (/call stack/i.test(e.message)) {
      return { reason: "stack_overflow", message: "the program nests or recurses too deeply (engine stack exhausted)" };
    }
    if (/invalid (string|array|typed array) length|allocation failed|out of memory/i.test(e.message)) {
      return { reason: "memory_limit", message: `the program built a value beyond the engine's limits (${e.message})` };
    }
  }
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { reason: "internal_error", message: `the interpreter failed: ${detail}` };
}

/**
 * Serve evaluation requests on this worker's message port using `language`. Call once from the worker entry.
 */
export function serveWorker(language: LanguageModule): void {
  const scope = globalThis as unknown as {
    postMessage(m: WorkerMessage): void;
    onmessage: ((e: MessageEvent<HostMessage>) => void) | null;
  };
  const post = (m: WorkerMessage) => scope.postMessage(m);
  let client: MailboxClient | null = null;
  let session: LispSession | null = null;
  const cache: { context?: CachedPayload<JsonObject>; globals?: CachedPayload<Record<string, JsonValue>> } = {};

  const payload = <T>(kind: "context" | "globals", p: CachedPayload<T> | undefined): T | undefined => {
    if (!p) return undefined;
    if (p.value !== undefined) {
      (cache as Record<string, CachedPayload<unknown>>)[kind] = p;
      return p.value;
    }
    const held = cache[kind];
    if (!held || held.id !== p.id) throw new Error(`${kind} payload ${p.id} is not cached in this worker`);
    return held.value as T;
  };

  const runEval = (msg: EvalMessage): SandboxResult => {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    if (!client) {
      return { ok: false, reason: "internal_error", message: "worker not initialised", prints: [], elapsedMs: 0 };
    }
    const deadline = msg.limits.deadline ?? Infinity;
    let result: EvalResult;
    try {
      const options: EvalOptions = {
        tools: msg.toolNames ? bridgeTools(client, msg.toolNames, deadline) : undefined,
        discovery: msg.hasDiscovery ? bridgeDiscovery(client, deadline) : undefined,
        context: payload("context", msg.context),
        globals: payload("globals", msg.globals),
        limits: { ...msg.limits, interrupt: () => client!.interruptReason() },
        onPrint: msg.streamPrints ? (line) => post({ type: "print", id: msg.id, line }) : undefined,
      };
      if (msg.mode === "session") {
        session ??= language.createSession();
        result = session.eval(msg.source, options);
      } else {
        result = language.evaluate
          ? language.evaluate(msg.source, options)
          : language.createSession().eval(msg.source, options);
      }
    } catch (e) {
      return { ok: false, ...classifyEscape(e), prints: [], elapsedMs: elapsed() };
    }
    const elapsedMs = elapsed();
    if (!result.ok) {
      const { reason, message, prints, line, column } = result;
      return { ok: false, reason, message, prints, line, column, elapsedMs };
    }
    if (result.printed.length > msg.maxResultChars) {
      return {
        ok: false,
        reason: "result_too_large",
        message: `the result prints as ${result.printed.length} characters; the limit is ${msg.maxResultChars} ` +
          `(return a smaller value, e.g. with take or select-keys)`,
        prints: result.prints,
        elapsedMs,
      };
    }
    const { status, printed, json, prints, steps } = result;
    return { ok: true, status, printed, json, prints, steps, elapsedMs };
  };

  scope.onmessage = (e: MessageEvent<HostMessage>) => {
    const msg = e.data;
    switch (msg.type) {
      case "init":
        client = new MailboxClient(msg.mailbox, msg.outbox);
        post({ type: "ready" });
        return;
      case "eval": {
        const result = runEval(msg);
        try {
          post({ type: "result", id: msg.id, result });
        } catch (err) {
          const detail = err instanceof Error ? err.message : String(err);
          post({
            type: "result",
            id: msg.id,
            result: {
              ok: false,
              reason: "internal_error",
              message: `result not transferable: ${detail}`,
              prints: [],
              elapsedMs: result.elapsedMs,
            },
          });
        }
        return;
      }
      case "reset":
        session?.reset();
        post({ type: "reply", id: msg.id, value: null });
        return;
      case "names":
        post({ type: "reply", id: msg.id, value: session ? session.definedNames() : [] });
        return;
      case "probe":
        void probePermissions().then((value) => post({ type: "reply", id: msg.id, value }));
        return;
    }
  };
}
