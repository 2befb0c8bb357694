/**
 * Contracts between the transport-neutral tool runtime (src/upstream) and the transports (transports/*).
 * See docs/architecture.md and docs/transports.md. Transports import this file (and the helpers named below), the JSON types of src/core/json.ts
 * and nothing else from src/.
 */
import type { JsonObject, JsonValue } from "../core/json.ts";

/** A JSON Schema object (draft 2020-12 subset as published by OpenAPI 3.1 / MCP). */
export type JsonSchema = { [key: string]: unknown };

/** Tool annotations carried into the catalog (MCP names). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Transport-native provenance of a tool. Only discovery (`meta`) and diagnostics read it. */
export interface ToolProvenance {
  /** `openapi` | `mcp_stdio` | `mcp_http` | a test transport's name. */
  transport: string;
  /** The tool's name as the upstream spells it (MCP tool name, OpenAPI operationId or derived id). */
  upstreamName: string;
  operationId?: string;
  method?: string;
  path?: string;
  /** Free-form operator notes (`x-ptc-notes`). */
  notes?: string;
  [extra: string]: unknown;
}

/** What a tool does to the world: `read` leaves it as it was, `write` may change it. */
export type ToolEffect = "read" | "write";

/** What every transport produces for each exposed tool. `name` is the Lisp-facing kebab-case name. */
export interface ToolEntry {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  /**
   * The operator's declared effect (MCP `tools` mapping, OpenAPI operation effect). Absent: the runtime derives it
   * from the annotations (src/upstream/install.ts `effectOf`); installed entries always carry it.
   */
  effect?: ToolEffect;
  /** Callable but left out of the prompt catalog (MCP `tools` mapping `hidden`). */
  hidden?: boolean;
  _ptc: ToolProvenance;
  /**
   * How the tool pages, when its transport or operator declared it (or, undeclared, the runtime inferred it from a
   * cursor argument and a next-cursor result field: `inferred`); `(tool/pages …)` follows it. `false`: the operator
   * declared that it does not page (`pagination: false`), so nothing is inferred.
   */
  pagination?: Pagination | false;
}

/**
 * How a tool's results page: transport-neutral, filled by any transport (OpenAPI `x-ptc-pagination` or a `pagination`
 * override; an MCP tool mapping's `pagination`). Paths are key paths into the tool's (result-path-extracted) value.
 * - `cursor`: send the previous page's `nextCursor` value as argument `cursorParam`; the last page has none.
 * - `offset`: send `offsetParam` = items received so far; the last page is shorter than `limitParam`'s value (or
 *   empty).
 * `inferred`: nobody declared it; the runtime read it off the tool's schemas (src/upstream/pagination.ts).
 */
export type Pagination =
  | { style: "cursor"; items: string[]; cursorParam: string; nextCursor: string[]; inferred?: boolean }
  | { style: "offset"; items: string[]; offsetParam: string; limitParam?: string; inferred?: boolean };

/** The closed set of world-fault reasons (docs/architecture.md). */
export type FailureReason =
  | "upstream_unavailable"
  | "upstream_error"
  | "tool_error"
  | "auth_failed"
  | "forbidden"
  | "not_found"
  | "rate_limited"
  | "timeout"
  | "response_too_large"
  | "cap_exhausted"
  | "invalid_response";

/**
 * Result contract (transport → runtime). `bytes` is the size of the upstream payload as received. A failure may say
 * what the transport knows about a write's fate (`mutationState`): `not_applied` when the service gave a complete
 * refusal or the request never left (a 4xx answer, a refused connection), `indeterminate` when it may have acted (a
 * 5xx answer, a reset connection). Without it the runtime decides from `reason` (src/upstream/tool_call.ts).
 */
export type ToolResult =
  | { ok: true; value: JsonValue; valueKind: "json" | "text" | "none"; bytes?: number }
  | {
    ok: false;
    reason: FailureReason;
    message: string;
    bytes?: number;
    mutationState?: "not_applied" | "indeterminate";
    /**
     * The service asked to be called again after this many ms (a 429/503 `Retry-After`). The runtime retries a read
     * once after it when it fits in the call's time; a write never.
     */
    retryAfterMs?: number;
  };

/** Per-call context the runtime hands a transport. */
export interface CallContext {
  /** Aborted on run-context close, program timeout or the call timeout. */
  signal: AbortSignal;
  /** Call timeout in ms (already the min of run and upstream settings). */
  timeoutMs: number;
  /** Response byte cap for this call (min of run and upstream settings). */
  maxResponseBytes: number;
  /** The installed tool's effect. A transport never repeats a `write` request on its own (no retry of any kind). */
  effect?: ToolEffect;
}

/**
 * One live connection to an upstream, as a transport's `start` returns it. The runtime's supervisor
 * (src/upstream/supervisor.ts) owns its life: it makes a new connection after this one ends (`closed`) or after a
 * failed `start`, with the one backoff policy. A connection never reconnects or retries by itself.
 */
export interface Upstream {
  /**
   * Every tool the upstream serves, normalized (kebab-case names, annotations saying what each tool is). Transports
   * never filter by policy (the write gate): the runtime decides what is installed (src/upstream/install.ts) and
   * never calls a tool it did not install.
   */
  listTools(): ToolEntry[];
  /**
   * Call a tool by its exposed name. Arguments are JSON with the keys the program wrote after boundary conversion;
   * the transport maps them to native parameter names. World faults are returned, never thrown.
   */
  call(toolName: string, args: JsonObject, ctx: CallContext): Promise<ToolResult>;
  /**
   * The documents the upstream serves besides its tools (MCP resources), for `(tool/resources 'srv)`: a success's
   * value is a list of `{uri, name, title?, description?, mime_type?, size?}`. Optional: an upstream without
   * resources (OpenAPI) omits it and the runtime says so. World faults are returned, never thrown.
   */
  listResources?(ctx: CallContext): Promise<ToolResult>;
  /**
   * One resource's contents, for `(tool/read-resource 'srv "uri")`: a single text content is the text (decoded when
   * its type is JSON); several contents, or binary ones, are a list of `{uri, mime_type?, text}` / `{uri, mime_type?,
   * bytes}` (binary data is summarized, never passed). The same bounds as `call`: `ctx` carries the timeout and the
   * byte cap. World faults are returned, never thrown.
   */
  readResource?(uri: string, ctx: CallContext): Promise<ToolResult>;
  /** Non-secret facts for `diagnostics()` / `ptc doctor`. */
  diagnostics(): JsonObject;
  /**
   * Settles, with a short non-secret reason ("its server process exited (exit status 3)"), when the connection ended
   * by itself (a child process died, the server went away). Absent: the connection never ends by itself (each call
   * reaches the service afresh, as OpenAPI's do). Not settled by `stop()`.
   */
  readonly closed?: Promise<string>;
  /** Close the connection (kill the child, end the session). Idempotent. */
  stop(): Promise<void>;
}

/** A configuration problem. `path` is the key path, e.g. `upstreams.observatory.include_operations[2]`. */
export interface ConfigError {
  path: string;
  message: string;
}

/** What a transport's parseConfig gets besides the raw upstream object. */
export interface ConfigContext {
  /** The upstream's name (key under `upstreams`). */
  upstreamName: string;
  /** Key path prefix for errors, e.g. `upstreams.observatory`. */
  path: string;
  /** Directory of the config file (relative `schema_file`, `cwd` resolve against it). */
  configDir: string;
  /** Names of the credentials declared at top level. */
  credentialNames: ReadonlySet<string>;
  /** `scheme_hint` of each credential that declares one (`parseHttpCommon` checks emitters against it). */
  credentialHints?: ReadonlyMap<string, "bearer" | "basic" | "raw">;
}

/** Deno permissions an upstream needs (for `ptc permissions` and the start-up check). */
export interface PermissionNeeds {
  /** host:port entries. */
  net: string[];
  /** absolute paths. */
  read: string[];
  /** absolute paths the upstream writes (an OAuth token file). */
  write?: string[];
  env: string[];
  run: string[];
  /** The transport needs unrestricted --allow-env (e.g. node:child_process). */
  anyEnv?: boolean;
}

/** Resolves and emits credentials. File and env sources are read on every call (no cache). */
export interface CredentialMaterializer {
  /** The secret value of a declared credential (throws CredentialError with a non-secret message). */
  resolve(credentialName: string): Promise<string>;
  /**
   * Headers for an `auth` list (emitters bearer|basic|custom_header, and every `cookie` emitter joined into one
   * `cookie` header). Registers the values with the redactor. `query` emitters are not headers: see `authQuery`.
   */
  authHeaders(auth: AuthEmitter[]): Promise<Record<string, string>>;
  /**
   * `[name, value]` pairs for the `query` emitters of an `auth` list (API keys in the query string). Registers each
   * value and its encoded forms with the redactor before returning it. Optional for test materializers.
   */
  authQuery?(auth: AuthEmitter[]): Promise<[string, string][]>;
}

/** One `auth` emitter of an HTTP upstream. */
export interface AuthEmitter {
  scheme: "bearer" | "basic" | "custom_header" | "query" | "cookie";
  /** The credential name under top-level `credentials`. */
  binding: string;
  /** Header name for custom_header. */
  header?: string;
  /** Query parameter name for query. */
  param?: string;
  /** Cookie name for cookie. */
  cookie?: string;
}

/** Scrubs secrets from text and JSON. */
export interface Redactor {
  /** Register a secret (and the runtime adds its encoded forms). Empty strings are ignored. */
  register(secret: string): void;
  redact(text: string): string;
  redactJson<T>(value: T): T;
}

/** Limits a transport must respect. */
export interface UpstreamLimits {
  callTimeoutMs: number;
  maxResponseBytes: number;
  connectTimeoutMs: number;
}

/** What `start` gets from the runtime. */
export interface TransportDeps {
  upstreamName: string;
  credentials: CredentialMaterializer;
  redactor: Redactor;
  limits: UpstreamLimits;
  /** Always use this fetch (tests may substitute it). */
  fetch: typeof fetch;
  /**
   * Diagnostics log (redacted by the runtime before output). The runtime prefixes every line with
   * `upstream <name>: `, so a transport writes only the message and never names its upstream itself.
   */
  log: (message: string) => void;
}

/** One check `ptc doctor` runs before starting an upstream. `detail` and `hint` are non-secret. */
export interface PreflightCheck {
  /** Short name of the check, e.g. `command`. */
  check: string;
  ok: boolean;
  detail: string;
  hint?: string;
}

/** One plug-in transport. Registered by name in the transport registry (transports/mod.ts registers built-ins). */
export interface Transport<C = unknown> {
  /** `openapi` | `mcp_stdio` | `mcp_http`. */
  name: string;
  /** What the transport reaches, in a few words (listed when a config entry has no `transport`). */
  summary?: string;
  /** Names this transport had before; a config naming one is told the current name. */
  formerNames?: readonly string[];
  /** JSON Schema of the upstream entry (merged into the published config schema). */
  configSchema: JsonSchema;
  /** Semantic validation after the schema check. Returns the typed config or every problem found. */
  parseConfig(raw: JsonObject, ctx: ConfigContext): C | ConfigError[];
  /** Permissions this upstream needs. */
  permissions(config: C): PermissionNeeds;
  /**
   * One attempt to connect (load the schema / spawn the child / handshake and list the tools) → the live connection.
   * Throws UpstreamStartError (closed code, message, hint). Never retries: the runtime's supervisor decides when to
   * try again.
   */
  start(config: C, deps: TransportDeps): Promise<Upstream>;
  /**
   * The upstream's public, non-secret endpoint for diagnostics and tool provenance (e.g. `{baseUrl}` without
   * userinfo, query or fragment). Absent: none.
   */
  endpoint?(config: C): JsonObject;
  /** Checks `ptc doctor` runs without starting the upstream (e.g. the command exists). Absent: none. */
  preflight?(config: C): PreflightCheck[];
  /**
   * Called by a face that handles SIGINT/SIGTERM itself and stops its upstreams gracefully: the transport must not
   * end the process on those signals (it still reaps what it started when the process exits).
   */
  delegateProcessReaping?(): void;
}

/** Thrown by `start` with a closed, non-secret diagnostic code and a fix hint. */
export class UpstreamStartError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "UpstreamStartError";
  }
}
