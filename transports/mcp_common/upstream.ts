/**
 * One MCP connection as an `Upstream`: its tool list (paged to the end, kebab-cased, every tool with its
 * annotations) and calls with normalized results. It never reconnects: when the server goes away (the child process
 * exits, or an HTTP server stops answering) `closed` settles and the runtime's supervisor makes a new connection
 * with its backoff (src/upstream/supervisor.ts); calls on the ended connection fail with `upstream_unavailable`.
 * @module
 */
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import type { CallContext, ToolEntry, ToolResult, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { classifyCallError, failure, findWireFailure } from "./errors.ts";
import { type ExposedTools, exposeTools, mapArgumentKeys, mappingKey, type McpTool, patternWarnings } from "./names.ts";
import { normalizeCallResult, normalizeReadResult, normalizeResourceList } from "./normalize.ts";
import { withCallScope } from "./call_scope.ts";
import type { Connection } from "./session.ts";
import type { McpCommonConfig } from "./config.ts";

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
  /**
   * Why the connection closed by itself (stdio: the child's exit status), or undefined when the close must not be
   * reported (ptc itself is ending). Absent: a close is reported as "the connection to the server closed".
   */
  closeReason?: () => string | undefined;
  /** Non-secret transport facts for diagnostics (pid, stderr tail …). */
  extraDiagnostics?: () => JsonObject;
}

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

/** One MCP connection; see the module doc. Create with {@link startMcpUpstream}. */
class McpUpstream implements Upstream {
  readonly #spec: McpUpstreamSpec;
  readonly #name: string;
  readonly #conn: Connection;
  readonly #exposed: ExposedTools;
  readonly #ended = Promise.withResolvers<string>();
  /** Why the connection ended (set once), or "stopped" after `stop()`. */
  #end: string | undefined;

  constructor(spec: McpUpstreamSpec, conn: Connection, tools: McpTool[]) {
    this.#spec = spec;
    this.#name = spec.deps.upstreamName;
    this.#conn = conn;
    this.#exposed = this.#expose(tools);
    conn.client.onclose = () => {
      const why = spec.closeReason ? spec.closeReason() : "the connection to the server closed";
      if (why !== undefined) this.#endWith(why);
    };
  }

  get closed(): Promise<string> {
    return this.#ended.promise;
  }

  listTools(): ToolEntry[] {
    return this.#exposed.entries;
  }

  async call(toolName: string, args: JsonObject, ctx: CallContext): Promise<ToolResult> {
    const tool = this.#exposed.byName.get(toolName);
    const label = `upstream ${this.#name}, tool ${toolName}`;
    if (!tool) return { ok: false, reason: "not_found", message: `${label}: no such tool` };
    if (this.#end !== undefined) return this.#unavailable();
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
      if (this.#end !== undefined && this.#end !== "stopped") return this.#unavailable();
      const classified = classifyCallError(error, label, { timeoutMs, signal: ctx.signal, redactor, errorFeedback });
      if (!ctx.signal.aborted && serverGone(error)) {
        this.#endWith(`the server stopped answering (${classified.message})`);
      }
      return failure(classified);
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
    if (this.#end !== undefined) return this.#unavailable();
    const c = this.#conn;
    const timeoutMs = Math.min(ctx.timeoutMs, this.#spec.config.requestTimeoutMs);
    const redactor = this.#spec.deps.redactor;
    try {
      const scope = { maxResponseBytes: ctx.maxResponseBytes };
      return await withCallScope(scope, () => request(c, { timeout: timeoutMs, signal: ctx.signal }));
    } catch (error) {
      if (this.#end !== undefined && this.#end !== "stopped") return this.#unavailable();
      const classified = classifyCallError(error, label, { timeoutMs, signal: ctx.signal, redactor });
      if (!ctx.signal.aborted && serverGone(error)) {
        this.#endWith(`the server stopped answering (${classified.message})`);
      }
      return failure(classified);
    }
  }

  diagnostics(): JsonObject {
    const conn = this.#conn;
    const out: JsonObject = {
      transport: this.#spec.transportName,
      protocol: this.#spec.config.protocol,
      era: conn.era,
      protocolVersion: conn.protocolVersion,
      reusedVerdict: conn.reusedVerdict,
      tools: this.#exposed.entries.length,
      ...(this.#exposed.unmapped.length > 0 ? { unmapped_tools: this.#exposed.unmapped } : {}),
      collisions: this.#exposed.collisions.map((c) => ({ name: c.name, exposed: c.exposed, hidden: c.hidden })),
    };
    const extra = this.#spec.extraDiagnostics?.() ?? {};
    for (const [k, v] of Object.entries(extra)) out[k] = v as JsonValue;
    return this.#spec.deps.redactor.redactJson(out);
  }

  /** Close the connection (the child is reaped by its transport). Idempotent; `closed` does not settle. */
  async stop(): Promise<void> {
    if (this.#end === "stopped") return;
    this.#end = "stopped";
    await closeQuietly(this.#conn);
  }

  /** The connection ended by itself: settle `closed` once (never after `stop()`). */
  #endWith(why: string): void {
    if (this.#end !== undefined) return;
    this.#end = why;
    this.#ended.resolve(why);
    closeQuietly(this.#conn);
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

  #unavailable(): ToolResult {
    const why = this.#end === "stopped" ? "the connection was closed" : this.#end;
    return {
      ok: false,
      reason: "upstream_unavailable",
      message: `upstream ${this.#name}: ${why}; ptc is reconnecting`,
    };
  }
}

/** A call failed because the server is gone (refused, unreachable, the session closed), not because of the call. */
function serverGone(error: unknown): boolean {
  const wire = findWireFailure(error);
  if (wire) return ["connect_failed", "dns_failed", "tls_failed", "network_error"].includes(wire.kind);
  return error instanceof SdkError &&
    (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected);
}
