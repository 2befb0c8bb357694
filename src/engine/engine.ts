/**
 * The engine implementation: loads the upstream config (if any), starts the runtime, warms a sandbox pool, and
 * evaluates programs with a fresh run context each — the one place where the sandbox and the upstream runtime meet.
 * @module
 */
import { SandboxPool, type SandboxResult, type SandboxSession } from "../sandbox/mod.ts";
import type { SandboxHost } from "../sandbox/mod.ts";
import type { SandboxLimits } from "../sandbox/mod.ts";
import { renderCatalog } from "../upstream/catalog.ts";
import type { CallRecord, RunContext } from "../upstream/run_context.ts";
import { withRunContext } from "../upstream/run_context.ts";
import { type Runtime, RuntimeStartError, startRuntime } from "../upstream/runtime.ts";
import { prepareConfig } from "../upstream/startup.ts";
import type { JsonObject } from "../upstream/types.ts";
import { loadBuiltinTransports } from "../../transports/mod.ts";
import type {
  CatalogServer,
  Engine,
  EngineCallRecord,
  EngineEvalRequest,
  EngineEvalResult,
  EngineSession,
} from "./types.ts";

/** Options of `createEngine`. */
export interface EngineOptions {
  /** `--upstreams-config`; falls back to PTC_UPSTREAMS; none → no upstreams. */
  upstreamsConfig?: string;
  readOnly?: boolean;
  /** frozen (ptc mcp, catalog): a failing upstream stops start-up; live (REPL): it is reported and marked. */
  snapshot?: "frozen" | "live";
  /** Pre-warmed workers for stateless evaluations. */
  poolSize?: number;
  maxToolCalls?: number;
  maxCatalogOps?: number;
  /** Sandbox limits for every evaluation. */
  limits?: Partial<SandboxLimits>;
  /** Non-fatal notes (literal secrets, an unavailable upstream in live mode). */
  onWarning?: (message: string) => void;
}

/** The engine could not start; `lines` are one clear, redacted problem each. */
export class EngineStartError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join("\n"));
    this.name = "EngineStartError";
  }
}

function toEngineCall(c: CallRecord): EngineCallRecord {
  const rec: EngineCallRecord = {
    server: c.server,
    tool: c.tool,
    status: c.status,
    durationMs: c.duration_ms,
    bytes: c.bytes,
  };
  if (c.reason) rec.reason = c.reason;
  if (c.message) rec.message = c.message;
  return rec;
}

function toEngineResult(r: SandboxResult, calls: CallRecord[], elapsedMs: number): EngineEvalResult {
  const mapped = calls.map(toEngineCall);
  if (r.ok) {
    return { ok: true, status: r.status, printed: r.printed, json: r.json, prints: r.prints, calls: mapped, elapsedMs };
  }
  return { ok: false, reason: r.reason, message: r.message, prints: r.prints, calls: mapped, elapsedMs };
}

function hostFor(ctx: RunContext): SandboxHost {
  return {
    toolNames: ["call"],
    callTool: (request) => ctx.callTool(request),
    discovery: (op, args) => ctx.discovery(op, args),
  };
}

class EngineImpl implements Engine {
  #sessions = new Set<EngineSession>();

  constructor(readonly pool: SandboxPool, readonly runtime: Runtime | undefined) {}

  /** Run one evaluation through `run`, with a fresh run context when upstreams exist. */
  async run(
    request: EngineEvalRequest,
    run: (host: SandboxHost | undefined, limits: Partial<SandboxLimits>) => Promise<SandboxResult>,
  ): Promise<EngineEvalResult> {
    const started = performance.now();
    const limits: Partial<SandboxLimits> = request.timeoutMs ? { timeoutMs: request.timeoutMs } : {};
    if (!this.runtime) {
      const r = await run(undefined, limits);
      return toEngineResult(r, [], performance.now() - started);
    }
    const report = await withRunContext(this.runtime, (ctx) => run(hostFor(ctx), limits), { signal: request.signal });
    return toEngineResult(report.value, report.calls, performance.now() - started);
  }

  evaluate(request: EngineEvalRequest): Promise<EngineEvalResult> {
    return this.run(request, (host, limits) =>
      this.pool.evaluate(request.program, {
        host,
        context: request.context,
        globals: request.globals,
        limits,
      }));
  }

  openSession(): Promise<EngineSession> {
    const inner: SandboxSession = this.pool.openSession();
    let closed = false;
    const session: EngineSession = {
      id: crypto.randomUUID(),
      get closed() {
        return closed;
      },
      eval: (request) =>
        this.run(request, (host, limits) =>
          inner.eval(request.program, {
            host,
            context: request.context,
            globals: request.globals,
            limits,
          })),
      reset: () => inner.reset(),
      close: () => {
        if (!closed) {
          closed = true;
          inner.close();
          this.#sessions.delete(session);
        }
        return Promise.resolve();
      },
    };
    this.#sessions.add(session);
    return Promise.resolve(session);
  }

  catalog(): CatalogServer[] {
    if (!this.runtime) return [];
    const servers: CatalogServer[] = [];
    for (const [name, state] of this.runtime.upstreams) {
      servers.push({
        name,
        description: state.spec.description,
        transport: state.spec.transport,
        status: state.status === "ready" ? "ready" : "unavailable",
        tools: state.tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as JsonObject,
          outputSchema: t.outputSchema as JsonObject | undefined,
          readOnly: t.annotations?.readOnlyHint === true,
          provenance: t._ptc as unknown as JsonObject,
        })),
      });
    }
    return servers;
  }

  renderCatalog(mode: "auto" | "inline" | "lazy"): string {
    return this.runtime ? renderCatalog(this.runtime, mode) : "";
  }

  diagnostics(): JsonObject {
    const stats = this.pool.stats();
    return {
      sandbox: { ...stats },
      ...(this.runtime ? this.runtime.diagnostics() : { upstreams: [] }),
    };
  }

  async close(): Promise<void> {
    for (const s of [...this.#sessions]) await s.close();
    await this.pool.close();
    await this.runtime?.stop();
  }
}

/** Start an engine. Throws EngineStartError with one line per problem (config, permissions, upstreams). */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const registry = await loadBuiltinTransports();
  const prepared = await prepareConfig({
    configFlag: options.upstreamsConfig,
    readOnly: options.readOnly,
    registry,
  });
  if (!prepared.ok) throw new EngineStartError(prepared.problems);
  for (const w of prepared.warnings) options.onWarning?.(w);
  let runtime: Runtime | undefined;
  if (prepared.config) {
    const snapshot = options.snapshot ?? "frozen";
    try {
      runtime = await startRuntime(prepared.config, {
        registry,
        snapshot,
        failurePolicy: snapshot === "live" ? "mark_unavailable" : "fatal",
        readOnly: options.readOnly,
        limits: {
          ...(options.maxToolCalls ? { maxToolCalls: options.maxToolCalls } : {}),
          ...(options.maxCatalogOps ? { maxCatalogOps: options.maxCatalogOps } : {}),
        },
        log: (line) => options.onWarning?.(line),
      });
    } catch (e) {
      if (e instanceof RuntimeStartError) throw new EngineStartError(e.problems);
      throw e;
    }
  }
  const pool = new SandboxPool({ size: options.poolSize ?? 2, limits: options.limits });
  try {
    await pool.warm();
  } catch (e) {
    await runtime?.stop();
    throw e;
  }
  return new EngineImpl(pool, runtime);
}
