/**
 * The child side of the sandbox: a synchronous loop over stdin frames that owns the language session of one
 * sandbox process, runs evaluations, and implements the synchronous `HostTools`/`DiscoveryBackend` seam by writing a
 * request frame to stdout and blocking in `Deno.stdin.readSync` until the host answers (no permission needed).
 *
 * The entry module (`child.ts`) passes in the language; tests pass in a stand-in language to exercise failure paths
 * that a correct interpreter never produces (crashes, ignored deadlines).
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { DiscoveryBackend, DiscoveryOutcome, HostTools, ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { EvalOptions, EvalResult, LispSession } from "../lisp/api.ts";
import {
  type AbortMessage,
  type BridgeRequest,
  type CachedPayload,
  type ChildMessage,
  encodeFrameView,
  type EvalMessage,
  FrameDecoder,
  type HostMessage,
  type InitMessage,
  MAX_REQUEST_BYTES,
  type OutputCheck,
  type SandboxResult,
} from "./protocol.ts";
import type { LibrarySource } from "../lisp/library_types.ts";
import { decodeV8Frame, decodeV8FrameSync, isV8Frame, loadV8 } from "./v8_frames.ts";

/** What the child needs from the language (src/lisp/mod.ts provides both). */
export interface LanguageModule<L = unknown> {
  /** A session; `libraries` is what `loadLibraries` returned, when the process has libraries. */
  createSession(libraries?: L): LispSession;
  /** Stateless evaluation; when absent a fresh session is created per evaluation. */
  evaluate?(source: string, options?: EvalOptions, libraries?: L): EvalResult;
  /** Load operator libraries once per process (throws with a message naming file, line and column). */
  loadLibraries?(sources: LibrarySource[]): L;
}

/** Options of the serving loop (from the command line of the sandbox process). */
export interface ChildOptions {
  /**
   * A session whose heap already holds more than this many bytes when an evaluation starts refuses it with
   * `memory_limit` (the session's cumulative cap; the V8 heap limit is the hard backstop). 0: no check.
   */
  sessionHeapBytes?: number;
}

const decoder = new TextDecoder();
/** Largest host frame the child accepts (a tool answer is bounded by the host well below this). */
const MAX_HOST_FRAME = 1024 * 1024 * 1024;

/** Blocking frame I/O over the process's stdin/stdout. */
class Channel {
  #frames = new FrameDecoder(MAX_HOST_FRAME);

  send(msg: ChildMessage): void {
    writeAll(encodeFrameView(msg));
  }

  /** The next host frame's body; exits the process when the host closed the pipe (nothing left to serve). */
  #next(): Uint8Array {
    while (true) {
      const body = this.#frames.next();
      if (body) return body;
      const n = Deno.stdin.readSync(this.#frames.spare());
      if (n === null || n === 0) Deno.exit(0);
      this.#frames.commit(n);
    }
  }

  /** The next host message while an evaluation runs (answers, aborts, pauses): read synchronously. */
  receive(): HostMessage {
    const body = this.#next();
    // A V8 frame here is a tool answer of an evaluation whose message said `binaryAnswers` (node:v8 loaded first).
    return isV8Frame(body) ? decodeV8FrameSync(body) : JSON.parse(decoder.decode(body)) as HostMessage;
  }

  /** The next host message between evaluations, where an evaluation's payload may come in V8's format. */
  async receiveAny(): Promise<HostMessage> {
    const body = this.#next();
    return isV8Frame(body) ? await decodeV8Frame(body) : JSON.parse(decoder.decode(body)) as HostMessage;
  }
}

function writeAll(bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
}

const ABORT_MESSAGES = {
  timeout: "the evaluation ran out of time while waiting for a tool",
  cancelled: "the evaluation was cancelled by the host",
};

/** The bridge of one evaluation: request/answer over the channel, stopped for good by an `abort` frame. */
class EvalBridge {
  #seq = 0;
  aborted: "timeout" | "cancelled" | null = null;
  /** Ms the host held this evaluation's clock (`paused` frames): the deadline moves by it. */
  pausedMs = 0;

  constructor(private channel: Channel, private evalId: number, private deadline: number) {}

  /** Send a request and block until its answer; null when the evaluation was aborted or its deadline passed. */
  request(request: BridgeRequest): unknown | null {
    if (this.aborted) return null;
    if (Date.now() >= this.deadline + this.pausedMs) {
      this.aborted = "timeout";
      return null;
    }
    const seq = ++this.#seq;
    const frame = encodeFrameView({ type: "request", id: this.evalId, seq, request });
    if (frame.length > MAX_REQUEST_BYTES) {
      throw new RangeError(`tool arguments of ${frame.length} bytes exceed the bridge limit of ${MAX_REQUEST_BYTES}`);
    }
    writeAll(frame);
    while (true) {
      const msg = this.channel.receive();
      if (msg.type === "answer" && msg.seq === seq) return msg.value;
      if (msg.type === "paused" && msg.id === this.evalId) {
        this.pausedMs += Math.max(0, msg.ms);
        continue;
      }
      if (msg.type === "abort" && msg.id === this.evalId) {
        this.aborted = (msg as AbortMessage).why;
        return null;
      }
      // a stale answer or abort of an earlier evaluation: drop it
    }
  }
}

/** Host tools backed by the bridge. */
function bridgeTools(bridge: EvalBridge, names: string[]): HostTools {
  const callBatch = (requests: ToolRequest[]): ToolOutcome[] => {
    if (requests.length === 0) return [];
    let answer: unknown;
    try {
      answer = bridge.request({ type: "tools", requests });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return requests.map(() => ({ kind: "raise", reason: "invalid_tool_args", message }));
    }
    if (answer === null) {
      const reason = bridge.aborted ?? "timeout";
      return requests.map(() => ({ kind: "raise", reason, message: ABORT_MESSAGES[reason] }));
    }
    return answer as ToolOutcome[];
  };
  return { names: () => names, call: (request) => callBatch([request])[0], callBatch };
}

/** Discovery backend backed by the bridge. */
function bridgeDiscovery(bridge: EvalBridge): DiscoveryBackend {
  return {
    exec(op, args): DiscoveryOutcome {
      let answer: unknown;
      try {
        answer = bridge.request({ type: "discovery", op, args });
      } catch (e) {
        return { kind: "programmer_fault", message: e instanceof Error ? e.message : String(e) };
      }
      if (answer === null) {
        const reason = bridge.aborted ?? "timeout";
        return { kind: "world_fault", reason, message: ABORT_MESSAGES[reason] };
      }
      return answer as DiscoveryOutcome;
    },
  };
}

/**
 * Report which permissions the process holds and whether touching the outside world actually fails (tests, doctor).
 * Every attempt must fail inside the sandbox.
 */
async function probePermissions(): Promise<JsonValue> {
  const states: Record<string, JsonValue> = {};
  for (const name of ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const) {
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
    readFile: await attempt(() => Deno.readTextFileSync("/etc/hostname")),
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

/** Check `value` against a client's JSON Schema (compiled here, in the sandbox process). */
export function checkOutput(schema: JsonObject, value: JsonValue): OutputCheck {
  const r = new Validator(schema as Record<string, unknown>, "2020-12", false).validate(value);
  if (r.valid) return { valid: true };
  const detail = r.errors.filter((e) => e.instanceLocation !== "#" || r.errors.length === 1).slice(0, 5)
    .map((e) => `${e.instanceLocation.replace(/^#/, "") || "/"}: ${e.error}`);
  return { valid: false, message: `the returned value does not match output_schema: ${detail.join("; ")}` };
}

const MiB = 1024 * 1024;

/** Serve evaluation requests on stdin/stdout using `language` until the host closes stdin. Call once. */
export async function serveChild<L>(language: LanguageModule<L>, options: ChildOptions = {}): Promise<never> {
  const channel = new Channel();
  // stdout carries frames only: anything logged goes to stderr.
  const toStderr = (...args: unknown[]) => {
    const line = args.map((a) => (typeof a === "string" ? a : Deno.inspect(a))).join(" ") + "\n";
    Deno.stderr.writeSync(new TextEncoder().encode(line));
  };
  console.log =
    console.info =
    console.debug =
    console.warn =
    console.error =
      toStderr;
  const parent = Deno.ppid;
  let session = null as LispSession | null;
  let libraries: L | undefined = undefined;
  const cache: { context?: CachedPayload<JsonObject>; globals?: CachedPayload<Record<string, JsonValue>> } = {};

  const payload = <T>(kind: "context" | "globals", p: CachedPayload<T> | undefined): T | undefined => {
    if (!p) return undefined;
    if (p.value !== undefined) {
      (cache as Record<string, CachedPayload<unknown>>)[kind] = p;
      return p.value;
    }
    const held = cache[kind];
    if (!held || held.id !== p.id) throw new Error(`${kind} payload ${p.id} is not cached in this process`);
    return held.value as T;
  };

  const sessionOverCap = (): SandboxResult | null => {
    const cap = options.sessionHeapBytes ?? 0;
    if (!cap || !session) return null;
    const used = Deno.memoryUsage().heapUsed;
    if (used <= cap) return null;
    return {
      ok: false,
      reason: "memory_limit",
      message: `the session's definitions hold ${Math.round(used / MiB)} MiB, above its cap of ` +
        `${Math.round(cap / MiB)} MiB: the session has ended (open a new one and keep less in defs)`,
      prints: [],
      elapsedMs: 0,
      sessionEnded: true,
    };
  };

  const runEval = (msg: EvalMessage): SandboxResult => {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const deadline = msg.limits.deadline ?? Infinity;
    const bridge = new EvalBridge(channel, msg.id, deadline);
    let result: EvalResult;
    try {
      if (msg.mode === "session") {
        const over = sessionOverCap();
        if (over) return over;
      }
      const evalOptions: EvalOptions = {
        tools: msg.toolNames ? bridgeTools(bridge, msg.toolNames) : undefined,
        discovery: msg.hasDiscovery ? bridgeDiscovery(bridge) : undefined,
        context: payload("context", msg.context),
        globals: payload("globals", msg.globals),
        limits: {
          ...msg.limits,
          interrupt: () => {
            // An orphan (the host died) must not keep computing.
            if (Deno.ppid !== parent) Deno.exit(1);
            return bridge.aborted;
          },
          paused: () => bridge.pausedMs,
        },
        onPrint: msg.streamPrints ? (line) => channel.send({ type: "print", id: msg.id, line }) : undefined,
      };
      if (msg.mode === "session") {
        session ??= language.createSession(libraries);
        result = session.eval(msg.source, evalOptions);
      } else {
        result = language.evaluate
          ? language.evaluate(msg.source, evalOptions, libraries)
          : language.createSession(libraries).eval(msg.source, evalOptions);
      }
    } catch (e) {
      return { ok: false, ...classifyEscape(e), prints: [], elapsedMs: elapsed() };
    }
    if (!result.ok) {
      const { reason, message, prints, line, column } = result;
      return { ok: false, reason, message, prints, line, column, elapsedMs: elapsed() };
    }
    if (result.printed.length > msg.maxResultChars) {
      return {
        ok: false,
        reason: "result_too_large",
        message: `the result prints as ${result.printed.length} characters; the limit is ${msg.maxResultChars} ` +
          `(return a smaller value, e.g. with take or select-keys)`,
        prints: result.prints,
        elapsedMs: elapsed(),
      };
    }
    const { status, printed, json, prints, steps } = result;
    const out: SandboxResult = { ok: true, status, printed, json, prints, steps, elapsedMs: elapsed() };
    if (msg.outputSchema && status !== "failed") out.outputCheck = checkOutput(msg.outputSchema, json);
    return out;
  };

  // Per-process set-up, before `ready`: the operator libraries every evaluation and session of this process shares
  // are analysed and run once here; the pool only hands out processes that said `ready`, and a replacement process
  // goes through the same set-up.
  const init = channel.receive();
  if (init.type !== "init") throw new Error(`the first host frame must be init, got ${init.type}`);
  const sources = (init as InitMessage).libraries;
  if (sources.length > 0) {
    if (!language.loadLibraries) throw new Error("this sandbox language cannot load libraries");
    try {
      libraries = language.loadLibraries(sources);
    } catch (e) {
      // The host checked the same sources before spawning: reaching this is a bug; `ready` rejects with this line.
      console.error(`the sandbox could not load the libraries: ${e instanceof Error ? e.message : String(e)}`);
      Deno.exit(1);
    }
  }
  channel.send({ type: "ready" });
  while (true) {
    const msg = await channel.receiveAny();
    switch (msg.type) {
      case "eval": {
        // Its tool answers will come in V8's format: load the decoder now, while nothing waits on a read.
        if (msg.binaryAnswers) await loadV8();
        let result: SandboxResult;
        try {
          result = runEval(msg);
        } catch (e) {
          // Broken beyond the interpreter's own error handling: report it, then end this process.
          const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
          channel.send({
            type: "result",
            id: msg.id,
            fatal: true,
            result: {
              ok: false,
              reason: "internal_error",
              message: `the sandbox process crashed: ${detail}`,
              prints: [],
              elapsedMs: 0,
            },
          });
          Deno.exit(70);
        }
        let frame: ChildMessage = { type: "result", id: msg.id, result };
        if (msg.mode === "session") frame.heapBytes = Deno.memoryUsage().heapUsed;
        try {
          channel.send(frame);
        } catch (err) {
          const detail = err instanceof Error ? err.message : String(err);
          frame = {
            type: "result",
            id: msg.id,
            result: {
              ok: false,
              reason: "internal_error",
              message: `result not transferable: ${detail}`,
              prints: [],
              elapsedMs: result.elapsedMs,
            },
          };
          channel.send(frame);
        }
        break;
      }
      case "reset":
        session?.reset();
        channel.send({ type: "reply", id: msg.id, value: null });
        break;
      case "names":
        channel.send({ type: "reply", id: msg.id, value: session ? session.definedNames() : [] });
        break;
      case "probe":
        // The only asynchronous request (nothing else runs meanwhile: the loop is otherwise synchronous).
        channel.send({ type: "reply", id: msg.id, value: await probePermissions() });
        break;
      default:
        break; // late answers and aborts of finished evaluations
    }
  }
}
