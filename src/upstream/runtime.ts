/**
 * The long-lived runtime handle: config, credentials, redactor, the started upstreams and the catalog snapshot.
 * `startRuntime` starts every upstream through its transport. A failed upstream is fatal (`failurePolicy: "fatal"`,
 * the default for frozen snapshots: `ptc mcp`, `ptc catalog`) or marked unavailable, reported once and retried
 * later (`"mark_unavailable"`, the default for live snapshots: the REPL).
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { ToolEntry, Transport, Upstream, UpstreamLimits } from "./types.ts";
import { UpstreamStartError } from "./types.ts";
import type { CatalogSettings, PtcConfig, RunLimits, UpstreamSpec } from "./config.ts";
import { createMaterializer, type CredentialIo, type Materializer } from "./credentials.ts";
import { configAllowsWrites, type Installation, type InstallPolicy, installTools, installUpstream } from "./install.ts";
import { createRedactor, type SecretRedactor } from "./redact.ts";
import { defaultRegistry, type TransportRegistry } from "./registry.ts";

/** Options of `startRuntime`. */
export interface RuntimeOptions {
  registry?: TransportRegistry;
  /** Override the config's snapshot mode. */
  snapshot?: CatalogSettings["snapshot"];
  /** What a failing upstream does at start (default: fatal when frozen, mark_unavailable when live). */
  failurePolicy?: "fatal" | "mark_unavailable";
  /** Override limits (command-line flags). */
  limits?: Partial<RunLimits>;
  /** Force read-only mode. */
  readOnly?: boolean;
  /** The process switch of the write gate (`--allow-writes` / `PTC_ALLOW_WRITES`); the config must allow too. */
  allowWrites?: boolean;
  /** Writes wait for a person's approval (`--approve-writes`); the config's `approve_writes` can only add to it. */
  approveWrites?: boolean;
  /** fetch handed to transports (tests substitute it). */
  fetch?: typeof fetch;
  /** Receives diagnostics lines, already redacted. Default: stderr. */
  log?: (line: string) => void;
  /** Env/file access for credentials (tests). */
  credentialIo?: CredentialIo;
  /** Live mode: minimum ms between retries of an unavailable upstream (default 2000; tests use 0). */
  retryIntervalMs?: number;
}

/** Thrown when the runtime cannot start; `problems` are one redacted line each. */
export class RuntimeStartError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "RuntimeStartError";
  }
}

/** State of one configured upstream. */
export interface UpstreamState {
  spec: UpstreamSpec;
  transport: Transport<unknown>;
  upstream?: Upstream;
  status: "ready" | "unavailable" | "stopped";
  /** Redacted reason when unavailable. */
  error?: string;
  /** The start error's code when unavailable (`login_required`: calls answer `auth_failed`). */
  errorCode?: string;
  /** Installed tools (redacted): what the install policy let through. */
  tools: ToolEntry[];
  /** Tools the install policy withheld: exposed name → why (completes "tool 'server/name' …"). */
  withheld: Map<string, string>;
  lastAttempt: number;
}

/**
 * One upstream in the runtime's catalog snapshot (tool entries as the transport produced them). Faces see the
 * engine's `CatalogServer` view instead.
 */
export interface UpstreamSnapshot {
  name: string;
  transport: string;
  description: string;
  tool_count: number;
  catalog_loaded: boolean;
  tools: ToolEntry[];
}

function describeStartError(name: string, e: unknown): string {
  const prefix = `upstream ${name}: `;
  const strip = (m: string) => {
    while (m.startsWith(prefix)) m = m.slice(prefix.length); // transports may have named the upstream already
    return m;
  };
  if (e instanceof UpstreamStartError) {
    // a transport may report several problems, one a line: each line names the upstream and carries the code
    return e.message.split("\n").map((line) => `${prefix}${strip(line)}${e.hint ? ` (${e.hint})` : ""} [${e.code}]`)
      .join("\n");
  }
  if (e instanceof Error && e.name === "CredentialError") return `${prefix}${strip(e.message)}`;
  const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
  return `${prefix}failed to start: ${strip(msg)}`;
}

/** The runtime handle. Create with `startRuntime`. */
export class Runtime {
  readonly redactor: SecretRedactor;
  readonly credentials: Materializer;
  readonly limits: RunLimits;
  readonly snapshotMode: CatalogSettings["snapshot"];
  readonly readOnly: boolean;
  /** Every write waits for a person's approval: `--approve-writes` or the config's `approve_writes` (either one). */
  readonly approveWrites: boolean;
  /** The process switch of the write gate (`--allow-writes`). */
  readonly processAllowsWrites: boolean;
  readonly upstreams = new Map<string, UpstreamState>();
  #stopped = false;
  #log: (line: string) => void;
  #fetch: typeof fetch;
  #retryIntervalMs: number;
  #frozen: UpstreamSnapshot[] | undefined;

  constructor(readonly config: PtcConfig, options: RuntimeOptions = {}) {
    this.redactor = createRedactor();
    this.credentials = createMaterializer(config.credentials, this.redactor, options.credentialIo);
    this.limits = { ...config.limits, ...options.limits };
    this.snapshotMode = options.snapshot ?? config.catalog.snapshot;
    this.readOnly = options.readOnly === true || config.readOnly;
    this.approveWrites = options.approveWrites === true || config.approveWrites === true;
    this.processAllowsWrites = options.allowWrites === true;
    const sink = options.log ?? ((line: string) => console.error(line));
    this.#log = (line) => sink(this.redactor.redact(line));
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#retryIntervalMs = options.retryIntervalMs ?? 2000;
    const registry = options.registry ?? defaultRegistry;
    for (const spec of config.upstreams) {
      const transport = registry.get(spec.transport);
      if (!transport) throw new RuntimeStartError([`upstream ${spec.name}: transport "${spec.transport}" missing`]);
      this.upstreams.set(spec.name, {
        spec,
        transport,
        status: "unavailable",
        tools: [],
        withheld: new Map(),
        lastAttempt: 0,
      });
    }
  }

  /** Catalog settings in force. */
  get catalogSettings(): CatalogSettings {
    return { ...this.config.catalog, snapshot: this.snapshotMode };
  }

  /** Log a line through the redactor. */
  log(line: string): void {
    this.#log(line);
  }

  /** Limits handed to a transport. */
  upstreamLimits(): UpstreamLimits {
    return {
      callTimeoutMs: this.limits.callTimeoutMs,
      maxResponseBytes: this.limits.maxResponseBytes,
      connectTimeoutMs: this.limits.connectTimeoutMs,
    };
  }

  /** Start (or retry) one upstream. Returns the redacted problem, or undefined when ready. */
  async startUpstream(state: UpstreamState): Promise<string | undefined> {
    state.lastAttempt = Date.now();
    try {
      const upstream = await state.transport.start(state.spec.config, {
        upstreamName: state.spec.name,
        credentials: this.credentials,
        redactor: this.redactor,
        limits: this.upstreamLimits(),
        fetch: this.#fetch,
        log: (m) => this.#log(`upstream ${state.spec.name}: ${m}`),
      });
      if (this.#stopped) {
        await upstream.stop().catch(() => {});
        return `upstream ${state.spec.name}: runtime stopped while starting`;
      }
      const installation: Installation = installUpstream(upstream, this.policy(state.spec));
      state.upstream = upstream;
      state.status = "ready";
      state.error = undefined;
      state.errorCode = undefined;
      this.#adopt(state, installation);
      return undefined;
    } catch (e) {
      state.status = "unavailable";
      state.error = this.redactor.redact(describeStartError(state.spec.name, e));
      state.errorCode = e instanceof UpstreamStartError ? e.code : undefined;
      return state.error;
    }
  }

  /** Re-install the upstream's current tool list through the policy. */
  #loadTools(state: UpstreamState): void {
    this.#adopt(state, installTools(state.upstream ? state.upstream.listTools() : [], this.policy(state.spec)));
  }

  /** What decides which of one upstream's listed tools are installed (src/upstream/install.ts). */
  policy(spec: UpstreamSpec): InstallPolicy {
    return {
      readOnly: this.readOnly,
      configAllowsWrites: configAllowsWrites(this.config, spec),
      upstreamRefusesWrites: spec.allowWrites === false,
      processAllowsWrites: this.processAllowsWrites,
      upstream: spec.name,
    };
  }

  #adopt(state: UpstreamState, installation: Installation): void {
    state.withheld = installation.withheld;
    state.tools = installation.installed.map((t) => this.redactor.redactJson(t));
  }

  /**
   * Live mode: retry unavailable upstreams and ask ready ones to refresh (each at most once per retry interval),
   * then re-list tools. Frozen mode: no-op. Failures are logged once per distinct message.
   */
  async refresh(names?: string[]): Promise<void> {
    if (this.snapshotMode !== "live" || this.#stopped) return;
    const now = Date.now();
    const due = (s: UpstreamState) => now - s.lastAttempt >= this.#retryIntervalMs;
    const chosen = [...this.upstreams.values()].filter((s) => !names || names.includes(s.spec.name));
    await Promise.all(chosen.map(async (s) => {
      if (s.status === "unavailable" && due(s)) {
        const before = s.error;
        const problem = await this.startUpstream(s);
        if (problem && problem !== before) this.#log(`${problem} (will retry)`);
      } else if (s.status === "ready" && s.upstream) {
        if (s.upstream.refresh && due(s)) {
          s.lastAttempt = now;
          try {
            await s.upstream.refresh();
          } catch (e) {
            this.#log(describeStartError(s.spec.name, e).replace("failed to start", "refresh failed"));
          }
        }
        this.#loadTools(s);
      }
    }));
  }

  /** The catalog snapshot, servers sorted by name (frozen: the one taken at start). */
  catalog(): UpstreamSnapshot[] {
    return this.#frozen ?? this.#computeCatalog();
  }

  #computeCatalog(): UpstreamSnapshot[] {
    return [...this.upstreams.values()].map((s) => ({
      name: s.spec.name,
      transport: s.spec.transport,
      description: this.redactor.redact(s.spec.description),
      tool_count: s.tools.length,
      catalog_loaded: s.status === "ready",
      tools: s.tools,
    })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  /** Mark start complete: in frozen mode this takes the snapshot every later lookup uses. */
  markStarted(): void {
    if (this.snapshotMode === "frozen") this.#frozen = this.#computeCatalog();
  }

  /** A tool of the current snapshot by server and exposed name. */
  findTool(server: string, tool: string): ToolEntry | undefined {
    return this.catalog().find((s) => s.name === server)?.tools.find((t) => t.name === tool);
  }

  /** Names of configured upstreams, sorted. */
  serverNames(): string[] {
    return [...this.upstreams.keys()].sort();
  }

  /** Non-secret facts: upstreams, transports, tool counts, catalog status, limits. */
  diagnostics(): JsonObject {
    const upstreams: JsonObject = {};
    for (const name of this.serverNames()) {
      const s = this.upstreams.get(name)!;
      let extra: JsonObject = {};
      try {
        extra = s.upstream ? s.upstream.diagnostics() : {};
      } catch {
        extra = { diagnostics_error: true };
      }
      upstreams[name] = {
        transport: s.spec.transport,
        status: s.status,
        tool_count: s.tools.length,
        hidden_tools: s.withheld.size,
        write_tools: s.tools.filter((t) => t.effect === "write").length,
        allow_writes: this.policy(s.spec).configAllowsWrites === true,
        ...(s.error ? { error: s.error } : {}),
        ...extra,
      };
    }
    const l = this.limits;
    return this.redactor.redactJson({
      upstreams,
      catalog_exposure_mode: this.config.catalog.exposure,
      catalog_snapshot_mode: this.snapshotMode,
      read_only: this.readOnly,
      process_allows_writes: this.processAllowsWrites,
      limits: {
        max_tool_calls: l.maxToolCalls,
        max_catalog_ops: l.maxCatalogOps,
        call_timeout_ms: l.callTimeoutMs,
        connect_timeout_ms: l.connectTimeoutMs,
        max_response_bytes: l.maxResponseBytes,
        max_catalog_result_bytes: l.maxCatalogResultBytes,
      },
    });
  }

  /** True after `stop()`. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Stop every upstream (idempotent). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await Promise.all([...this.upstreams.values()].map(async (s) => {
      const u = s.upstream;
      s.upstream = undefined;
      s.status = "stopped";
      if (u) {
        try {
          await u.stop();
        } catch (e) {
          this.#log(`upstream ${s.spec.name}: stop failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }));
  }
}

/**
 * Start a runtime: resolve every credential once (registering the secrets with the redactor before any catalog
 * text exists), then start every upstream concurrently. Throws RuntimeStartError listing every problem when the
 * policy is fatal; otherwise failed upstreams are marked unavailable and logged once.
 */
export async function startRuntime(config: PtcConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const rt = new Runtime(config, options);
  const policy = options.failurePolicy ?? (rt.snapshotMode === "frozen" ? "fatal" : "mark_unavailable");
  const credentialProblems = await rt.credentials.check();
  if (credentialProblems.length > 0 && policy === "fatal") {
    throw new RuntimeStartError(credentialProblems.map((p) => rt.redactor.redact(p)));
  }
  for (const p of credentialProblems) rt.log(`${p} (upstreams using it will fail until it is available)`);
  const problems = (await Promise.all([...rt.upstreams.values()].map((s) => rt.startUpstream(s))))
    .filter((p): p is string => p !== undefined);
  if (problems.length > 0 && policy === "fatal") {
    await rt.stop();
    throw new RuntimeStartError(problems);
  }
  for (const p of problems) rt.log(`${p} (marked unavailable; will retry)`);
  rt.markStarted();
  return rt;
}
