/**
 * `ptc mcp`: serve ptc as an MCP server over stdio (default) or Streamable HTTP (`--http HOST:PORT`).
 * @module
 */
import { createEngine, EngineStartError } from "../engine/engine.ts";
import { readTokenFile, singleToken } from "../mcp/auth.ts";
import { FlagError, mcpUsage, parseMcpFlags } from "./mcp_flags.ts";
import { ConcurrencyGate } from "../mcp/gate.ts";
import { buildGuard, GuardConfigError, isLoopbackHost } from "../mcp/guards.ts";
import { startHttpFace } from "../mcp/http.ts";
import { httpFaceSettings } from "./mcp_http_settings.ts";
import { createServerFactory } from "../mcp/server.ts";
import { SessionManager } from "../mcp/sessions.ts";
import { ServerMetrics } from "../mcp/prometheus.ts";
import { DEFAULT_PARKING } from "../mcp/parked_session.ts";
import { protectStdout, serveMcpStdio } from "../mcp/stdio.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { usageError } from "./usage.ts";
import { openAuditLog } from "./mcp_audit.ts";
import { openJournal, RecordingError } from "./record_replay.ts";
import { mcpView } from "./view.ts";
import { serveStartFailure } from "./mcp_start_failure.ts";

/** Entry point of `ptc mcp`. */
export async function run(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    console.log(mcpUsage());
    return 0;
  }
  let options;
  try {
    options = parseMcpFlags(args, (name) => Deno.env.get(name));
  } catch (e) {
    if (e instanceof FlagError) return usageError(e.message, mcpUsage(), "mcp");
    throw e;
  }
  if (!options.http) protectStdout();
  let authTokens: string[] | undefined;
  try {
    if (options.httpAuthTokenFile) authTokens = await readTokenFile(options.httpAuthTokenFile);
    if (options.http) {
      // Refuse an unguardable bind before any upstream is started.
      buildGuard(options.http.hostname, options.allowedHosts, options.allowedOrigins);
      if (!isLoopbackHost(options.http.hostname) && !authTokens) {
        throw new GuardConfigError(
          `--http ${options.http.hostname}: binding to a non-loopback address requires --http-auth-token-file`,
        );
      }
    }
  } catch (e) {
    console.error(`ptc mcp: ${(e as Error).message}`);
    return 2;
  }
  // --audit-log: opened before any upstream starts, so an unwritable FILE stops ptc at once.
  const audit = options.auditLog ? await openAuditLog(options.auditLog) : undefined;
  if (audit && "error" in audit) {
    console.error(`ptc mcp: ${audit.error}`);
    return 2;
  }
  // This face stops upstreams itself after in-flight calls finish; a transport's process reaper must not exit first.
  const registry = registerBuiltins();
  for (const t of registry.list()) t.delegateProcessReaping?.();
  let engine;
  try {
    const journal = await openJournal(options.recordReplay, (m) => console.error(`ptc mcp: ${m}`), "mcp");
    engine = await createEngine({
      journal,
      registry,
      upstreamsConfig: options.upstreamsConfig,
      readOnly: options.readOnly,
      allowWrites: options.allowWrites,
      // Upstreams start right away in the background (never waited for): their tools are usually known by the time
      // a client lists ours. A config's `start` wins.
      upstreamStart: "background",
      approveWrites: options.approveWrites,
      // One pre-warmed sandbox process per gate permit: an admitted call never waits for a process.
      poolSize: options.maxConcurrentCalls,
      sandboxHeapMb: options.sandboxHeapMb,
      maxToolCalls: options.maxToolCalls,
      maxCatalogOps: options.maxCatalogOps,
      onWarning: (m) => console.error(`ptc mcp: ${m}`),
    });
  } catch (e) {
    // The client's user must see why: serve a lisp_eval that answers with the problems instead of exiting.
    if (e instanceof EngineStartError) {
      for (const line of e.lines) console.error(`ptc mcp: ${line}`);
      await audit?.close();
      return await serveStartFailure(options, authTokens, e.lines);
    }
    if (e instanceof RecordingError) {
      console.error(`ptc mcp: ${e.message}`);
      await audit?.close();
      return await serveStartFailure(options, authTokens, [e.message]);
    }
    throw e;
  }
  // Over HTTP many clients share the gate, so each gets at most half of it; stdio serves exactly one client.
  const gate = new ConcurrencyGate(options.maxConcurrentCalls, options.http ? undefined : options.maxConcurrentCalls);
  const sessions = options.sessions
    ? new SessionManager(engine, {
      maxSessions: options.maxSessions,
      maxPerOwner: options.maxSessionsPerOwner,
      ttlMs: options.sessionTtlMs,
      idleMs: options.sessionIdleMs,
      parking: options.sessionParkMs > 0
        ? {
          ...DEFAULT_PARKING,
          parkAfterMs: options.sessionParkMs,
          replayTimeoutMs: Math.max(options.programTimeoutMs, DEFAULT_PARKING.replayTimeoutMs),
          pinnedBytes: options.sandboxHeapMb * 1024 * 1024,
          // Sandbox processes of sessions: those evaluating (at most the gate's permits) plus this many idle ones.
          maxLive: options.maxConcurrentCalls,
        }
        : undefined,
      memoryBudgetBytes: options.sessionParkMs > 0 ? options.sessionMemoryBudgetMb * 1024 * 1024 : undefined,
    })
    : undefined;
  sessions?.startSweeper();
  // GET /metrics of the HTTP face; the connection counts come from the face once it listens.
  let connections: (() => { open: number; refused: number }) | undefined;
  const metrics = options.http
    ? new ServerMetrics({
      sandbox: () => {
        const s = engine.diagnostics().sandbox as { busy?: number; idle?: number; sessions?: number };
        return { busy: s.busy ?? 0, idle: s.idle ?? 0, sessions: s.sessions ?? 0 };
      },
      sessions: sessions ? () => sessions.size : undefined,
      connections: () => connections?.() ?? { open: 0, refused: 0 },
      gate: () => ({ inFlight: gate.inFlight, limit: gate.limit }),
    })
    : undefined;
  let shuttingDown = false;
  // --view: the live viewer, started before the face so its first evaluation is seen.
  let view;
  if (options.view) {
    try {
      view = await mcpView(engine, {
        listen: options.view,
        face: options.http ? "http" : "stdio",
        authToken: authTokens && options.httpAuthTokenFile
          ? singleToken(authTokens, "--view with --http-auth-token-file", options.httpAuthTokenFile)
          : undefined,
        allowedHosts: options.allowedHosts,
        allPrograms: options.viewAllPrograms,
        profile: options.responseProfile,
        programTimeoutMs: options.programTimeoutMs,
        catalogMode: options.catalogMode,
      });
    } catch (e) {
      console.error(`ptc mcp: --view ${options.view.hostname}:${options.view.port}: ${(e as Error).message}`);
      await engine.close();
      await audit?.close();
      return 2;
    }
    console.error(`ptc mcp: viewer on ${view.url}`);
  }
  const trail = audit?.trail(options.http ? "http" : "stdio", engine.catalog(), engine.snapshots());
  // An upstream that comes up (or reconnects) after start brings tools the audit lines may then name.
  if (trail) {
    engine.subscribe((e) => {
      if (e.type === "phase" && e.to === "ready") trail.catalogChanged(engine.catalog(), engine.snapshots());
    });
  }
  const factory = createServerFactory({
    engine,
    gate,
    sessions,
    introspection: options.introspection,
    profile: options.responseProfile,
    catalogMode: options.catalogMode,
    maxProgramBytes: options.maxProgramBytes,
    maxContextBytes: options.maxContextBytes,
    programTimeoutMs: options.programTimeoutMs,
    approvalTimeoutMs: options.approvalTimeoutMs,
    isShuttingDown: () => shuttingDown,
    audit: trail,
    view: view?.feed,
    metrics,
  });
  const onError = (e: Error) => console.error(`ptc mcp: ${e.message}`);

  let stopRequested!: () => void;
  const stop = new Promise<void>((r) => (stopRequested = r));
  const signals: [Deno.Signal, number][] = [["SIGINT", 2], ["SIGTERM", 15]];
  let stopping = false;
  const onSignal = (number: number) => () => {
    // First signal: graceful (finish in-flight calls). A second one: exit now (unload still kills children).
    if (stopping) Deno.exit(128 + number);
    stopping = true;
    stopRequested();
  };
  const listeners = signals.map(([s, n]) => [s, onSignal(n)] as const);
  for (const [s, fn] of listeners) Deno.addSignalListener(s, fn);

  let closeFace: () => Promise<void>;
  if (options.http) {
    let face;
    try {
      face = await startHttpFace(factory, {
        ...httpFaceSettings({ ...options, http: options.http }, authTokens),
        saturated: () => gate.inFlight >= gate.limit,
        metrics,
        onDenied: audit?.denied,
        onError,
      });
    } catch (e) {
      console.error(`ptc mcp: ${(e as Error).message}`);
      await engine.close();
      await audit?.close();
      return 2;
    }
    connections = face.connections;
    console.error(`ptc mcp: listening on ${face.url} (${readySummary(engine)})`);
    closeFace = async () => {
      face.drain();
      await gate.drained();
      await face.close();
    };
  } else {
    const stdio = serveMcpStdio(factory, onError);
    stdio.closed.then(stopRequested);
    // stderr is the client's MCP log: one line says the server is up (stdout carries protocol frames only).
    console.error(`ptc mcp: ready on stdio (${readySummary(engine)})`);
    closeFace = async () => {
      await gate.drained();
      await stdio.close();
    };
  }
  await stop;
  shuttingDown = true;
  await closeFace();
  await sessions?.closeAll();
  await view?.close();
  await engine.close();
  await audit?.close();
  for (const [s, fn] of listeners) Deno.removeSignalListener(s, fn);
  return 0;
}

/** The ready line's summary: how many upstreams and installed tools the description lists. */
function readySummary(engine: { catalog(): { tools: unknown[] }[] }): string {
  const servers = engine.catalog();
  const tools = servers.reduce((n, s) => n + s.tools.length, 0);
  return `${servers.length} upstream(s), ${tools} tool(s)`;
}
