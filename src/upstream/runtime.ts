/**
 * The long-lived runtime handle: config, credentials, redactor, one `UpstreamSupervisor` per configured upstream
 * (its phase, connection and reconnect policy: supervisor.ts), the per-upstream request limiter, and the events
 * every phase change and call record is published on. `startRuntime` starts nothing by itself beyond what the
 * operator asked for: an upstream starts on its first use or, with `start: "background"`, right away without being
 * waited for. No upstream can stop the runtime from starting.
 * @module
 */
import type { JsonObject } from "../core/json.ts";
import type { ToolEntry, Transport, Upstream, UpstreamLimits } from "./types.ts";
import { UpstreamStartError } from "./types.ts";
import type { CatalogSettings, PtcConfig, RunLimits, StartMode, UpstreamSpec } from "./config.ts";
import { createMaterializer, type CredentialIo, type Materializer } from "./credentials.ts";
import { configAllowsWrites, type InstallPolicy, installUpstream } from "./install.ts";
import { createRedactor, type SecretRedactor } from "./redact.ts";
import { defaultRegistry, type TransportRegistry } from "./registry.ts";
import { type Clock, systemClock } from "./clock.ts";
import { type UpstreamCause, UpstreamEvents, type UpstreamPhase } from "./events.ts";
import { UpstreamSupervisor } from "./supervisor.ts";
import { RequestLimiter } from "./limiter.ts";

/** Options of `startRuntime`. */
export interface RuntimeOptions {
  registry?: TransportRegistry;
  /**
   * When an upstream without its own `start` (and with no top-level `start`) starts: on its first use, or in the
   * background right after start. The face's default (`ptc mcp` and the REPL: background; `ptc eval`: first use).
   */
  start?: StartMode;
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
  /** The supervisors' clock (tests hand in a manual one). */
  clock?: Clock;
}

/** Thrown when the runtime cannot be made (a transport the config names is not registered); one line a problem. */
export class RuntimeStartError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "RuntimeStartError";
  }
}

/**
 * One configured upstream: its spec and transport, its supervisor, the tools its latest connection listed as the
 * install policy let them through (kept while it reconnects, so they stay callable by name once it is back), and its
 * request limiter.
 */
export class ConfiguredUpstream {
  /** Installed tools (redacted) of the latest connection; empty before the first. */
  tools: ToolEntry[] = [];
  /** Tools the install policy withheld: exposed name → why (completes "tool 'server/name' …"). */
  withheld = new Map<string, string>();
  /** True once a connection listed its tools. */
  catalogLoaded = false;

  constructor(
    readonly spec: UpstreamSpec,
    readonly transport: Transport<unknown>,
    readonly supervisor: UpstreamSupervisor,
    readonly limiter: RequestLimiter,
    readonly start: StartMode,
  ) {}

  /** The live connection while ready. */
  get connection(): Upstream | undefined {
    return this.supervisor.connection;
  }

  get phase(): UpstreamPhase {
    return this.supervisor.phase;
  }
}

/**
 * One upstream in the runtime's catalog (tool entries as the transport produced them, installed by the policy) and
 * its state. Faces see the engine's `CatalogServer` view instead.
 */
export interface UpstreamSnapshot {
  name: string;
  transport: string;
  description: string;
  tool_count: number;
  /** True once a connection listed the upstream's tools (false: not started yet, or never reached). */
  catalog_loaded: boolean;
  tools: ToolEntry[];
  /** The supervisor's phase. */
  state: UpstreamPhase;
  /** Why it is not ready (failed, reconnecting). */
  cause?: UpstreamCause;
  /** Epoch ms of the next attempt, when one is scheduled. */
  next_attempt_at?: number;
}

/** A start error as a cause: its closed code and one redacted message per line, naming the upstream. */
function describeStartError(name: string, e: unknown): UpstreamCause {
  const prefix = `upstream ${name}: `;
  const strip = (m: string) => {
    while (m.startsWith(prefix)) m = m.slice(prefix.length); // transports may have named the upstream already
    return m;
  };
  if (e instanceof UpstreamStartError) {
    // a transport may report several problems, one a line: each line names the upstream and carries the code
    const message = e.message.split("\n").map((line) =>
      `${prefix}${strip(line)}${e.hint ? ` (${e.hint})` : ""} [${e.code}]`
    ).join("\n");
    return { code: e.code, message };
  }
  if (e instanceof Error && e.name === "CredentialError") {
    return { code: "credential_unavailable", message: `${prefix}${strip(e.message)}` };
  }
  const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
  return { code: "start_failed", message: `${prefix}failed to start: ${strip(msg)}` };
}

/** The runtime handle. Create with `startRuntime`. */
export class Runtime {
  readonly redactor: SecretRedactor;
  readonly credentials: Materializer;
  readonly limits: RunLimits;
  readonly readOnly: boolean;
  /** Every write waits for a person's approval: `--approve-writes` or the config's `approve_writes` (either one). */
  readonly approveWrites: boolean;
  /** The process switch of the write gate (`--allow-writes`). */
  readonly processAllowsWrites: boolean;
  readonly upstreams = new Map<string, ConfiguredUpstream>();
  /** Every phase change and every finished call record (events.ts). */
  readonly events = new UpstreamEvents();
  readonly clock: Clock;
  #stopped = false;
  #log: (line: string) => void;
  #fetch: typeof fetch;

  constructor(readonly config: PtcConfig, options: RuntimeOptions = {}) {
    this.redactor = createRedactor();
    this.credentials = createMaterializer(config.credentials, this.redactor, options.credentialIo);
    this.limits = { ...config.limits, ...options.limits };
    this.readOnly = options.readOnly === true || config.readOnly;
    this.approveWrites = options.approveWrites === true || config.approveWrites === true;
    this.processAllowsWrites = options.allowWrites === true;
    this.clock = options.clock ?? systemClock;
    const sink = options.log ?? ((line: string) => console.error(line));
    this.#log = (line) => sink(this.redactor.redact(line));
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const registry = options.registry ?? defaultRegistry;
    for (const spec of config.upstreams) {
      const transport = registry.get(spec.transport);
      if (!transport) throw new RuntimeStartError([`upstream ${spec.name}: transport "${spec.transport}" missing`]);
      this.upstreams.set(spec.name, this.#configure(spec, transport, spec.start ?? options.start ?? "first_use"));
    }
  }

  #configure(spec: UpstreamSpec, transport: Transport<unknown>, start: StartMode): ConfiguredUpstream {
    const log = (m: string) => this.#log(`upstream ${spec.name}: ${m}`);
    const supervisor = new UpstreamSupervisor({
      name: spec.name,
      connect: () =>
        transport.start(spec.config, {
          upstreamName: spec.name,
          credentials: this.credentials,
          redactor: this.redactor,
          limits: this.upstreamLimits(),
          fetch: this.#fetch,
          log,
        }),
      onConnected: (connection) => {
        const installation = installUpstream(connection, this.policy(spec));
        const entry = this.upstreams.get(spec.name)!;
        entry.withheld = installation.withheld;
        entry.tools = installation.installed.map((t) => this.redactor.redactJson(t));
        entry.catalogLoaded = true;
      },
      describe: (e) => {
        const cause = describeStartError(spec.name, e);
        return { code: cause.code, message: this.redactor.redact(cause.message) };
      },
      backoff: spec.backoff,
      clock: this.clock,
      events: this.events,
      log,
    });
    // A phase change worth an operator's attention is logged once per distinct cause.
    let lastLogged: string | undefined;
    this.events.subscribe((e) => {
      if (e.type !== "phase" || e.upstream !== spec.name) return;
      if (e.to === "failed" && e.cause && e.cause.message !== lastLogged) {
        lastLogged = e.cause.message;
        // one line a problem (a transport may report several), each naming the upstream and its code
        for (const line of e.cause.message.split("\n")) this.#log(line);
      } else if (e.to === "ready" && lastLogged !== undefined) {
        lastLogged = undefined;
        log("ready again");
      }
    });
    return new ConfiguredUpstream(spec, transport, supervisor, new RequestLimiter(spec.maxConcurrentRequests), start);
  }

  /** Catalog settings in force. */
  get catalogSettings(): CatalogSettings {
    return this.config.catalog;
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

  /**
   * True when a write tool is installed, or may be once an upstream whose tools are not known yet starts (the write
   * gate lets its writes through).
   */
  mayInstallWrites(): boolean {
    const gateOpen = (spec: UpstreamSpec) => {
      const p = this.policy(spec);
      return !p.readOnly && p.processAllowsWrites === true && p.configAllowsWrites === true && !p.upstreamRefusesWrites;
    };
    return [...this.upstreams.values()].some((u) =>
      u.catalogLoaded ? u.tools.some((t) => t.effect === "write") : gateOpen(u.spec)
    );
  }

  /** Start the upstreams configured to start in the background (without waiting for them). */
  startBackground(): void {
    for (const u of this.upstreams.values()) if (u.start === "background") u.supervisor.start();
  }

  /**
   * Start the named upstreams (all when none are named) and wait until each is ready or has finished one attempt,
   * at most until `deadline` (epoch ms). `ptc catalog` and a recording use it to see every catalog it can.
   */
  async settle(deadline: number, names?: string[], signal?: AbortSignal): Promise<void> {
    const chosen = [...this.upstreams.values()].filter((u) => !names || names.includes(u.spec.name));
    await Promise.all(chosen.map((u) => u.supervisor.whenReady(deadline, signal)));
  }

  /** The catalog, servers sorted by name: each upstream's state and the tools its latest connection listed. */
  catalog(): UpstreamSnapshot[] {
    return [...this.upstreams.values()].map((u) => {
      const s = u.supervisor;
      return {
        name: u.spec.name,
        transport: u.spec.transport,
        description: this.redactor.redact(u.spec.description),
        tool_count: u.tools.length,
        catalog_loaded: u.catalogLoaded,
        tools: u.tools,
        state: s.phase,
        ...(s.cause ? { cause: s.cause } : {}),
        ...(s.nextAttemptAt !== undefined ? { next_attempt_at: s.nextAttemptAt } : {}),
      };
    }).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  /** A tool of the current catalog by server and exposed name. */
  findTool(server: string, tool: string): ToolEntry | undefined {
    return this.upstreams.get(server)?.tools.find((t) => t.name === tool);
  }

  /** Names of configured upstreams, sorted. */
  serverNames(): string[] {
    return [...this.upstreams.keys()].sort();
  }

  /** Non-secret facts: upstreams (state, cause, next attempt, tool counts), limits. */
  diagnostics(): JsonObject {
    const upstreams: JsonObject = {};
    for (const name of this.serverNames()) {
      const u = this.upstreams.get(name)!;
      const s = u.supervisor;
      let extra: JsonObject = {};
      try {
        extra = u.connection ? u.connection.diagnostics() : {};
      } catch {
        extra = { diagnostics_error: true };
      }
      upstreams[name] = {
        transport: u.spec.transport,
        ...extra,
        state: s.phase,
        start: u.start,
        reconnects: s.reconnects,
        tool_count: u.tools.length,
        hidden_tools: u.withheld.size,
        write_tools: u.tools.filter((t) => t.effect === "write").length,
        allow_writes: this.policy(u.spec).configAllowsWrites === true,
        max_concurrent_requests: u.spec.maxConcurrentRequests,
        ...(s.cause ? { error: s.cause.message, error_code: s.cause.code } : {}),
        ...(s.nextAttemptAt !== undefined ? { next_attempt_at: new Date(s.nextAttemptAt).toISOString() } : {}),
      };
    }
    const l = this.limits;
    return this.redactor.redactJson({
      upstreams,
      catalog_exposure_mode: this.config.catalog.exposure,
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
    await Promise.all([...this.upstreams.values()].map((u) => u.supervisor.stop()));
  }
}

/**
 * Make a runtime: check every credential once (registering the secrets with the redactor before any catalog text
 * exists; a problem is logged — the upstreams using it fail with it when they start) and start the upstreams whose
 * start mode is `background`, without waiting for them. Throws RuntimeStartError only for a missing transport.
 */
export async function startRuntime(config: PtcConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const rt = new Runtime(config, options);
  for (const p of await rt.credentials.check()) {
    rt.log(`${p} (upstreams using it will fail until it is available)`);
  }
  rt.startBackground();
  return rt;
}
