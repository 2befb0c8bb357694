/**
 * The engine implementation: loads the upstream config (if any), starts the runtime, warms a sandbox pool, and
 * evaluates programs with a fresh run context each — the one place where the sandbox and the upstream runtime meet.
 * @module
 */
import { redactEvalResult } from "./edge_redaction.ts";
import { sandboxPermissions, type SandboxResult, type SandboxSession } from "../sandbox/mod.ts";
import type { SandboxHost } from "../sandbox/mod.ts";
import type { SandboxLimits } from "../sandbox/mod.ts";
import { catalogJson, catalogText, renderCatalog } from "../upstream/catalog.ts";
import type { RunLimits } from "../upstream/config.ts";
import { snapshotsOf } from "../upstream/snapshot_id.ts";
import { renderDoc } from "../upstream/signature.ts";
import { type Runtime, RuntimeStartError, startRuntime } from "../upstream/runtime.ts";
import { checkPermissions } from "../upstream/permissions.ts";
import { prepareConfig } from "../upstream/startup.ts";
import type { PtcConfig, StartMode } from "../upstream/config.ts";
import { stateLabel } from "../upstream/upstream_state.ts";
import type { UpstreamListener } from "../upstream/events.ts";
import { readLibraries } from "../upstream/libraries.ts";
import type { LibraryNamespace, LibrarySource } from "../lisp/mod.ts";
import type { TransportRegistry } from "../upstream/registry.ts";
import type { JsonObject } from "../core/json.ts";
import { recordingHost, replayHost } from "./replay.ts";
import type { RunJournal } from "./journal.ts";
import { toEngineResult } from "./results.ts";
import { Sandbox } from "./sandbox_pool.ts";
import type {
  CatalogServer,
  Engine,
  EngineEvalRequest,
  EngineEvalResult,
  EngineSession,
  RecordedCall,
} from "./types.ts";

export { budgetRefusals } from "./results.ts";

/**
 * The run context (tool calls, their argument checks and schema tooling) loads with the first evaluation that has
 * upstreams: a program run without a config never needs it.
 */
let runContext: Promise<typeof import("../upstream/run_context.ts")> | undefined;
const runContextModule = () => runContext ??= import("../upstream/run_context.ts");

/** Options of `createEngine`. */
export interface EngineOptions {
  /** The transports upstreams may name (the CLI passes the built-ins; tests may pass their own). */
  registry: TransportRegistry;
  /** `--upstreams-config`; falls back to PTC_UPSTREAMS; none → no upstreams. */
  upstreamsConfig?: string;
  readOnly?: boolean;
  /** The process half of the write gate (`--allow-writes`); the config must allow writes too. */
  allowWrites?: boolean;
  /**
   * When an upstream with no `start` in the config starts: `background` (right away, not waited for: `ptc mcp`, the
   * REPL) or `first_use` (`ptc eval`, the default). No upstream ever stops the engine from starting.
   */
  upstreamStart?: StartMode;
  /** Every write waits for a person's approval (`--approve-writes`; the config's `approve_writes` also turns it on). */
  approveWrites?: boolean;
  /** Pre-warmed sandbox processes for stateless evaluations. */
  poolSize?: number;
  /**
   * Start the sandbox on the first evaluation instead of at start-up (faces that may never run a program, such as
   * `ptc catalog`, then never start one).
   */
  lazySandbox?: boolean;
  /** V8 heap cap of each sandbox process, MiB (a session's cumulative memory cap). */
  sandboxHeapMb?: number;
  maxToolCalls?: number;
  maxCatalogOps?: number;
  /** Sandbox limits for every evaluation. */
  limits?: Partial<SandboxLimits>;
  /** Non-fatal notes (literal secrets, an upstream that failed to start). */
  onWarning?: (message: string) => void;
  /** Runtime diagnostics lines, already redacted (default: `onWarning`). */
  onLog?: (line: string) => void;
  /** Record every evaluation's upstream calls, or answer them from a recording (`--record` / `--replay`). */
  journal?: RunJournal;
}

/** The engine could not start; `lines` are one clear, redacted problem each. */
export class EngineStartError extends Error {
  /** One problem a line (a multi-line problem is split, so a face prefixes every line). */
  readonly lines: string[];
  constructor(lines: string[]) {
    super(lines.join("\n"));
    this.lines = lines.flatMap((l) => l.split("\n"));
    this.name = "EngineStartError";
  }
}

/**
 * After a cancel, how long a session's process may take to stop by itself before the engine closes it and the
 * session moves to a fresh process (the sandbox itself kills a busy process much sooner; this is the last resort).
 */
export const CANCEL_GRACE_MS = 2_000;

class EngineImpl implements Engine {
  #sessions = new Set<EngineSession>();

  constructor(
    readonly sandbox: Sandbox,
    readonly runtime: Runtime | undefined,
    readonly libs: LibraryNamespace[] = [],
    readonly journal?: RunJournal,
  ) {}

  libraries(): LibraryNamespace[] {
    return this.libs;
  }

  /** Run one evaluation through `run` (see `runUnredacted`); what it returns is redacted at the edge. */
  async run(
    request: EngineEvalRequest,
    run: (host: SandboxHost | undefined, limits: Partial<SandboxLimits>) => Promise<SandboxResult>,
  ): Promise<EngineEvalResult> {
    return redactEvalResult(await this.runUnredacted(request, run), this.runtime?.redactor);
  }

  /** Run one evaluation through `run`, with a fresh run context when upstreams exist. */
  async runUnredacted(
    request: EngineEvalRequest,
    run: (host: SandboxHost | undefined, limits: Partial<SandboxLimits>) => Promise<SandboxResult>,
  ): Promise<EngineEvalResult> {
    const started = performance.now();
    const limits: Partial<SandboxLimits> = request.timeoutMs ? { timeoutMs: request.timeoutMs } : {};
    if (request.replay) {
      const r = await run(replayHost(request.replay), limits);
      return toEngineResult(r, [], performance.now() - started);
    }
    const journal = await this.journal?.begin(request.program, request.owner);
    if (!this.runtime || request.offline) {
      const result = toEngineResult(await run(undefined, limits), [], performance.now() - started);
      await journal?.finish(result);
      return result;
    }
    const recorded: RecordedCall[] | undefined = request.record ? [] : undefined;
    const { withRunContext } = await runContextModule();
    const report = await withRunContext(
      this.runtime,
      (ctx) => run(recorded ? recordingHost(ctx.callbacks(), recorded) : ctx.callbacks(), limits),
      {
        signal: request.signal,
        intercept: journal?.intercept,
        approver: request.approver,
        approvalWaitMs: request.approvalWaitMs,
      },
    );
    const result = toEngineResult(report.value, report.calls, performance.now() - started, report.catalogOps);
    if (recorded) result.recorded = recorded;
    await journal?.finish(result);
    return result;
  }

  evaluate(request: EngineEvalRequest): Promise<EngineEvalResult> {
    return this.run(request, (host, limits) =>
      this.sandbox.pool.evaluate(request.program, {
        host,
        context: request.context,
        globals: request.globals,
        limits,
        signal: request.signal,
        outputSchema: request.outputSchema,
      }));
  }

  openSession(): Promise<EngineSession> {
    let inner: SandboxSession = this.sandbox.pool.openSession();
    let closed = false;
    const evalSession = async (request: EngineEvalRequest): Promise<EngineEvalResult> => {
      const current = inner;
      const signal = request.signal;
      // The pool stops a cancelled program cooperatively and keeps the worker (and the namespace). A worker that
      // does not stop within the grace period is killed: the session continues on a fresh worker (`sessionLost`).
      let killed = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        timer = setTimeout(() => {
          killed = true;
          current.close();
        }, CANCEL_GRACE_MS);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      let lost = false;
      let ended = false;
      try {
        const result = await this.run(request, async (host, limits) => {
          const r = await current.eval(request.program, {
            host,
            context: request.context,
            globals: request.globals,
            limits,
            signal,
            outputSchema: request.outputSchema,
          });
          lost = r.sessionLost === true;
          ended = r.sessionEnded === true;
          return r;
        });
        if (ended) {
          // The session passed its memory cap: it is over (no fresh process behind the caller's back).
          result.sessionEnded = true;
          await session.close();
          return result;
        }
        if (killed && !closed && inner === current) inner = this.sandbox.pool.openSession();
        if (killed || lost) result.sessionLost = true;
        return result;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    };
    const session: EngineSession = {
      id: crypto.randomUUID(),
      get closed() {
        return closed;
      },
      eval: evalSession,
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
    // The session is handed out once its process is ready: a caller that counts starts (the MCP gate) counts the
    // process's start-up too, and a process that cannot start is an error here rather than at the first evaluation.
    return inner.ready.then(() => session, async (e) => {
      await session.close();
      throw new Error(`the session's sandbox process failed to start: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  catalog(): CatalogServer[] {
    if (!this.runtime) return [];
    const now = this.runtime.clock.now();
    return this.runtime.catalog().map((snapshot) => {
      const u = this.runtime!.upstreams.get(snapshot.name)!;
      return {
        name: snapshot.name,
        description: u.spec.description,
        transport: u.spec.transport,
        status: snapshot.state,
        statusText: stateLabel(snapshot, now),
        ...(snapshot.cause ? { error: snapshot.cause.message } : {}),
        tools: snapshot.tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as JsonObject,
          outputSchema: t.outputSchema as JsonObject | undefined,
          readOnly: t.effect === "read",
          effect: t.effect ?? "write",
          provenance: {
            ...(t._ptc as unknown as JsonObject),
            ...(u.transport.endpoint?.(u.spec.config) ?? {}),
          },
        })),
      };
    });
  }

  async settleUpstreams(): Promise<void> {
    const rt = this.runtime;
    if (rt) await rt.settle(rt.clock.now() + rt.limits.connectTimeoutMs + rt.limits.callTimeoutMs);
  }

  subscribe(listener: UpstreamListener): () => void {
    return this.runtime ? this.runtime.events.subscribe(listener) : () => {};
  }

  renderCatalog(mode?: "auto" | "inline" | "lazy"): string {
    if (!this.runtime) return "";
    const replaced = new Map(
      this.libs.filter((n) => n.visibility === "prompt").flatMap((n) => n.replaces.map((r) => [r, n.name] as const)),
    );
    return renderCatalog(this.runtime, mode ?? this.runtime.catalogSettings.exposure, replaced);
  }

  catalogJson(): JsonObject {
    return this.runtime ? catalogJson(this.runtime) : { servers: [] };
  }

  catalogText(): string {
    return this.runtime ? catalogText(this.runtime) : "";
  }

  toolDoc(server: string, tool: string): string | undefined {
    const entry = this.runtime?.findTool(server, tool);
    return entry && this.runtime!.redactor.redact(renderDoc(server, entry));
  }

  redact(text: string): string {
    return this.runtime ? this.runtime.redactor.redact(text) : text;
  }

  snapshots(): Record<string, string> {
    return snapshotsOf(this.runtime);
  }

  runLimits(): RunLimits | undefined {
    return this.runtime?.limits;
  }

  approvesWrites(): boolean {
    return this.runtime?.approveWrites === true;
  }

  diagnostics(): JsonObject {
    return {
      sandbox: this.sandbox.stats(),
      ...(this.runtime ? this.runtime.diagnostics() : { upstreams: [] }),
    };
  }

  async close(): Promise<void> {
    for (const s of [...this.#sessions]) await s.close();
    await this.sandbox.close();
    await this.runtime?.stop();
  }
}

/** Start an engine. Throws EngineStartError with one line per problem (config, permissions, upstreams, libraries). */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  // Every face that runs programs needs to start sandbox processes, whatever the config says.
  const missing = options.lazySandbox
    ? []
    : checkPermissions({ net: [], read: [], env: [], run: sandboxPermissions().run });
  const sandboxProblem = missing.length
    ? `missing Deno permissions for the sandbox: ${missing.join(" ")} (ptc starts its sandbox processes as this ` +
      "executable; run with the flags `ptc permissions` prints)"
    : undefined;
  const prepared = await prepareConfig({
    configFlag: options.upstreamsConfig,
    readOnly: options.readOnly,
    registry: options.registry,
    withoutUpstreams: options.journal?.replacesUpstreams,
  });
  if (!prepared.ok) {
    throw new EngineStartError(sandboxProblem ? [...prepared.problems, sandboxProblem] : prepared.problems);
  }
  // A config found at a default place is named once at start: the operator did not name it, so say which one runs.
  if (prepared.location?.source === "default") {
    (options.onLog ?? options.onWarning)?.(`config: ${prepared.location.file} (found at a default place)`);
  }
  for (const w of prepared.warnings) options.onWarning?.(w);
  // Libraries are read and checked before any sandbox starts: each process loads them once, before it is ready.
  const libraries = prepared.config ? await checkedLibraries(prepared.config) : [];
  // Sandbox processes start loading now, while the upstreams start.
  const sandbox = new Sandbox({
    size: options.poolSize ?? 2,
    limits: options.limits,
    heapMb: options.sandboxHeapMb,
    libraries,
  });
  const warming = options.lazySandbox || sandboxProblem ? Promise.resolve() : sandbox.warm();
  warming.catch(() => {}); // awaited below; a failure must not surface as unhandled meanwhile
  let runtime: Runtime | undefined;
  let namespaces: LibraryNamespace[] = [];
  try {
    try {
      runtime = await startUpstreams(options, prepared.config);
    } catch (e) {
      // One message lists everything missing, the sandbox's needs included.
      if (e instanceof EngineStartError && sandboxProblem) throw new EngineStartError([...e.lines, sandboxProblem]);
      throw e;
    }
    if (sandboxProblem) throw new EngineStartError([sandboxProblem]);
    if (libraries.length > 0) namespaces = await checkLibraryTools(libraries, runtime);
    await warming;
    // A recording stores the catalog: every upstream gets its chance to list its tools first (one attempt each).
    if (runtime && options.journal && !options.journal.replacesUpstreams) {
      await runtime.settle(runtime.clock.now() + runtime.limits.connectTimeoutMs + runtime.limits.callTimeoutMs);
    }
    await options.journal?.started(runtime);
  } catch (e) {
    await sandbox.close();
    await runtime?.stop();
    throw e;
  }
  return new EngineImpl(sandbox, runtime, namespaces, options.journal);
}

/** Read the config's libraries and load them once here (parse, analysis, arity, cycles): a problem stops the start. */
async function checkedLibraries(config: PtcConfig): Promise<LibrarySource[]> {
  const read = await readLibraries(config);
  if (!read.ok) throw new EngineStartError(read.problems);
  if (read.sources.length === 0) return [];
  // The language is loaded in the host only to check a config's libraries (a sandbox process loads its own).
  const { loadLibraries } = await import("../lisp/mod.ts");
  try {
    loadLibraries(read.sources);
  } catch (e) {
    throw new EngineStartError([e instanceof Error ? e.message : String(e)]);
  }
  return read.sources;
}

/** Check every `(tool/call 'server/tool …)` of the libraries against the started upstreams' tools. */
async function checkLibraryTools(
  sources: LibrarySource[],
  runtime: Runtime | undefined,
): Promise<LibraryNamespace[]> {
  const { loadLibraries } = await import("../lisp/mod.ts");
  const tools = new Set<string>();
  const unchecked = new Set<string>();
  for (const [name, state] of runtime?.upstreams ?? []) {
    if (!state.catalogLoaded) unchecked.add(name);
    for (const t of state.tools) tools.add(`${name}/${t.name}`);
  }
  try {
    return loadLibraries(sources, { upstreamTools: tools, uncheckedServers: unchecked }).describe();
  } catch (e) {
    throw new EngineStartError([e instanceof Error ? e.message : String(e)]);
  }
}

/** Config and upstream runtime of an engine (undefined without a config, unless a replay supplies one). */
async function startUpstreams(options: EngineOptions, config: PtcConfig | undefined): Promise<Runtime | undefined> {
  const replay = options.journal?.startRuntime?.bind(options.journal);
  if (!config && !replay) return undefined;
  const runtimeOptions = {
    registry: options.registry,
    start: options.upstreamStart ?? "first_use",
    readOnly: options.readOnly,
    allowWrites: options.allowWrites,
    approveWrites: options.approveWrites,
    limits: {
      ...(options.maxToolCalls ? { maxToolCalls: options.maxToolCalls } : {}),
      ...(options.maxCatalogOps ? { maxCatalogOps: options.maxCatalogOps } : {}),
    },
    log: (line: string) => (options.onLog ?? options.onWarning)?.(line),
  };
  try {
    return replay ? await replay(config, runtimeOptions) : await startRuntime(config!, runtimeOptions);
  } catch (e) {
    if (e instanceof RuntimeStartError) throw new EngineStartError(e.problems);
    throw e;
  }
}
