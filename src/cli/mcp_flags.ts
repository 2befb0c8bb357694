/**
 * Flags of `ptc mcp`, each with an environment fallback `PTC_<FLAG>` (e.g. `--max-concurrent-calls` ↔
 * `PTC_MAX_CONCURRENT_CALLS`). Precedence: flag > environment > default. Invalid values are usage errors.
 * @module
 */
import { parseArgs } from "node:util";
import { RESPONSE_PROFILES, type ResponseProfile } from "../mcp/envelope.ts";
import { parseTrustedProxies, type TrustedProxies } from "../mcp/client_address.ts";
import { type RecordReplay, recordReplayChoice } from "./record_replay.ts";

type FlagKind = "string" | "int" | "bool" | { enum: readonly string[] };

interface FlagSpec {
  kind: FlagKind;
  help: string;
  /** Environment variable (default: PTC_<UPPER_SNAKE>). */
  env?: string;
  /** Default applied when neither flag nor env is given. */
  default?: string | number | boolean;
  /**
   * The config key this flag overrides. Such a flag has no default of its own: when neither flag nor env is given the
   * value stays undefined and the config (or, without it, the built-in default named in `help`) decides — flag given >
   * config > default, as docs/configuration.md says.
   */
  configKey?: string;
  /** Inclusive bounds for ints. */
  min?: number;
  max?: number;
}

/** The audit-trail flag of `ptc mcp` (kept in its own block: other flag families are added beside it). */
const AUDIT_FLAGS = {
  "audit-log": {
    kind: "string",
    help: "append one JSON line per evaluation and per upstream call to FILE (reopened on SIGHUP)",
  },
} as const satisfies Record<string, FlagSpec>;

/** `--view HOST:PORT`: the live web viewer of the running server (docs/view.md), kept in its own block. */
const VIEW_FLAGS = {
  "view": { kind: "string", help: "serve the web viewer of recent evaluations on HOST:PORT (loopback unless a token)" },
  "view-all-programs": {
    kind: "bool",
    help: "show every owner's program, prints and answer in the viewer (default: only the viewer's own)",
    default: false,
  },
} as const satisfies Record<string, FlagSpec>;

// --- record / replay (docs/record-replay.md) ---
/** `--record DIR` / `--replay DIR`: the flags of reproducible runs, kept in their own block. */
const RECORD_REPLAY_FLAGS = {
  "record": { kind: "string", help: "write every evaluation's upstream calls (redacted) to DIR, new or empty" },
  "replay": { kind: "string", help: "answer upstream calls from the recording in DIR; no upstream is started" },
} as const satisfies Record<string, FlagSpec>;

/** The record/replay choice of parsed flag values (flag or PTC_RECORD / PTC_REPLAY); FlagError when both. */
function recordReplayOption(values: Record<string, unknown>): { recordReplay: RecordReplay } {
  const choice = recordReplayChoice(values.record, values.replay);
  if (typeof choice === "string") throw new FlagError(choice);
  return { recordReplay: choice };
}
// --- end record / replay ---

/** Every flag of `ptc mcp`. */
export const MCP_FLAGS = {
  "upstreams-config": { kind: "string", help: "upstream config file (JSONC)", env: "PTC_UPSTREAMS" },
  "http": { kind: "string", help: "serve Streamable HTTP on HOST:PORT at /mcp instead of stdio" },
  "http-auth-token-file": { kind: "string", help: "file holding the bearer token (≥ 32 chars) HTTP clients send" },
  "allowed-hosts": { kind: "string", help: "comma-separated extra Host names accepted over HTTP" },
  "allowed-origins": { kind: "string", help: "comma-separated Origins accepted over HTTP (default: loopback)" },
  "trusted-proxy": {
    kind: "string",
    help: "comma-separated CIDRs of reverse proxies whose X-Forwarded-For/Forwarded client address is believed (HTTP)",
  },
  "response-profile": {
    kind: { enum: RESPONSE_PROFILES },
    help: "slim (text only) | structured (+structuredContent) | debug (+call records, metrics)",
    default: "slim",
  },
  "sessions": { kind: "bool", help: "offer lisp_session_* tools (stateful sessions)", default: false },
  "introspection": {
    kind: "bool",
    help: "offer list_api_services, list_service_operations, get_operation_schema",
    default: false,
  },
  "read-only": { kind: "bool", help: "hide and refuse every write tool", default: false },
  "allow-writes": {
    kind: "bool",
    help: "install write tools of upstreams whose config sets allow_writes (both switches are needed)",
    default: false,
  },
  "approve-writes": {
    kind: "bool",
    help: "every write waits for the client's user to approve it (MCP elicitation); the config's approve_writes " +
      "also turns it on",
    default: false,
  },
  "approval-timeout-ms": {
    kind: "int",
    help: "longest one approval may take before the write ends approval_unavailable (cap 300000)",
    default: 120_000,
    min: 1,
    max: 300_000,
  },
  "catalog-mode": {
    kind: { enum: ["auto", "inline", "lazy"] },
    help: "how the lisp_eval description shows the catalog (default: the config's catalog.exposure, else auto)",
    configKey: "catalog.exposure",
  },
  "max-concurrent-calls": {
    kind: "int",
    help: "evaluations running at once (= pre-warmed sandbox processes); more get `busy`",
    default: 4,
    min: 1,
    max: 64,
  },
  "max-program-bytes": { kind: "int", help: "largest accepted program", default: 65_536, min: 1 },
  "max-context-bytes": { kind: "int", help: "largest accepted JSON context", default: 4_194_304, min: 1 },
  "program-timeout-ms": { kind: "int", help: "wall-clock limit per program", default: 10_000, min: 1 },
  "max-tool-calls": {
    kind: "int",
    help: "upstream calls per program (default: the config's limits.max_tool_calls, else 50)",
    configKey: "limits.max_tool_calls",
    min: 1,
  },
  "max-catalog-ops": {
    kind: "int",
    help: "discovery operations per program (default: the config's limits.max_catalog_ops, else 25)",
    configKey: "limits.max_catalog_ops",
    min: 1,
  },
  "max-sessions": { kind: "int", help: "open sessions in total", default: 64, min: 1 },
  "max-sessions-per-owner": { kind: "int", help: "open sessions per client", default: 16, min: 1 },
  "session-ttl-ms": { kind: "int", help: "session lifetime", default: 1_800_000, min: 1 },
  "session-idle-ms": { kind: "int", help: "session idle expiry", default: 900_000, min: 1 },
  "session-park-ms": {
    kind: "int",
    help: "a session idle this long gives back its sandbox process, restored on its next evaluation (0: keep it)",
    default: 5_000,
    min: 0,
  },
  "session-memory-budget-mb": {
    kind: "int",
    help: "what all parked sessions may hold (their history; a pinned one its heap cap); past it, `memory_budget`",
    default: 1024,
    min: 1,
  },
  "max-body-bytes": { kind: "int", help: "largest accepted HTTP request body", default: 8_388_608, min: 1024 },
  "sandbox-heap-mb": {
    kind: "int",
    help: "heap cap of each sandbox process in MiB (a session's memory cap)",
    default: 1024,
    min: 64,
  },
  "body-timeout-ms": { kind: "int", help: "longest an HTTP request body may take to arrive", default: 10_000, min: 1 },
  "max-open-requests": { kind: "int", help: "HTTP requests open at once; more get 503", default: 256, min: 1 },
  "max-connections": {
    kind: "int",
    help: "HTTP connections open at once; more are closed at accept, before anything is read",
    default: 512,
    min: 1,
  },
  "header-timeout-ms": {
    kind: "int",
    help: "longest an HTTP request head may take to arrive (the first on a connection gets 408)",
    default: 10_000,
    min: 1,
  },
  ...AUDIT_FLAGS,
  ...VIEW_FLAGS,
  ...RECORD_REPLAY_FLAGS,
} as const satisfies Record<string, FlagSpec>;

/** Parsed `ptc mcp` options. */
export interface McpOptions {
  upstreamsConfig?: string;
  http?: { hostname: string; port: number };
  httpAuthTokenFile?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** `--trusted-proxy`: parsed ranges, absent when not given. */
  trustedProxies?: TrustedProxies;
  responseProfile: ResponseProfile;
  sessions: boolean;
  introspection: boolean;
  readOnly: boolean;
  allowWrites: boolean;
  /** `--approve-writes`: writes wait for the client's user (elicitation). */
  approveWrites: boolean;
  /** `--approval-timeout-ms`: how long one approval may take. */
  approvalTimeoutMs: number;
  /** `--catalog-mode`; undefined when not given, so the config's `catalog.exposure` decides. */
  catalogMode?: "auto" | "inline" | "lazy";
  maxConcurrentCalls: number;
  maxProgramBytes: number;
  maxContextBytes: number;
  programTimeoutMs: number;
  /** `--max-tool-calls`; undefined when not given, so the config's `limits.max_tool_calls` decides. */
  maxToolCalls?: number;
  /** `--max-catalog-ops`; undefined when not given, so the config's `limits.max_catalog_ops` decides. */
  maxCatalogOps?: number;
  maxSessions: number;
  maxSessionsPerOwner: number;
  sessionTtlMs: number;
  sessionIdleMs: number;
  maxBodyBytes: number;
  sandboxHeapMb: number;
  bodyTimeoutMs: number;
  maxOpenRequests: number;
  maxConnections: number;
  headerTimeoutMs: number;
  sessionParkMs: number;
  sessionMemoryBudgetMb: number;
  /** `--view HOST:PORT`: where the live viewer listens, absent when not given. */
  view?: { hostname: string; port: number };
  /** `--view-all-programs`: the viewer shows every owner's program. */
  viewAllPrograms: boolean;
  // --- audit trail ---
  /** `--audit-log FILE`: the JSON Lines audit log, absent when not given. */
  auditLog?: string;
  /** `--record DIR` / `--replay DIR` (neither: `{}`). */
  recordReplay: RecordReplay;
}

/** A flag or environment value that does not parse. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FlagError";
  }
}

function envName(flag: string, spec: FlagSpec): string {
  return spec.env ?? `PTC_${flag.toUpperCase().replaceAll("-", "_")}`;
}

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

function convert(flag: string, spec: FlagSpec, raw: string | boolean, source: string): string | number | boolean {
  const kind = spec.kind;
  if (kind === "bool") {
    if (typeof raw === "boolean") return raw;
    const v = raw.toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw new FlagError(`${source}: expected true/false (1/0, yes/no, on/off), got '${raw}'`);
  }
  const text = String(raw);
  if (kind === "int") {
    if (!/^\d+$/.test(text)) throw new FlagError(`${source}: expected a whole number, got '${text}'`);
    const n = Number(text);
    if (spec.min !== undefined && n < spec.min) throw new FlagError(`${source}: must be at least ${spec.min}`);
    if (spec.max !== undefined && n > spec.max) throw new FlagError(`${source}: must be at most ${spec.max}`);
    return n;
  }
  if (typeof kind === "object") {
    if (!kind.enum.includes(text)) {
      throw new FlagError(`${source}: expected one of ${kind.enum.join(", ")}, got '${text}'`);
    }
    return text;
  }
  if (text.trim() === "") throw new FlagError(`${source}: must not be empty (flag --${flag})`);
  return text;
}

function parseHostPort(text: string, source: string): { hostname: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  if (!m) throw new FlagError(`${source}: expected HOST:PORT (e.g. 127.0.0.1:7332), got '${text}'`);
  const port = Number(m[2]);
  if (port > 65535) throw new FlagError(`${source}: port ${port} is out of range`);
  const hostname = m[1].startsWith("[") ? m[1].slice(1, -1) : m[1];
  return { hostname, port };
}

function list(text: unknown): string[] {
  return typeof text === "string" ? text.split(",").map((s) => s.trim()).filter(Boolean) : [];
}

/** Usage text of `ptc mcp`. */
export function mcpUsage(): string {
  const rows = Object.entries(MCP_FLAGS as Record<string, FlagSpec>).map(([name, spec]) => {
    const kind = spec.kind;
    const arg = kind === "bool"
      ? ""
      : kind === "int"
      ? " N"
      : typeof kind === "object"
      ? ` ${kind.enum.join("|")}`
      : " X";
    const def = spec.default !== undefined && kind !== "bool" ? ` (default ${spec.default})` : "";
    return `  --${name}${arg}\n      ${spec.help}${def} [env ${envName(name, spec)}]`;
  });
  return [
    "Usage: ptc mcp [options]",
    "",
    "Serves ptc as an MCP server over stdio (default) or Streamable HTTP.",
    "",
    ...rows,
  ]
    .join("\n");
}

/** Parse `ptc mcp` arguments with environment fallbacks. Throws FlagError on any bad value. */
export function parseMcpFlags(args: string[], env: (name: string) => string | undefined): McpOptions {
  const specs = MCP_FLAGS as Record<string, FlagSpec>;
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.kind === "bool" ? "boolean" : "string" };
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: false, strict: true });
  } catch (e) {
    throw new FlagError((e as Error).message.split("\n")[0].replace(/\. To specify a positional argument.*$/, ""));
  }
  const values: Record<string, string | number | boolean | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const flagValue = (parsed.values as Record<string, string | boolean | undefined>)[name];
    const envVar = envName(name, spec);
    if (flagValue !== undefined) values[name] = convert(name, spec, flagValue, `--${name}`);
    else if (env(envVar) !== undefined && env(envVar) !== "") {
      values[name] = convert(name, spec, env(envVar)!, `${envVar}`);
    } else values[name] = spec.default;
  }
  const http = typeof values.http === "string" ? parseHostPort(values.http, "--http") : undefined;
  let trustedProxies: TrustedProxies | undefined;
  if (typeof values["trusted-proxy"] === "string") {
    const source = (parsed.values as Record<string, unknown>)["trusted-proxy"] !== undefined
      ? "--trusted-proxy"
      : "PTC_TRUSTED_PROXY";
    if (!http) throw new FlagError(`${source}: only applies to the HTTP face; add --http HOST:PORT`);
    try {
      trustedProxies = parseTrustedProxies(list(values["trusted-proxy"]));
    } catch (e) {
      throw new FlagError(`${source}: ${(e as Error).message}`);
    }
    if (trustedProxies.ranges.length === 0) throw new FlagError(`${source}: must name at least one CIDR`);
  }
  return {
    upstreamsConfig: values["upstreams-config"] as string | undefined,
    http,
    httpAuthTokenFile: values["http-auth-token-file"] as string | undefined,
    allowedHosts: list(values["allowed-hosts"]),
    allowedOrigins: list(values["allowed-origins"]),
    ...(trustedProxies ? { trustedProxies } : {}),
    responseProfile: values["response-profile"] as ResponseProfile,
    sessions: values.sessions as boolean,
    introspection: values.introspection as boolean,
    readOnly: values["read-only"] as boolean,
    allowWrites: values["allow-writes"] as boolean,
    approveWrites: values["approve-writes"] as boolean,
    approvalTimeoutMs: values["approval-timeout-ms"] as number,
    ...(values["catalog-mode"] !== undefined
      ? { catalogMode: values["catalog-mode"] as "auto" | "inline" | "lazy" }
      : {}),
    maxConcurrentCalls: values["max-concurrent-calls"] as number,
    maxProgramBytes: values["max-program-bytes"] as number,
    maxContextBytes: values["max-context-bytes"] as number,
    programTimeoutMs: values["program-timeout-ms"] as number,
    ...(values["max-tool-calls"] !== undefined ? { maxToolCalls: values["max-tool-calls"] as number } : {}),
    ...(values["max-catalog-ops"] !== undefined ? { maxCatalogOps: values["max-catalog-ops"] as number } : {}),
    maxSessions: values["max-sessions"] as number,
    maxSessionsPerOwner: values["max-sessions-per-owner"] as number,
    sessionTtlMs: values["session-ttl-ms"] as number,
    sessionIdleMs: values["session-idle-ms"] as number,
    maxBodyBytes: values["max-body-bytes"] as number,
    sandboxHeapMb: values["sandbox-heap-mb"] as number,
    bodyTimeoutMs: values["body-timeout-ms"] as number,
    maxOpenRequests: values["max-open-requests"] as number,
    maxConnections: values["max-connections"] as number,
    sessionParkMs: values["session-park-ms"] as number,
    sessionMemoryBudgetMb: values["session-memory-budget-mb"] as number,
    headerTimeoutMs: values["header-timeout-ms"] as number,
    // --- audit trail ---
    ...(typeof values["audit-log"] === "string" ? { auditLog: values["audit-log"] } : {}),
    ...(typeof values.view === "string" ? { view: parseHostPort(values.view, "--view") } : {}),
    viewAllPrograms: values["view-all-programs"] as boolean,
    ...recordReplayOption(values),
  };
}
