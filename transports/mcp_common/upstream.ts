/**
 * A started MCP upstream: its tool list (paged to the end, kebab-cased, every tool with its annotations), calls with
 * normalized results, and a lifecycle with explicit phases (`McpPhase`) — for child processes, restart with
 * exponential backoff after a crash, during which calls fail fast with `upstream_unavailable`.
 * @module
 */
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import type { CallContext, ToolEntry, ToolResult, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { classifyCallError, failure } from "./errors.ts";
import { type ExposedTools, exposeTools, mapArgumentKeys, mappingKey, type McpTool, patternWarnings } from "./names.ts";
import { normalizeCallResult, normalizeReadResult, normalizeResourceList } from "./normalize.ts";
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
  /** What was lost, for the log and the unavailable message (default "its server process exited"). */
  lost?: string;
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

/**
 * Where a started MCP upstream is in its life:
 * - `ready`: connected; calls go to the server.
 * - `restarting`: the server process exited; the next reconnect is scheduled (`timer`, at `nextAttemptAt`) or
 *   running (`attempt`) after `failures` consecutive failed attempts. Calls fail fast.
 * - `failed`: restarts were given up after `maxAttempts` consecutive failures. Calls fail fast.
 * - `stopped`: `stop()` was called, or the process exited while ptc shuts down. Calls fail.
 *
 * Transitions, each in one method of `McpUpstream`: ready → restarting | stopped (`#onExit`); restarting → ready
 * (`#becomeReady`); restarting → restarting | failed (`#scheduleRestart` after a failed attempt); any → stopped
 * (`stop`). A connection that closes while ready without a restart policy (HTTP) stays ready: the next call reports
 * the failure.
 */
export type McpPhase =
  | { name: "ready" }
  | {
    name: "restarting";
    failures: number;
    nextAttemptAt: number;
    timer?: ReturnType<typeof setTimeout>;
    attempt?: Promise<void>;
  }
  | { name: "failed" }
  | { name: "stopped" };

type Restarting = Extract<McpPhase, { name: "restarting" }>;

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

async function closeQuietly(conn: Connection): Promise<void> {
  await conn.client.close().catch(() => {});
}

/** Start an MCP upstream over a concrete connector: connect, list every tool, watch for the server exiting. */
export async function startMcpUpstream(spec: McpUpstreamSpec): Promise<Upstream> {
  const n = spec.deps.upstreamName;
  const conn = await spec.connect();
  try {
    return new McpUpstream(spec, conn, await listServerTools(conn, spec.config.startTimeoutMs, spec.config.maxTools));
  } catch (error) {
    await closeQuietly(conn);
    if (error instanceof UpstreamStartError) {
      throw new UpstreamStartError(error.code, `upstream ${n}: ${error.message}`, error.hint);
    }
    const c = classifyCallError(error, `upstream ${n}, tools/list`, {
      timeoutMs: spec.config.startTimeoutMs,
      redactor: spec.deps.redactor,
    });
    throw new UpstreamStartError("tool_list_failed", c.message, "run `ptc doctor --connect` for details");
  }
}

/** A started MCP upstream; see {@link McpPhase} for its lifecycle. Create with {@link startMcpUpstream}. */
class McpUpstream implements Upstream {
  readonly #spec: McpUpstreamSpec;
  readonly #name: string;
  #phase: McpPhase = { name: "ready" };
  /** The current connection (the last one, once it closed). */
  #conn: Connection;
  #exposed: ExposedTools;
  /** Successful restarts so far. */
  #restarts = 0;
  #lastDisconnect: string | undefined;

  constructor(spec: McpUpstreamSpec, conn: Connection, tools: McpTool[]) {
    this.#spec = spec;
    this.#name = spec.deps.upstreamName;
    this.#conn = conn;
    this.#exposed = this.#expose(tools);
    this.#watch(conn);
  }

  listTools(): ToolEntry[] {
    return this.#exposed.entries;
  }

  async call(toolName: string, args: JsonObject, ctx: CallContext): Promise<ToolResult> {
    const tool = this.#exposed.byName.get(toolName);
    const label = `upstream ${this.#name}, tool ${toolName}`;
    if (!tool) return { ok: false, reason: "not_found", message: `${label}: no such tool` };
    if (this.#phase.name !== "ready") return this.#unavailable();
    const c = this.#conn;
    const timeoutMs = Math.min(ctx.timeoutMs, this.#spec.config.requestTimeoutMs);
    const redactor = this.#spec.deps.redactor;
    // Unmapped tools get the mapped default: the server's error text bounded and marked untrusted.
    const mapping = this.#spec.config.tools;
    const errorFeedback = mapping?.get(mappingKey(mapping, tool.name))?.errorFeedback ?? "bounded";
    try {
      const scope = { maxResponseBytes: ctx.maxResponseBytes, write: ctx.effect === "write" };
      const result = await withCallScope(scope, () =>
        c.client.callTool(
          { name: tool.name, arguments: mapArgumentKeys(args, tool.inputSchema) },
          { timeout: timeoutMs, signal: ctx.signal },
        ));
      return normalizeCallResult(result as Record<string, unknown>, {
        errorFeedback,
        hasOutputSchema: tool.outputSchema !== undefined,
        includeBinary: this.#spec.config.binaryContent === "include",
        maxResponseBytes: ctx.maxResponseBytes,
        redactor,
        toolLabel: label,
      });
    } catch (error) {
      // The server went away during the call: say so rather than how the request broke.
      if (this.#serverDown()) return this.#unavailable();
      return failure(classifyCallError(error, label, { timeoutMs, signal: ctx.signal, redactor, errorFeedback }));
    }
  }

  listResources(ctx: CallContext): Promise<ToolResult> {
    return this.#resourceRequest(`upstream ${this.#name}, resources/list`, ctx, async (c, options) => {
      if (!c.client.getServerCapabilities()?.resources) return { ok: true, value: [], valueKind: "json", bytes: 0 };
      const result = await c.client.listResources(undefined, { ...options, cacheMode: "refresh" });
      return normalizeResourceList(result as Record<string, unknown>, {
        maxResponseBytes: ctx.maxResponseBytes,
        label: `upstream ${this.#name}, resources/list`,
      });
    });
  }

  readResource(uri: string, ctx: CallContext): Promise<ToolResult> {
    const label = `upstream ${this.#name}, resource ${JSON.stringify(uri.slice(0, 200))}`;
    return this.#resourceRequest(label, ctx, async (c, options) => {
      if (!c.client.getServerCapabilities()?.resources) {
        return { ok: false, reason: "not_found", message: `upstream ${this.#name} serves no resources` };
      }
      const result = await c.client.readResource({ uri }, options);
      return normalizeReadResult(result as Record<string, unknown>, {
        maxResponseBytes: ctx.maxResponseBytes,
        label,
        includeBinary: this.#spec.config.binaryContent === "include",
      });
    });
  }

  /** One resource request under the same bounds, scope and error classification as a tool call. */
  async #resourceRequest(
    label: string,
    ctx: CallContext,
    request: (c: Connection, options: { timeout: number; signal: AbortSignal }) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    if (this.#phase.name !== "ready") return this.#unavailable();
    const c = this.#conn;
    const timeoutMs = Math.min(ctx.timeoutMs, this.#spec.config.requestTimeoutMs);
    const redactor = this.#spec.deps.redactor;
    try {
      const scope = { maxResponseBytes: ctx.maxResponseBytes };
      return await withCallScope(scope, () => request(c, { timeout: timeoutMs, signal: ctx.signal }));
    } catch (error) {
      if (this.#serverDown()) return this.#unavailable();
      return failure(classifyCallError(error, label, { timeoutMs, signal: ctx.signal, redactor }));
    }
  }

  diagnostics(): JsonObject {
    const conn = this.#conn;
    const out: JsonObject = {
      transport: this.#spec.transportName,
      state: this.#phase.name,
      protocol: this.#spec.config.protocol,
      era: conn.era,
      protocolVersion: conn.protocolVersion,
      reusedVerdict: conn.reusedVerdict,
      tools: this.#exposed.entries.length,
      restarts: this.#restarts,
      ...(this.#exposed.unmapped.length > 0 ? { unmapped_tools: this.#exposed.unmapped } : {}),
      collisions: this.#exposed.collisions.map((c) => ({ name: c.name, exposed: c.exposed, hidden: c.hidden })),
    };
    if (this.#lastDisconnect) out.lastDisconnect = this.#lastDisconnect;
    const extra = this.#spec.extraDiagnostics?.() ?? {};
    for (const [k, v] of Object.entries(extra)) out[k] = v as JsonValue;
    return this.#spec.deps.redactor.redactJson(out);
  }

  async refresh(): Promise<void> {
    if (this.#phase.name !== "ready") return;
    const { startTimeoutMs, maxTools } = this.#spec.config;
    this.#exposed = this.#expose(await listServerTools(this.#conn, startTimeoutMs, maxTools));
  }

  /** Any phase → stopped: cancel a scheduled restart, wait for a running one, close the connection. Idempotent. */
  async stop(): Promise<void> {
    const was = this.#phase;
    if (was.name === "stopped") return;
    this.#phase = { name: "stopped" };
    if (was.name === "restarting") {
      clearTimeout(was.timer);
      await was.attempt;
    }
    await closeQuietly(this.#conn);
  }

  /** Expose a tool list; throws UpstreamStartError when the operator's mapping does not fit the server's tools. */
  #expose(tools: McpTool[]): ExposedTools {
    const e = exposeTools(tools, this.#spec.transportName, this.#spec.config.tools);
    if (e.problems.length > 0) {
      throw new UpstreamStartError(
        "tool_mapping_invalid",
        e.problems.join("; "),
        "fix the tools mapping to match the parameters the server declares",
      );
    }
    for (const m of e.missing) this.#log(`the config maps tool ${m} but the server does not list it`);
    for (const c of e.collisions) {
      this.#log(
        `tools ${[c.exposed, ...c.hidden].map((x) => JSON.stringify(x)).join(", ")} all map to ` +
          `"${c.name}"; exposing ${JSON.stringify(c.exposed)} and hiding the others`,
      );
    }
    for (const u of e.unnamed) this.#log(`tool ${JSON.stringify(u)} has no usable name; hidden`);
    for (const w of patternWarnings(e.entries)) this.#log(`warning: ${w}`);
    return e;
  }

  /** The runtime names the upstream (`upstream <name>: `) on every log line. */
  #log(message: string): void {
    this.#spec.deps.log(message);
  }

  #watch(c: Connection): void {
    c.client.onclose = () => this.#onExit(c);
  }

  /** ready → restarting, or → stopped while ptc shuts down. Ignores a connection that is no longer current. */
  #onExit(c: Connection): void {
    if (this.#phase.name !== "ready" || this.#conn !== c) return;
    this.#lastDisconnect = new Date().toISOString();
    const policy = this.#spec.restart;
    if (!policy) return;
    if (policy.allowed && !policy.allowed()) {
      this.#phase = { name: "stopped" };
      return;
    }
    this.#log(`${policy.lost ?? "the server process exited"}; restarting`);
    this.#scheduleRestart(0);
  }

  /** → restarting with the next attempt after an exponential backoff, or → failed when the attempts are spent. */
  #scheduleRestart(failures: number): void {
    const policy = this.#spec.restart!;
    if (failures >= policy.maxAttempts) {
      this.#phase = { name: "failed" };
      this.#log(`gave up after ${failures} failed restarts`);
      return;
    }
    const delay = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** failures);
    const phase: Restarting = { name: "restarting", failures, nextAttemptAt: Date.now() + delay };
    phase.timer = setTimeout(() => {
      phase.timer = undefined;
      phase.attempt = this.#attemptRestart(phase).finally(() => phase.attempt = undefined);
    }, delay);
    this.#phase = phase;
  }

  /** One reconnect. A result that arrives after the phase moved on (stop) is closed and dropped. */
  async #attemptRestart(phase: Restarting): Promise<void> {
    let fresh: Connection | undefined;
    try {
      fresh = await this.#spec.connect();
      if (this.#phase !== phase) return await closeQuietly(fresh);
      const tools = await listServerTools(fresh, this.#spec.config.startTimeoutMs, this.#spec.config.maxTools);
      if (this.#phase !== phase) return await closeQuietly(fresh);
      this.#becomeReady(fresh, tools);
    } catch (error) {
      if (fresh) await closeQuietly(fresh);
      const failures = phase.failures + 1;
      const why = error instanceof UpstreamStartError ? error.code : "handshake_failed";
      this.#log(`restart attempt ${failures} failed (${why})`);
      if (this.#phase === phase) this.#scheduleRestart(failures);
    }
  }

  /** restarting → ready on a fresh connection. */
  #becomeReady(fresh: Connection, tools: McpTool[]): void {
    this.#exposed = this.#expose(tools);
    this.#conn = fresh;
    this.#restarts++;
    this.#phase = { name: "ready" };
    this.#watch(fresh);
    this.#log("restarted");
  }

  /** True while restarting or failed (the phase may have moved on during a call). */
  #serverDown(): boolean {
    const name = this.#phase.name;
    return name === "restarting" || name === "failed";
  }

  #unavailable(): ToolResult {
    const n = this.#name;
    const phase = this.#phase;
    let message = `upstream ${n} is stopped`;
    if (phase.name === "restarting") {
      const wait = Math.max(0, phase.nextAttemptAt - Date.now());
      const lost = this.#spec.restart?.lost ?? "its server process exited";
      message = `upstream ${n} is restarting after ${lost} (next attempt in ${wait} ms)`;
    } else if (phase.name === "failed") {
      message = `upstream ${n} is down: its server process kept exiting and restarts were given up`;
    }
    return { ok: false, reason: "upstream_unavailable", message };
  }
}
