/**
 * The discovery host callback: `servers`, `dir`, `doc`, `meta`, `apropos` over the runtime's catalog snapshot, by
 * exposed name. Each operation is budgeted (max_catalog_ops; results over max_catalog_result_bytes) — budget
 * problems are world faults (the form returns nil); bad references and options are programmer faults.
 * Accepted argument keys (option keys arrive as plain names): dir `{ref|server, limit?, offset?}`, doc/meta
 * `{ref}` or `{server, tool}`, apropos `{query|q, limit?, load?}`; `ref` may be `"srv"`, `"srv/tool"`.
 * One tool count everywhere: a server's `tool_count` is its installed, callable tools, hidden ones included; `dir`
 * and `apropos` leave hidden tools out (they stay callable and documented), and `(doc 'srv)` says how many are.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolEntry } from "./types.ts";
import type { DiscoveryOp, DiscoveryOutcome } from "../core/tool_seam.ts";
import type { RunScope } from "./run_records.ts";
import type { UpstreamSnapshot } from "./runtime.ts";
import { apropos } from "./apropos.ts";
import { oneLine, renderDoc } from "./signature.ts";
import { didYouMean } from "../core/suggest.ts";
import { describeValue } from "./messages.ts";
import { jsonBytes } from "./bytes.ts";
import { stateLabel, unavailableMessage } from "./upstream_state.ts";

class Fault extends Error {}

function intOpt(args: JsonObject, key: string, min: number, max: number, dflt: number, op: string): number {
  const v = args[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new Fault(`${op} :${key} must be an integer ${min}..${max === Infinity ? "" : max}, got ${describeValue(v)}`);
  }
  return v;
}

function refOf(args: JsonObject, op: string): string {
  const v = args.ref ?? args.server ?? args.name;
  if (typeof v !== "string" || v.trim() === "") throw new Fault(`${op} requires a reference like 'srv/tool'`);
  if (op !== "dir" && typeof args.tool === "string" && !v.includes("/")) return `${v}/${args.tool}`;
  return v;
}

function findServer(catalog: UpstreamSnapshot[], name: string): UpstreamSnapshot {
  const s = catalog.find((x) => x.name === name);
  if (!s) {
    const names = catalog.map((x) => x.name);
    throw new Fault(
      `no upstream '${name}' configured${didYouMean(name, names)}. Configured upstreams: ${
        names.join(", ") || "(none)"
      }`,
    );
  }
  return s;
}

/** Thrown for a server whose tools are not known because it is not ready: a world fault, not a programmer's. */
class Unavailable extends Error {}

/** The server's tools, or Unavailable when it never listed them (not started in time, failed). */
function loaded(ctx: RunScope, server: UpstreamSnapshot): UpstreamSnapshot {
  if (server.catalog_loaded) return server;
  throw new Unavailable(unavailableMessage(server, ctx.runtime.clock.now(), ctx.limits.callTimeoutMs));
}

/**
 * The tool `ref` names. A tool the write gate withheld is refused with the gate's reason, as `tool/call` refuses it,
 * never with a "did you mean" pointing at some other tool.
 */
function findTool(ctx: RunScope, catalog: UpstreamSnapshot[], ref: string, op: string): [UpstreamSnapshot, ToolEntry] {
  const i = ref.indexOf("/");
  if (i <= 0 || i === ref.length - 1) throw new Fault(`${op} requires upstream/tool ref, got "${ref}"`);
  const server = loaded(ctx, findServer(catalog, ref.slice(0, i)));
  const name = ref.slice(i + 1);
  const tool = server.tools.find((t) => t.name === name);
  if (!tool) {
    const why = ctx.runtime.upstreams.get(server.name)?.withheld.get(name);
    if (why !== undefined) throw new Fault(`tool '${server.name}/${name}' ${why}`);
    throw new Fault(
      `no tool '${name}' in upstream '${server.name}'${didYouMean(name, server.tools.map((t) => t.name))}`,
    );
  }
  return [server, tool];
}

function line(server: string, tool: ToolEntry): string {
  const effect = tool.effect === "write" ? " [write]" : "";
  return `${server}/${tool.name}${effect} - ${oneLine(tool.description ?? "", 10_000)}`;
}

/** The tools `dir` and `apropos` show: every installed one but those the operator mapped `hidden`. */
function listed(server: UpstreamSnapshot): ToolEntry[] {
  return server.tools.filter((t) => !t.hidden);
}

/** The last line of a write tool's doc when writes wait for approval (`--approve-writes` / `approve_writes`). */
const APPROVAL_NOTE = `Approval: waits for a person to approve each call before it is sent; say why with ` +
  `(tool/call 'srv/op {…} {:reason "…"}); declined → {:ok false :reason :declined :mutation_state :not_applied}`;

/**
 * `(doc 'srv)`: the server's full description, its state when it is not ready, its one tool count (or that its tools
 * are not known yet), and where its tools and paging are.
 */
function serverDoc(ctx: RunScope, s: UpstreamSnapshot): string {
  const hidden = s.tools.length - listed(s).length;
  const paging = listed(s).filter((t) => t.pagination).map((t) => `${s.name}/${t.name}`);
  const state = s.state === "ready" ? "" : `, ${stateLabel(s, ctx.runtime.clock.now())}`;
  const tools = s.catalog_loaded
    ? `Tools: ${s.tool_count} installed and callable${
      hidden ? `, ${hidden} of them hidden (callable, left out of dir and apropos)` : ""
    }; (dir '${s.name}) lists them, (doc '${s.name}/tool) documents one.`
    : `Tools: not known yet; (dir '${s.name}) starts it and lists them, and a tool is callable by name once it is up.`;
  const lines = [
    `${s.name} (${s.transport} upstream${state})`,
    ...(s.description ? [s.description.trim()] : []),
    tools,
  ];
  if (paging.length) lines.push(`Pages (tool/pages follows them): ${paging.join(", ")}`);
  return lines.join("\n");
}

function compute(ctx: RunScope, op: DiscoveryOp, args: JsonObject): { result: JsonValue; keywordKeys?: boolean } {
  const catalog = ctx.runtime.catalog();
  switch (op) {
    case "servers":
      return {
        result: catalog.map((s) => ({
          name: s.name,
          description: s.description,
          tool_count: s.tool_count,
          catalog_loaded: s.catalog_loaded,
          state: s.state,
          status: stateLabel(s, ctx.runtime.clock.now()),
        })),
        keywordKeys: true,
      };
    case "dir": {
      const limit = intOpt(args, "limit", 1, 200, 50, "dir");
      const offset = intOpt(args, "offset", 0, Number.MAX_SAFE_INTEGER, 0, "dir");
      const server = loaded(ctx, findServer(catalog, refOf(args, "dir").replace(/\/$/, "")));
      const tools = listed(server).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      return { result: tools.slice(offset, offset + limit).map((t) => line(server.name, t)) };
    }
    case "doc": {
      const ref = refOf(args, "doc").replace(/\/$/, "");
      if (!ref.includes("/")) return { result: serverDoc(ctx, findServer(catalog, ref)) };
      const [server, tool] = findTool(ctx, catalog, ref, "doc");
      const doc = renderDoc(server.name, tool);
      return { result: tool.effect === "write" && ctx.runtime.approveWrites ? `${doc}\n${APPROVAL_NOTE}` : doc };
    }
    case "meta": {
      const [server, tool] = findTool(ctx, catalog, refOf(args, "meta"), "meta");
      return {
        result: {
          server: server.name,
          name: tool.name,
          description: tool.description ?? "",
          input_schema: tool.inputSchema as JsonValue,
          output_schema: (tool.outputSchema ?? null) as JsonValue,
          annotations: (tool.annotations ?? null) as JsonValue,
          effect: tool.effect ?? "write",
          _ptc: tool._ptc as JsonValue,
        },
        keywordKeys: true,
      };
    }
    case "apropos": {
      const q = args.query ?? args.q;
      if (typeof q !== "string" || q.trim() === "") throw new Fault("apropos requires a non-blank query string");
      const limit = intOpt(args, "limit", 1, 50, 8, "apropos");
      if (args.load !== undefined && typeof args.load !== "boolean") throw new Fault("apropos :load must be a boolean");
      const shown = catalog.map((s) => ({ ...s, tools: listed(s) }));
      return { result: apropos(shown, q, limit).map((h) => `${h.server}/${h.tool} - ${h.description}`) };
    }
    default:
      throw new Fault(`unknown discovery operation "${op}"`);
  }
}

/** Perform one discovery operation for a run. Never throws. */
export async function discover(ctx: RunScope, op: DiscoveryOp, args: JsonObject): Promise<DiscoveryOutcome> {
  const started = performance.now();
  const red = ctx.runtime.redactor;
  const record = (outcome: "ok" | "nil_world_fault" | "raise", reason?: string) =>
    ctx.recordOp({
      operation: op,
      args: red.redactJson(args ?? {}) as JsonValue,
      outcome,
      ...(reason ? { reason } : {}),
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
  if (ctx.closed) {
    return { kind: "world_fault", reason: "run_context_closed", message: "the run that asked ended" };
  }
  ctx.catalogOpCount++;
  if (ctx.catalogOpCount > ctx.limits.maxCatalogOps) {
    record("nil_world_fault", "catalog_cap_exhausted");
    return {
      kind: "world_fault",
      reason: "catalog_cap_exhausted",
      message: `discovery budget exhausted: at most ${ctx.limits.maxCatalogOps} operations per run`,
    };
  }
  await startNeeded(ctx, op, args ?? {});
  let out: { result: JsonValue; keywordKeys?: boolean };
  try {
    out = compute(ctx, op, args ?? {});
  } catch (e) {
    if (e instanceof Unavailable) {
      record("nil_world_fault", "upstream_unavailable");
      return { kind: "world_fault", reason: "upstream_unavailable", message: red.redact(e.message) };
    }
    record("raise");
    const message = e instanceof Fault ? e.message : `discovery ${op} failed`;
    return { kind: "programmer_fault", message: red.redact(message) };
  }
  const result = red.redactJson(out.result);
  const bytes = jsonBytes(result);
  if (bytes > ctx.limits.maxCatalogResultBytes) {
    record("nil_world_fault", "catalog_result_too_large");
    return {
      kind: "world_fault",
      reason: "catalog_result_too_large",
      message: `${op} result is ${bytes} bytes, over the ${ctx.limits.maxCatalogResultBytes}-byte limit; ` +
        "narrow it with :limit or apropos",
    };
  }
  record("ok");
  return out.keywordKeys ? { kind: "ok", result, keywordKeys: true } : { kind: "ok", result };
}

/**
 * Discovery is a first use too: `dir`, `doc` and `meta` of a server start it (and wait, within the call timeout, until
 * it listed its tools or one attempt failed); `apropos` does so for every upstream. `(tool/servers)` starts nothing.
 */
async function startNeeded(ctx: RunScope, op: DiscoveryOp, args: JsonObject): Promise<void> {
  const rt = ctx.runtime;
  const deadline = rt.clock.now() + ctx.limits.callTimeoutMs;
  if (op === "apropos") return await rt.settle(deadline, undefined, ctx.signal);
  if (op !== "dir" && op !== "doc" && op !== "meta") return;
  const ref = args.ref ?? args.server ?? args.name;
  if (typeof ref !== "string") return;
  const server = ref.split("/")[0];
  // `(doc 'srv)` describes the server as it is; only a tool's doc needs the tools
  if (op === "doc" && !ref.replace(/\/$/, "").includes("/")) return;
  if (rt.upstreams.has(server)) await rt.settle(deadline, [server], ctx.signal);
}
