/**
 * The `tool/call` host callback: `ToolRequest {name: "call", args: {server, tool, args}}` → validation in the order of
 * digest §8.2 → `upstream.call` → a tagged outcome. Programmer faults (unknown server/tool, bad argument shape or
 * values) raise `runtime_error`; world faults come back as `{ok: false, reason, message}`; every message and record
 * is redacted.
 * @module
 */
import type { JsonObject, JsonValue, ToolResult } from "./types.ts";
import type { ToolOutcome, ToolRequest } from "./host_types.ts";
import type { CallRecord, RunContext } from "./run_context.ts";
import type { UpstreamState } from "./runtime.ts";
import { previewJson } from "./preview.ts";
import { argumentProblems, matchArgNames } from "./tool_args.ts";
import { describeValue, didYouMean, nearest } from "./suggest.ts";

export { argumentProblems, matchArgNames } from "./tool_args.ts";

const MAX_MESSAGE_CHARS = 2000;

function raise(message: string): ToolOutcome {
  return { kind: "raise", reason: "runtime_error", message };
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** UTF-8 byte length of a JSON value. */
export function jsonBytes(value: JsonValue): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "null").length;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

async function dispatch(ctx: RunContext, state: UpstreamState, tool: string, args: JsonObject): Promise<ToolResult> {
  const upstream = state.upstream!;
  const timeoutMs = ctx.limits.callTimeoutMs;
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
    const call = upstream.call(tool, args, {
      signal: controller.signal,
      timeoutMs,
      maxResponseBytes: ctx.limits.maxResponseBytes,
    });
    call.catch(() => {}); // a late rejection after the timeout won must not go unhandled
    return await Promise.race([call, timeout]);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { ok: false, reason: "upstream_error", message: `transport failed: ${msg}` };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** Validate and perform one `tool/call` for a run. Never throws; every message is redacted. */
export async function callTool(ctx: RunContext, request: ToolRequest): Promise<ToolOutcome> {
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

async function callToolUnredacted(ctx: RunContext, request: ToolRequest): Promise<ToolOutcome> {
  const rt = ctx.runtime;
  const red = rt.redactor;
  if (request.name !== "call") return raise(`unknown host tool tool/${request.name}; use tool/call`);
  if (ctx.closed) {
    return { kind: "tagged", ok: false, reason: "run_context_closed", message: "the run that made this call ended" };
  }
  const req = request.args;
  if (!isObject(req)) return raise("tool/call expects {:server … :tool … :args {…}}");
  for (const key of Object.keys(req)) {
    if (!["server", "tool", "args"].includes(key)) {
      return raise(`tool/call got unknown key "${key}"${didYouMean(key, ["server", "tool", "args"])}`);
    }
  }
  const servers = rt.serverNames();
  const server = req.server;
  const configured = `Configured upstreams: ${servers.join(", ") || "(none)"}`;
  if (typeof server !== "string" || server === "") {
    return raise(`tool/call requires :server (string), got ${describeValue(server)}. ${configured}`);
  }
  const tool = req.tool;
  if (typeof tool !== "string" || tool === "") {
    return raise(`tool/call on upstream '${server}' requires :tool (string), got ${describeValue(tool)}`);
  }
  const rawArgs = req.args ?? {};
  if (!isObject(rawArgs)) {
    return raise(`tool '${server}/${tool}' rejected args: :args must be a map, got ${describeValue(rawArgs)}`);
  }

  const started = performance.now();
  const base = { server, tool, args: red.redactJson(rawArgs) as JsonValue };
  const finish = (
    outcome: { ok: true; value: JsonValue; valueKind: "json" | "text" | "none" } | {
      ok: false;
      reason: string;
      message: string;
    },
    bytes: number,
  ): ToolOutcome => {
    const duration_ms = Math.round((performance.now() - started) * 1000) / 1000;
    const record: CallRecord = outcome.ok
      ? { ...base, status: "ok", duration_ms, bytes, preview: previewJson(outcome.value) }
      : { ...base, status: "error", reason: outcome.reason, message: outcome.message, duration_ms, bytes };
    ctx.record(record);
    return { kind: "tagged", ...outcome };
  };

  ctx.callCount++;
  if (ctx.callCount > ctx.limits.maxToolCalls) {
    return finish({
      ok: false,
      reason: "cap_exhausted",
      message: `tool call budget exhausted: at most ${ctx.limits.maxToolCalls} calls per run`,
    }, 0);
  }

  let state = rt.upstreams.get(server);
  if (!state) {
    return raise(`no upstream '${server}' configured${didYouMean(server, servers)}. ${configured}`);
  }
  if (state.status !== "ready" && rt.snapshotMode === "live") {
    await rt.refresh([server]);
    state = rt.upstreams.get(server)!;
  }
  if (state.status !== "ready" || !state.upstream) {
    return finish({
      ok: false,
      reason: "upstream_unavailable",
      message: red.redact(state.error ?? `upstream ${server} is unavailable`),
    }, 0);
  }
  const entry = rt.findTool(server, tool);
  if (!entry) {
    const why = state.withheld.get(tool);
    if (why !== undefined) return raise(`tool '${server}/${tool}' ${why}`);
    const known = rt.catalog().find((s) => s.name === server)?.tools.map((t) => t.name) ?? [];
    const near = nearest(tool, known, 1);
    return raise(
      `no tool '${tool}' in upstream '${server}'${near.length ? ` (did you mean '${near[0]}'?)` : ""}. ` +
        `Known tools: ${known.join(", ") || "(none)"}`,
    );
  }
  const args = matchArgNames(rawArgs, entry.inputSchema ?? {});
  const problems = argumentProblems(entry, args);
  if (problems.length > 0) {
    return raise(red.redact(`tool '${server}/${tool}' rejected args: ${problems.join("; ")}`));
  }

  const result = await dispatch(ctx, state, tool, args);
  if (ctx.closed) {
    return { kind: "tagged", ok: false, reason: "run_context_closed", message: "the run that made this call ended" };
  }
  if (result.ok) {
    const bytes = result.bytes ?? jsonBytes(result.value);
    if (bytes > ctx.limits.maxResponseBytes) {
      return finish({
        ok: false,
        reason: "response_too_large",
        message: `response exceeded ${ctx.limits.maxResponseBytes} bytes`,
      }, bytes);
    }
    return finish({ ok: true, value: red.redactJson(result.value), valueKind: result.valueKind }, bytes);
  }
  return finish({ ok: false, reason: result.reason, message: clip(red.redact(result.message)) }, result.bytes ?? 0);
}
