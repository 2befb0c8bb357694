/**
 * The `tool/call` host callback: `ToolRequest {name: "call", args: {server, tool, args}}` → validate the request →
 * charge the budget → resolve the upstream (wait until its supervisor has it ready, within the call's time), the
 * installed tool and the arguments → dispatch `upstream.call` (a slot of the upstream's `max_concurrent_requests`
 * first; a read answered 429/503 with a `Retry-After` that fits is sent once more after it) → settle (size cap,
 * redaction) → record → a tagged outcome. Programmer faults (unknown
 * server/tool, a withheld tool, bad argument shape or values) raise `runtime_error`; world faults come back as
 * `{ok: false, reason, message}`; every message and record is redacted.
 * @module
 */
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../core/json_depth.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { CallContext, ToolEffect, ToolResult } from "./types.ts";
import type { MutationState, ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { CallInterceptor, CallRecord, RunScope } from "./run_records.ts";
import type { ConfiguredUpstream } from "./runtime.ts";
import { previewJson } from "./preview.ts";
import { jsonBytes } from "./bytes.ts";
import { argumentProblems, matchArgNames } from "./tool_args.ts";
import { didYouMean } from "../core/suggest.ts";
import { describeValue } from "./messages.ts";
import { unavailableMessage } from "./upstream_state.ts";
import { type ApprovalOutcome, approvalRequest, askBounded } from "./approval.ts";

export { argumentProblems, matchArgNames } from "./tool_args.ts";

const MAX_MESSAGE_CHARS = 2000;

export function raise(message: string): ToolOutcome {
  return { kind: "raise", reason: "runtime_error", message };
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function tooDeep(): ToolResult & { ok: false } {
  return {
    ok: false,
    reason: "invalid_response",
    message: `the response nests arrays/objects deeper than ${MAX_RESPONSE_DEPTH} levels; ptc does not decode it`,
  };
}

export function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/**
 * Run one request to an upstream under the run's byte cap and cancellation and a timeout (`tool/call`, resource
 * reads; by default the run's call timeout): a transport that never answers is answered `timeout`, one that throws
 * `upstream_error`.
 */
export async function bounded(
  ctx: RunScope,
  perform: (callCtx: CallContext) => Promise<ToolResult>,
  timeoutMs: number = ctx.limits.callTimeoutMs,
): Promise<ToolResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException("call timeout", "TimeoutError"));
      resolve({ ok: false, reason: "timeout", message: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  try {
    const call = perform({ signal: controller.signal, timeoutMs, maxResponseBytes: ctx.limits.maxResponseBytes });
    call.catch(() => {}); // a late rejection after the timeout won must not go unhandled
    return await Promise.race([call, timeout]);
  } catch (e) {
    // A transport that walks a deeply nested answer recursively while decoding it runs out of stack.
    if (e instanceof RangeError && /call stack/i.test(e.message)) return tooDeep();
    const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { ok: false, reason: "upstream_error", message: `transport failed: ${msg}` };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** A call on its way to an upstream: the configured upstream, the installed tool, mapped arguments and deadline. */
interface Outgoing {
  target: ConfiguredUpstream;
  tool: string;
  args: JsonObject;
  effect: ToolEffect;
  /** The call's deadline (epoch ms of the runtime's clock). */
  deadline: number;
}

/** One request of a call to the upstream's current connection, within what is left of the call's deadline. */
function send(ctx: RunScope, { target, tool, args, effect, deadline }: Outgoing): Promise<ToolResult> {
  const upstream = target.connection;
  if (!upstream) return Promise.resolve(unavailable(ctx, target));
  const left = Math.max(1, deadline - ctx.runtime.clock.now());
  return bounded(ctx, (callCtx) => upstream.call(tool, args, { ...callCtx, effect }), left);
}

/**
 * Take a slot of the upstream's `max_concurrent_requests` (waiting in line until the call's deadline or the run's
 * end), send, and — for a read the service answered 429/503 with a `Retry-After` that still fits the call's time —
 * wait that long and send once more. A write is never sent twice.
 */
async function dispatch(ctx: RunScope, out: Outgoing): Promise<ToolResult> {
  const { target, effect, deadline } = out;
  const clock = ctx.runtime.clock;
  const limiter = target.limiter;
  const release = await limiter.acquire(deadline - clock.now(), ctx.signal);
  if (!release) {
    return {
      ok: false,
      reason: "timeout",
      message: `upstream ${target.spec.name} had ${limiter.max} calls in flight (max_concurrent_requests) until ` +
        "this call's time ran out; it was not sent",
      mutationState: "not_applied",
    };
  }
  try {
    const first = await send(ctx, out);
    const wait = first.ok || effect === "write" ? undefined : first.retryAfterMs;
    if (wait === undefined || clock.now() + wait >= deadline || ctx.signal.aborted) return first;
    if (!await sleep(wait, ctx.signal)) return first;
    return await send(ctx, out);
  } finally {
    release();
  }
}

/** Wait `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Validate and perform one `tool/call` for a run. Never throws; every message is redacted. */
export async function callTool(ctx: RunScope, request: ToolRequest): Promise<ToolOutcome> {
  let outcome: ToolOutcome;
  try {
    outcome = await callToolUnredacted(ctx, request);
  } catch (e) {
    outcome = raise(`tool/call failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
  if (outcome.kind === "raise" || (outcome.kind === "tagged" && !outcome.ok)) {
    return { ...outcome, message: clip(ctx.runtime.redactor.redact(outcome.message)) };
  }
  return outcome;
}

/** A well-formed `tool/call` request; `reason` is the program's explanation (`{:reason "…"}`), shown to an approver. */
export interface CallTarget {
  server: string;
  tool: string;
  rawArgs: JsonObject;
  reason?: string;
}

/** How a call ended, before it is recorded: a value, or a world fault; a write says what it did. */
export type Settled =
  | {
    ok: true;
    value: JsonValue;
    valueKind: "json" | "text" | "none";
    mutationState?: MutationState;
    approval?: Approval;
  }
  | { ok: false; reason: string; message: string; mutationState?: MutationState; approval?: Approval };

/** The approve step's outcome, kept on the call's record (never shown to the program as a key). */
type Approval = ApprovalOutcome;

/** Records a call that reached the budget and returns its outcome to the program; `args` as recorded (redacted). */
export type Recorder = ((settled: Settled, bytes: number) => ToolOutcome) & { args: JsonValue };

/** The arguments of a call that may be dispatched, mapped to the installed tool's names, and the tool's effect. */
interface ResolvedArgs {
  args: JsonObject;
  effect: ToolEffect;
}

export const CLOSED: ToolOutcome = {
  kind: "tagged",
  ok: false,
  reason: "run_context_closed",
  message: "the run that made this call ended",
};

const NOT_SENT = { mutationState: "not_applied" } as const;

/** An outcome that goes to the program unrecorded (a raise, or the run ended). */
export function isOutcome(x: object): x is ToolOutcome {
  return "kind" in x;
}

/** A world fault to record before it goes to the program. */
export function isFault(x: object): x is Settled {
  return "ok" in x;
}

/**
 * validate → budget → resolve (upstream, tool, arguments) → approve (writes, when approval is on) → dispatch (through
 * the run's interceptor) → settle → record.
 */
async function callToolUnredacted(ctx: RunScope, request: ToolRequest): Promise<ToolOutcome> {
  const target = validateRequest(ctx, request);
  if (isOutcome(target)) return target;
  const record = recorder(ctx, target);
  const overBudget = chargeBudget(ctx);
  if (overBudget) return record(overBudget, 0);
  const deadline = ctx.runtime.clock.now() + ctx.limits.callTimeoutMs;
  const state = await resolveUpstream(ctx, target.server, deadline);
  if (isOutcome(state)) return state;
  if (isFault(state)) return record(state, 0);
  const resolved = resolveTool(ctx, state, target);
  if (isOutcome(resolved)) return resolved;
  const write = resolved.effect === "write";
  if (write) {
    const overWrites = chargeWrites(ctx);
    if (overWrites) return record(overWrites, 0);
  }
  const approval = write ? await approve(ctx, target, resolved.effect, record.args) : undefined;
  if (ctx.closed) return CLOSED;
  if (approval && !approval.ok) return record(approval, 0);
  const perform = () =>
    dispatch(ctx, { target: state, tool: target.tool, args: resolved.args, effect: resolved.effect, deadline });
  const call = {
    server: target.server,
    tool: target.tool,
    args: resolved.args,
    effect: resolved.effect,
    ...(approval ? { approval: "accepted" as const } : {}),
  };
  const release = write
    ? ctx.writeInFlight({ server: target.server, tool: target.tool, args: record.args })
    : undefined;
  let result: Awaited<ReturnType<CallInterceptor>>;
  try {
    result = ctx.intercept ? await ctx.intercept(call, perform) : await perform();
  } finally {
    release?.();
  }
  if (ctx.closed) return CLOSED;
  if ("kind" in result) {
    // An interceptor refused the call (a replay's unrecorded call): recorded, never sent, and it ends the program.
    record({ ok: false, reason: result.reason, message: result.message, ...(write ? NOT_SENT : {}) }, 0);
    return result;
  }
  const { settled, bytes } = settle(ctx, result);
  const stated = write ? withMutationState(settled, result.ok ? undefined : result.mutationState) : settled;
  return record(approval ? { ...stated, approval: approval.approval } : stated, bytes);
}

/** The request's shape: `{:server s :tool t :args {…}}` on `tool/call` of an open run. Raises on a bad shape. */
function validateRequest(ctx: RunScope, request: ToolRequest): CallTarget | ToolOutcome {
  if (request.name !== "call") return raise(`unknown host tool tool/${request.name}; use tool/call`);
  if (ctx.closed) return CLOSED;
  const req = request.args;
  if (!isObject(req)) return raise("tool/call expects {:server … :tool … :args {…}}");
  for (const key of Object.keys(req)) {
    if (!CALL_KEYS.includes(key)) return raise(`tool/call got unknown key "${key}"${didYouMean(key, CALL_KEYS)}`);
  }
  const server = req.server;
  if (typeof server !== "string" || server === "") {
    return raise(`tool/call requires :server (string), got ${describeValue(server)}. ${configured(ctx)}`);
  }
  const tool = req.tool;
  if (typeof tool !== "string" || tool === "") {
    return raise(`tool/call on upstream '${server}' requires :tool (string), got ${describeValue(tool)}`);
  }
  const rawArgs = req.args ?? {};
  if (!isObject(rawArgs)) {
    return raise(`tool '${server}/${tool}' rejected args: :args must be a map, got ${describeValue(rawArgs)}`);
  }
  // Redaction, name matching and schema checks walk the arguments recursively: refuse a depth they cannot walk
  // (it would end in the engine's stack-overflow text), before anything is charged or sent.
  if (nestsDeeperThan(rawArgs, MAX_RESPONSE_DEPTH)) {
    return raise(
      `tool '${server}/${tool}' rejected args: they nest vectors/maps deeper than ${MAX_RESPONSE_DEPTH} levels`,
    );
  }
  const reason = req.reason;
  if (reason !== undefined && typeof reason !== "string") {
    return raise(`tool '${server}/${tool}': :reason must be a string, got ${describeValue(reason)}`);
  }
  return { server, tool, rawArgs, ...(reason ? { reason: ctx.runtime.redactor.redact(reason) } : {}) };
}

const CALL_KEYS = ["server", "tool", "args", "reason"];

export function configured(ctx: RunScope): string {
  return `Configured upstreams: ${ctx.runtime.serverNames().join(", ") || "(none)"}`;
}

/** Count the call against the run's budget (before any lookup); the fault when the budget is spent. */
export function chargeBudget(ctx: RunScope): Settled | undefined {
  ctx.callCount++;
  if (ctx.callCount <= ctx.limits.maxToolCalls) return undefined;
  return {
    ok: false,
    reason: "cap_exhausted",
    message: `tool call budget exhausted: at most ${ctx.limits.maxToolCalls} calls per run`,
  };
}

/** Count a write against the run's write budget; the fault (never sent: `not_applied`) when it is spent. */
function chargeWrites(ctx: RunScope): Settled | undefined {
  ctx.writeCount++;
  if (ctx.writeCount <= ctx.limits.maxWriteCalls) return undefined;
  return {
    ok: false,
    reason: "cap_exhausted",
    message: `write budget exhausted: at most ${ctx.limits.maxWriteCalls} write calls per run (max_write_calls); ` +
      "this write was not sent",
    mutationState: "not_applied",
  };
}

/**
 * The approve step: a write, when the runtime requires approval (`--approve-writes` / `approve_writes`), waits for the
 * run's approver (asked one call at a time per run, bounded in time) before anything is sent. Accepted → `{ok: true}`
 * and the call proceeds; declined or cancelled → `declined`; no approver, no capability, no answer in time →
 * `approval_unavailable`; both refusals are `not_applied`. Reads and runs without approval skip it (`undefined`).
 */
async function approve(
  ctx: RunScope,
  target: CallTarget,
  effect: ToolEffect,
  recordedArgs: JsonValue,
): Promise<{ ok: true; approval: Approval } | Settled | undefined> {
  if (!ctx.runtime.approveWrites) return undefined;
  const what = `write ${target.server}/${target.tool}`;
  if (!ctx.approver) {
    return {
      ok: false,
      reason: "approval_unavailable",
      message: `${what} needs a person's approval (approve_writes / --approve-writes) and no one can be asked here ` +
        "(ptc eval: add --yes to approve this run's writes); it was not sent",
      ...NOT_SENT,
      approval: "unavailable",
    };
  }
  const request = approvalRequest({ server: target.server, tool: target.tool, effect }, recordedArgs, target.reason);
  const approver = ctx.approver;
  const answer = await ctx.approvals.run(async () => {
    // The program's deadline pauses while a person decides (at most the approval wait, capped at 5 minutes).
    const release = ctx.holdClock();
    try {
      return await askBounded(approver, request, ctx.signal, ctx.approvalWaitMs);
    } finally {
      release();
    }
  });
  if (answer.outcome === "accepted") return { ok: true, approval: "accepted" };
  if (answer.outcome === "unavailable") {
    const why = answer.detail ? `: ${answer.detail}` : "";
    return {
      ok: false,
      reason: "approval_unavailable",
      message: `${what} could not be approved${why}; it was not sent`,
      ...NOT_SENT,
      approval: "unavailable",
    };
  }
  return {
    ok: false,
    reason: "declined",
    message: `${what} was ${answer.outcome} by the person asked to approve it; it was not sent`,
    ...NOT_SENT,
    approval: answer.outcome,
  };
}

/** Reasons that mean the request may have reached the service but no complete answer came back. */
const INDETERMINATE = new Set([
  "timeout",
  "response_too_large",
  "invalid_response",
  "upstream_error",
  "run_context_closed",
]);

/**
 * What a write did, from how it settled: a success is `applied`; a complete refusal (4xx, `isError`, JSON-RPC error,
 * an unavailable upstream that was never reached) is `not_applied`; a call that may have been sent without a complete
 * answer is `indeterminate`, and its message says to check before repeating it. What the transport knows (`known`:
 * it saw a 4xx, a 5xx, a reset) decides a failure the settle step left as the transport reported it; a failure the
 * runtime itself produced (over the run's cap, too deep) is decided by its reason.
 */
function withMutationState(settled: Settled, known?: "not_applied" | "indeterminate"): Settled {
  if (settled.mutationState) return settled;
  if (settled.ok) return { ...settled, mutationState: "applied" };
  const state = known ?? (INDETERMINATE.has(settled.reason) ? "indeterminate" : "not_applied");
  if (state === "not_applied") return { ...settled, mutationState: "not_applied" };
  return {
    ...settled,
    message: `${settled.message} — the write may or may not have been applied; check the service before repeating it`,
    mutationState: "indeterminate",
  };
}

/**
 * The configured upstream once its supervisor has it ready: an idle one is started, a start or reconnect in flight
 * is joined, all within the call's deadline. Raises on an unknown upstream; one that is not ready in time is a world
 * fault (`upstream_unavailable`) saying why and when ptc tries again.
 */
export async function resolveUpstream(
  ctx: RunScope,
  server: string,
  deadline: number = ctx.runtime.clock.now() + ctx.limits.callTimeoutMs,
): Promise<ConfiguredUpstream | Settled | ToolOutcome> {
  const rt = ctx.runtime;
  const target = rt.upstreams.get(server);
  if (!target) {
    return raise(`no upstream '${server}' configured${didYouMean(server, rt.serverNames())}. ${configured(ctx)}`);
  }
  if (await target.supervisor.whenReady(deadline, ctx.signal)) return target;
  if (ctx.closed) return CLOSED;
  return unavailable(ctx, target);
}

/** An upstream that is not ready: its state, the cause and when ptc tries again (`unavailableMessage`). */
function unavailable(ctx: RunScope, target: ConfiguredUpstream): ToolResult & { ok: false } {
  const s = target.supervisor;
  const state = { name: target.spec.name, state: s.phase, cause: s.cause, next_attempt_at: s.nextAttemptAt };
  const message = unavailableMessage(state, ctx.runtime.clock.now(), ctx.limits.callTimeoutMs);
  // an OAuth upstream that needs a new login is an auth failure, whose message says to run `ptc auth login`
  const reason = s.cause?.code === "login_required" ? "auth_failed" : "upstream_unavailable";
  return { ok: false, reason, message: ctx.runtime.redactor.redact(message) };
}

/**
 * The installed tool and the arguments mapped to its names. Raises on a tool the install policy withheld (saying
 * why), an unknown tool (with the nearest name) and arguments the tool's schema rejects.
 */
function resolveTool(ctx: RunScope, state: ConfiguredUpstream, target: CallTarget): ResolvedArgs | ToolOutcome {
  const rt = ctx.runtime;
  const { server, tool } = target;
  const entry = rt.findTool(server, tool);
  if (!entry) {
    const why = state.withheld.get(tool);
    if (why !== undefined) return raise(`tool '${server}/${tool}' ${why}`);
    const known = state.tools.map((t) => t.name);
    return raise(
      `no tool '${tool}' in upstream '${server}'${didYouMean(tool, known)}. ` +
        `Known tools: ${known.join(", ") || "(none)"}`,
    );
  }
  const args = matchArgNames(target.rawArgs, entry.inputSchema ?? {});
  const problems = argumentProblems(entry, args);
  if (problems.length > 0) {
    return raise(rt.redactor.redact(`tool '${server}/${tool}' rejected args: ${problems.join("; ")}`));
  }
  return { args, effect: entry.effect ?? "write" };
}

/** What the transport answered, bounded by the run's response cap and redacted; `bytes` as received. */
export function settle(ctx: RunScope, result: ToolResult): { settled: Settled; bytes: number } {
  const red = ctx.runtime.redactor;
  if (!result.ok) {
    return {
      settled: { ok: false, reason: result.reason, message: clip(red.redact(result.message)) },
      bytes: result.bytes ?? 0,
    };
  }
  if (nestsDeeperThan(result.value, MAX_RESPONSE_DEPTH)) return { settled: tooDeep(), bytes: result.bytes ?? 0 };
  const bytes = result.bytes ?? jsonBytes(result.value);
  if (bytes > ctx.limits.maxResponseBytes) {
    return {
      settled: {
        ok: false,
        reason: "response_too_large",
        message: `response exceeded ${ctx.limits.maxResponseBytes} bytes`,
      },
      bytes,
    };
  }
  return { settled: { ok: true, value: red.redactJson(result.value), valueKind: result.valueKind }, bytes };
}

/** Start timing a call; the returned function appends its `CallRecord` to the run and returns the outcome. */
export function recorder(ctx: RunScope, target: CallTarget): Recorder {
  const started = performance.now();
  const base = { server: target.server, tool: target.tool, args: ctx.runtime.redactor.redactJson(target.rawArgs) };
  return Object.assign((settled: Settled, bytes: number): ToolOutcome => {
    const duration_ms = Math.round((performance.now() - started) * 1000) / 1000;
    const { approval, ...outcome } = settled;
    const m = {
      ...(settled.mutationState ? { mutation_state: settled.mutationState } : {}),
      ...(approval ? { approval } : {}),
    };
    const record: CallRecord = settled.ok
      ? { ...base, status: "ok", duration_ms, bytes, preview: previewJson(settled.value), ...m }
      : { ...base, status: "error", reason: settled.reason, message: settled.message, duration_ms, bytes, ...m };
    ctx.record(record);
    return { kind: "tagged", ...outcome };
  }, { args: base.args });
}
