/**
 * A started MCP upstream: its tool list (paged to the end, kebab-cased, every tool with its annotations), calls with normalized
 * results, availability state and — for child processes — restart with exponential backoff after a crash, during
 * which calls fail fast with `upstream_unavailable`.
 * @module
 */
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type {
  CallContext,
  JsonObject,
  JsonValue,
  ToolEntry,
  ToolResult,
  TransportDeps,
  Upstream,
} from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { classifyCallError, failure } from "./errors.ts";
import { type ExposedTools, exposeTools, mapArgumentKeys, type McpTool } from "./names.ts";
import { normalizeCallResult } from "./normalize.ts";
import { withCallScope } from "./call_scope.ts";
import type { Connection } from "./session.ts";
import type { McpCommonConfig } from "./config.ts";

/** Restart policy after an unexpected disconnect (child exit). */
export interface RestartPolicy {
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Consecutive failed restarts before giving up. */
  maxAttempts: number;
  /** Whether restarting is allowed right now (false while ptc is shutting down). */
  allowed?: () => boolean;
}

/** What {@link startMcpUpstream} needs from a concrete transport. */
export interface McpUpstreamSpec {
  transportName: "mcp_stdio" | "mcp_http";
  deps: TransportDeps;
  /** Connect (spawn/handshake); throws UpstreamStartError. */
  connect: () => Promise<Connection>;
  /**
   * The shared MCP settings: `startTimeoutMs` bounds `tools/list` (all pages), `maxTools` caps the tools accepted,
   * `requestTimeoutMs` is the upstream ceiling on one call, `protocol` is reported in diagnostics.
   */
  config: McpCommonConfig;
  /** Restart after an unexpected close (stdio); absent = no restart (HTTP is connectionless). */
  restart?: RestartPolicy;
  /** Non-secret transport facts for diagnostics (pid, stderr tail …). */
  extraDiagnostics?: () => JsonObject;
}

type State = "ready" | "restarting" | "failed" | "stopped";

/** List every tool (all pages, bounded). */
export async function listServerTools(conn: Connection, timeoutMs: number, maxTools: number): Promise<McpTool[]> {
  if (!conn.client.getServerCapabilities()?.tools) return [];
  let tools: McpTool[];
  try {
    const result = await conn.client.listTools(undefined, { timeout: timeoutMs, cacheMode: "refresh" });
    tools = result.tools as McpTool[];
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.ListPaginationExceeded) {
      throw new UpstreamStartError(
        "tool_list_too_long",
        "tools/list did not end within the page cap",
        "raise `max_list_pages` for this upstream",
      );
    }
    throw error;
  }
  if (tools.length > maxTools) {
    throw new UpstreamStartError(
      "tool_list_too_long",
      `the server lists ${tools.length} tools, more than max_tools (${maxTools})`,
      "raise `max_tools` for this upstream",
    );
  }
  return tools;
}

/** Start an MCP upstream over a concrete connector. */
export async function startMcpUpstream(spec: McpUpstreamSpec): Promise<Upstream> {
  const n = spec.deps.upstreamName;
  let conn = await spec.connect();
  let exposed: ExposedTools;
  try {
    exposed = expose(await listServerTools(conn, spec.config.startTimeoutMs, spec.config.maxTools));
  } catch (error) {
    await conn.client.close().catch(() => {});
    if (error instanceof UpstreamStartError) {
      throw new UpstreamStartError(error.code, `upstream ${n}: ${error.message}`, error.hint);
    }
    const c = classifyCallError(error, `upstream ${n}, tools/list`, {
      timeoutMs: spec.config.startTimeoutMs,
      redactor: spec.deps.redactor,
    });
    throw new UpstreamStartError("tool_list_failed", c.message, "run `ptc doctor --connect` for details");
  }
  let state: State = "ready";
  let restarts = 0;
  let consecutiveFailures = 0;
  let nextAttemptAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Promise<void> | undefined;
  let lastDisconnect: string | undefined;

  function expose(tools: McpTool[]): ExposedTools {
    const e = exposeTools(tools, spec.transportName);
    for (const c of e.collisions) {
      spec.deps.log(
        `upstream ${n}: tools ${[c.exposed, ...c.hidden].map((x) => JSON.stringify(x)).join(", ")} all map to ` +
          `"${c.name}"; exposing ${JSON.stringify(c.exposed)} and hiding the others`,
      );
    }
    for (const u of e.unnamed) spec.deps.log(`upstream ${n}: tool ${JSON.stringify(u)} has no usable name; hidden`);
    return e;
  }

  function watch(c: Connection) {
    c.client.onclose = () => {
      if (state !== "ready" || conn !== c) return;
      lastDisconnect = new Date().toISOString();
      if (!spec.restart) return;
      if (spec.restart.allowed && !spec.restart.allowed()) {
        state = "stopped";
        return;
      }
      spec.deps.log(`upstream ${n}: the server process exited; restarting`);
      scheduleRestart();
    };
  }

  function scheduleRestart() {
    const policy = spec.restart!;
    if (consecutiveFailures >= policy.maxAttempts) {
      state = "failed";
      spec.deps.log(`upstream ${n}: gave up after ${consecutiveFailures} failed restarts`);
      return;
    }
    state = "restarting";
    const delay = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** consecutiveFailures);
    nextAttemptAt = Date.now() + delay;
    timer = setTimeout(() => {
      timer = undefined;
      pending = attemptRestart().finally(() => pending = undefined);
    }, delay);
  }

  async function attemptRestart() {
    if (state !== "restarting") return;
    try {
      const fresh = await spec.connect();
      if (state !== "restarting") {
        await fresh.client.close().catch(() => {});
        return;
      }
      const tools = await listServerTools(fresh, spec.config.startTimeoutMs, spec.config.maxTools);
      conn = fresh;
      exposed = expose(tools);
      restarts++;
      consecutiveFailures = 0;
      state = "ready";
      watch(fresh);
      spec.deps.log(`upstream ${n}: restarted`);
    } catch (error) {
      consecutiveFailures++;
      const why = error instanceof UpstreamStartError ? error.code : "handshake_failed";
      spec.deps.log(`upstream ${n}: restart attempt ${consecutiveFailures} failed (${why})`);
      if (state === "restarting") scheduleRestart();
    }
  }

  watch(conn);

  function unavailable(): ToolResult {
    if (state === "restarting") {
      const wait = Math.max(0, nextAttemptAt - Date.now());
      return {
        ok: false,
        reason: "upstream_unavailable",
        message: `upstream ${n} is restarting after its server process exited (next attempt in ${wait} ms)`,
      };
    }
    if (state === "failed") {
      return {
        ok: false,
        reason: "upstream_unavailable",
        message: `upstream ${n} is down: its server process kept exiting and restarts were given up`,
      };
    }
    return { ok: false, reason: "upstream_unavailable", message: `upstream ${n} is stopped` };
  }

  return {
    listTools(): ToolEntry[] {
      return exposed.entries;
    },

    async call(toolName: string, args: JsonObject, ctx: CallContext): Promise<ToolResult> {
      const tool = exposed.byName.get(toolName);
      const label = `upstream ${n}, tool ${toolName}`;
      if (!tool) return { ok: false, reason: "not_found", message: `${label}: no such tool` };
      if (state !== "ready") return unavailable();
      const c = conn;
      const timeoutMs = Math.min(ctx.timeoutMs, spec.config.requestTimeoutMs);
      try {
        const result = await withCallScope({ maxResponseBytes: ctx.maxResponseBytes }, () =>
          c.client.callTool(
            { name: tool.name, arguments: mapArgumentKeys(args, tool.inputSchema) },
            { timeout: timeoutMs, signal: ctx.signal },
          ));
        return normalizeCallResult(result as Record<string, unknown>, {
          hasOutputSchema: tool.outputSchema !== undefined,
          maxResponseBytes: ctx.maxResponseBytes,
          redactor: spec.deps.redactor,
          toolLabel: label,
        });
      } catch (error) {
        if (state !== "ready" && state !== "stopped") return unavailable();
        return failure(classifyCallError(error, label, {
          timeoutMs,
          signal: ctx.signal,
          redactor: spec.deps.redactor,
        }));
      }
    },

    diagnostics(): JsonObject {
      const out: JsonObject = {
        transport: spec.transportName,
        state,
        protocol: spec.config.protocol,
        era: conn.era,
        protocolVersion: conn.protocolVersion,
        reusedVerdict: conn.reusedVerdict,
        tools: exposed.entries.length,
        restarts,
        collisions: exposed.collisions.map((c) => ({ name: c.name, exposed: c.exposed, hidden: c.hidden })),
      };
      if (lastDisconnect) out.lastDisconnect = lastDisconnect;
      const extra = spec.extraDiagnostics?.() ?? {};
      for (const [k, v] of Object.entries(extra)) out[k] = v as JsonValue;
      return spec.deps.redactor.redactJson(out);
    },

    async refresh(): Promise<void> {
      if (state !== "ready") return;
      exposed = expose(await listServerTools(conn, spec.config.startTimeoutMs, spec.config.maxTools));
    },

    async stop(): Promise<void> {
      if (state === "stopped") return;
      state = "stopped";
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await pending;
      await conn.client.close().catch(() => {});
    },
  };
}
