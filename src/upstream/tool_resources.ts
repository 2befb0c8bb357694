/**
 * The resource host tools: `(tool/resources 'srv)` → `ToolRequest {name: "resources", args: {server}}` and
 * `(tool/read-resource 'srv "uri")` → `{name: "read-resource", args: {server, uri}}`. Each is one request to the
 * upstream's optional `listResources` / `readResource` (MCP resources), handled exactly like a `tool/call`: validated,
 * charged against the run's tool-call budget, bounded by the call timeout and the response cap, passed through the
 * run's interceptor (recorded and replayed as server `srv`, tool `resources/list` / `resources/read` — names no tool
 * can have), redacted, recorded, and answered as a tagged outcome (`{:ok true :value …}` / `{:ok false :reason …}`).
 * A resource read is a read: it needs no write permission and never counts against the write budget.
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { CallInterceptor, RunScope } from "./run_records.ts";
import type { ToolResult } from "./types.ts";
import { describeValue } from "./messages.ts";
import { didYouMean } from "../core/suggest.ts";
import {
  bounded,
  chargeBudget,
  clip,
  CLOSED,
  isFault,
  isOutcome,
  raise,
  recorder,
  resolveUpstream,
  settle,
} from "./tool_call.ts";

/** The host tool names this module serves. */
export const RESOURCE_TOOLS = ["resources", "read-resource"] as const;

/** The tool name a resource request is recorded under. */
const RECORDED_AS = { resources: "resources/list", "read-resource": "resources/read" } as const;

/** Longest resource URI accepted from a program. */
export const MAX_URI_CHARS = 4096;

/** Perform `tool/resources` or `tool/read-resource` for a run. Never throws; every message is redacted. */
export async function resourceTool(ctx: RunScope, request: ToolRequest): Promise<ToolOutcome> {
  let outcome: ToolOutcome;
  try {
    outcome = await resourceToolUnredacted(ctx, request);
  } catch (e) {
    outcome = raise(`tool/${request.name} failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
  if (outcome.kind === "raise" || (outcome.kind === "tagged" && !outcome.ok)) {
    return { ...outcome, message: clip(ctx.runtime.redactor.redact(outcome.message)) };
  }
  return outcome;
}

async function resourceToolUnredacted(ctx: RunScope, request: ToolRequest): Promise<ToolOutcome> {
  const name = request.name as keyof typeof RECORDED_AS;
  const target = validate(ctx, name, request.args);
  if (isOutcome(target)) return target;
  const tool = RECORDED_AS[name];
  const rawArgs: JsonObject = target.uri === undefined ? {} : { uri: target.uri };
  const record = recorder(ctx, { server: target.server, tool, rawArgs });
  const overBudget = chargeBudget(ctx);
  if (overBudget) return record(overBudget, 0);
  const state = await resolveUpstream(ctx, target.server);
  if (isOutcome(state)) return state;
  if (isFault(state)) return record(state, 0);
  const upstream = state.upstream!;
  if ((name === "resources" ? upstream.listResources : upstream.readResource) === undefined) {
    return raise(
      `upstream '${target.server}' serves no resources (tool/${name} reaches MCP upstreams; ` +
        `this one is ${state.transport.name})`,
    );
  }
  const perform = () =>
    bounded(
      ctx,
      (callCtx) =>
        name === "resources"
          ? upstream.listResources!(callCtx)
          : upstream.readResource!(target.uri!, { ...callCtx, effect: "read" }),
    );
  const call = { server: target.server, tool, args: rawArgs, effect: "read" as const };
  const result: Awaited<ReturnType<CallInterceptor>> = ctx.intercept
    ? await ctx.intercept(call, perform)
    : await perform();
  if (ctx.closed) return CLOSED;
  if ("kind" in result) {
    record({ ok: false, reason: result.reason, message: result.message }, 0);
    return result;
  }
  const { settled, bytes } = settle(ctx, result as ToolResult);
  return record(settled, bytes);
}

/** `{server}` (and `{uri}` for a read) of an open run. Raises on a bad shape. */
function validate(
  ctx: RunScope,
  name: string,
  args: JsonObject,
): { server: string; uri?: string } | ToolOutcome {
  if (ctx.closed) return CLOSED;
  const allowed = name === "resources" ? ["server"] : ["server", "uri"];
  for (const key of Object.keys(args ?? {})) {
    if (!allowed.includes(key)) return raise(`tool/${name} got unknown key "${key}"${didYouMean(key, allowed)}`);
  }
  const server = args?.server;
  if (typeof server !== "string" || server === "") {
    return raise(`tool/${name} requires a server name, got ${describeValue(server)}`);
  }
  if (name === "resources") return { server };
  const uri = args.uri;
  if (typeof uri !== "string" || uri === "") {
    return raise(
      `tool/read-resource on upstream '${server}' requires a resource URI string, got ${describeValue(uri)}`,
    );
  }
  if (uri.length > MAX_URI_CHARS) {
    return raise(`tool/read-resource: the URI is ${uri.length} characters long, more than ${MAX_URI_CHARS}`);
  }
  return { server, uri };
}
