/**
 * Loading the upstreams config: JSONC text → structural check against the published schema → semantic rules
 * (credentials, each transport's `parseConfig`). Every problem is a ConfigError naming its key path; callers print
 * one line per problem and exit 2 before anything starts.
 * @module
 */
import { parse as parseJsonc, type ParseError, printParseErrorCode } from "jsonc-parser";
import { duplicateKeys } from "./duplicate_keys.ts";
import { dirname, resolve } from "node:path";
import type { JsonObject } from "../core/json.ts";
import type { ConfigContext, ConfigError } from "./types.ts";
import { type CredentialSpec, parseCredentials, type SchemeHint } from "./credentials.ts";
import {
  DEFAULT_CATALOG,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_RUN_LIMITS,
  topLevelSchema,
  transportEntrySchema,
  UPSTREAM_NAME_PATTERN,
} from "./config_schema.ts";
import { checkAgainstSchema } from "./schema_check.ts";
import { didYouMean } from "../core/suggest.ts";
import { formatConfigError, joinKey } from "./messages.ts";
import { reservedNameProblem } from "./reserved_names.ts";
import { defaultRegistry, type TransportRegistry } from "./registry.ts";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff.ts";
export {
  ALLOW_WRITES_ENV,
  APPROVE_WRITES_ENV,
  CONFIG_ENV,
  type ConfigLocation,
  configLookupEnv,
  defaultConfigCandidates,
  DISCOVERY_ENV,
  locateConfig,
  NO_CONFIG,
  processAllowsWrites,
  processApprovesWrites,
  processReadOnly,
  READ_ONLY_ENV,
  resolveConfigPath,
} from "./config_location.ts";

/** Per-run budgets (resolved defaults). */
export interface RunLimits {
  maxToolCalls: number;
  /** Calls to write tools per run (`max_write_calls`). */
  maxWriteCalls: number;
  maxCatalogOps: number;
  callTimeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  maxCatalogResultBytes: number;
}

/** Catalog exposure settings. */
export interface CatalogSettings {
  exposure: "auto" | "inline" | "lazy";
  inlineMaxChars: number;
  inlineMaxTools: number;
}

/** When an upstream starts: on its first use, or in the background right after ptc starts. */
export type StartMode = "first_use" | "background";

/** Keys every upstream entry has whatever its transport: read here, never handed to the transport. */
const COMMON_KEYS = [
  "allow_writes",
  "doctor_probe",
  "start",
  "max_concurrent_requests",
  "reconnect_backoff_ms",
  "reconnect_max_backoff_ms",
] as const;

/** One configured upstream after its transport's parseConfig. */
export interface UpstreamSpec {
  name: string;
  transport: string;
  description: string;
  /**
   * `allow_writes` on this upstream, when it is set: its config half of the write gate. An explicit `false` wins over
   * a top-level `true` (the narrower setting); unset, the top level decides (`configAllowsWrites`).
   */
  allowWrites?: boolean;
  /** `start` of this upstream, else the top-level `start`; unset: the face decides (RuntimeOptions.start). */
  start?: StartMode;
  /** `max_concurrent_requests` (default 8). */
  maxConcurrentRequests: number;
  /** `reconnect_backoff_ms` / `reconnect_max_backoff_ms`. */
  backoff: BackoffPolicy;
  /**
   * `doctor_probe`: the read tool (and its arguments) `ptc doctor --connect` calls to prove the credentials work; no
   * face calls it otherwise.
   */
  doctorProbe?: { tool: string; arguments: JsonObject };
  /** The transport's typed config (opaque here). */
  config: unknown;
}

/** A loaded, validated config. */
export interface PtcConfig {
  /** Absolute path of the config file, if it came from one. */
  file?: string;
  configDir: string;
  credentials: Map<string, CredentialSpec>;
  upstreams: UpstreamSpec[];
  /** Operator library files: as the config wrote them and resolved against the config's folder. */
  libraries: { file: string; path: string }[];
  readOnly: boolean;
  /** Top-level `allow_writes`: the config half of the write gate, for every upstream. */
  allowWrites?: boolean;
  /** Top-level `approve_writes`: every write waits for a person's approval (either this or `--approve-writes`). */
  approveWrites?: boolean;
  limits: RunLimits;
  catalog: CatalogSettings;
  /** Non-fatal notes (e.g. literal secrets). */
  warnings: string[];
}

/** Options of config parsing. */
export interface ConfigOptions {
  /** Where transports are looked up (default: the process registry). */
  registry?: TransportRegistry;
  /** Force read-only mode on (`--read-only`). */
  readOnly?: boolean;
  /** Label used in JSON syntax errors (the file name). */
  label?: string;
}

/** Thrown by `loadConfigOrThrow` with every problem. */
export class ConfigLoadError extends Error {
  constructor(readonly errors: ConfigError[]) {
    super(errors.map(formatConfigError).join("\n"));
    this.name = "ConfigLoadError";
  }
}

/** `doctor_probe` as the schema admits it: `{tool, arguments?}`. */
function probeOf(raw: unknown): { tool: string; arguments: JsonObject } {
  const p = raw as { tool: string; arguments?: JsonObject };
  return { tool: p.tool, arguments: p.arguments ?? {} };
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

function resolveLimits(raw: Record<string, unknown>): RunLimits {
  const n = (k: keyof typeof DEFAULT_RUN_LIMITS) =>
    typeof raw[k] === "number" ? raw[k] as number : DEFAULT_RUN_LIMITS[k];
  return {
    maxToolCalls: n("max_tool_calls"),
    maxWriteCalls: n("max_write_calls"),
    maxCatalogOps: n("max_catalog_ops"),
    callTimeoutMs: n("call_timeout_ms"),
    connectTimeoutMs: n("connect_timeout_ms"),
    maxResponseBytes: n("max_response_bytes"),
    maxCatalogResultBytes: n("max_catalog_result_bytes"),
  };
}

function resolveCatalog(raw: Record<string, unknown>): CatalogSettings {
  return {
    exposure: (raw.exposure as CatalogSettings["exposure"]) ?? DEFAULT_CATALOG.exposure,
    inlineMaxChars: (raw.inline_max_chars as number) ?? DEFAULT_CATALOG.inline_max_chars,
    inlineMaxTools: (raw.inline_max_tools as number) ?? DEFAULT_CATALOG.inline_max_tools,
  };
}

/** `"a" (what a is), "b" (…) or "c" (…)`: the registered transports, for a missing or non-string `transport`. */
function transportChoices(registry: TransportRegistry): string {
  const names = registry.list().map((t) => `"${t.name}"${t.summary ? ` (${t.summary})` : ""}`);
  if (names.length === 0) return "(no transports are registered)";
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

function checkTransportName(value: unknown, path: string, registry: TransportRegistry): ConfigError | undefined {
  if (value === undefined) return { path, message: `is required: write "transport": ${transportChoices(registry)}` };
  const renamed = registry.list().find((t) => typeof value === "string" && t.formerNames?.includes(value));
  if (renamed) return { path, message: `"${value}" is the old name; write "transport": "${renamed.name}"` };
  if (typeof value !== "string") return { path, message: `must be a string: ${transportChoices(registry)}` };
  if (!registry.get(value)) {
    const known = registry.names();
    return {
      path,
      message: `unsupported transport "${value}"${didYouMean(value, known)}; known: ${known.join(", ") || "(none)"}`,
    };
  }
  return undefined;
}

/** Values under `credentials` and `auth` may be secrets written in the wrong place: never echo them. */
function quietSecrets(e: ConfigError): ConfigError {
  if (/^credentials\b|\.auth\[|\.static_headers\b/.test(e.path)) {
    return { path: e.path, message: e.message.replace(/, got .*$/, "") };
  }
  return e;
}

/** Parse and validate config text. Returns the config or every problem found. */
export function parseConfigText(
  text: string,
  configDir: string,
  options: ConfigOptions = {},
): PtcConfig | ConfigError[] {
  const registry = options.registry ?? defaultRegistry;
  const label = options.label ?? "config";
  const syntax: ParseError[] = [];
  const root = parseJsonc(text, syntax, { allowTrailingComma: true, disallowComments: false });
  if (syntax.length > 0) {
    // The parser reports one error per enclosing value at the same spot (an unclosed `{ "a": {` gives two
    // CloseBraceExpected at the end): each problem is said once.
    const seen = new Map<string, ConfigError>();
    for (const e of syntax) {
      const { line, column } = lineCol(text, e.offset);
      const error = { path: `${label}:${line}:${column}`, message: `invalid JSONC (${printParseErrorCode(e.error)})` };
      seen.set(`${error.path} ${error.message}`, error);
    }
    return [...seen.values()].slice(0, 5);
  }
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    return [{ path: label, message: 'must be a JSON object like {"credentials": {}, "upstreams": {}}' }];
  }
  const duplicates = duplicateKeys(text);
  if (duplicates.length > 0) return duplicates;
  const doc = root as Record<string, unknown>;
  const errors = checkAgainstSchema(topLevelSchema(), doc, "");
  const credPrefix = "credentials";
  const credErrors = errors.some((e) => e.path === credPrefix || e.path.startsWith(`${credPrefix}.`));
  const creds = credErrors ? undefined : parseCredentials(doc.credentials, configDir);
  if (creds) errors.push(...creds.errors);
  const credentialNames = new Set(
    creds ? creds.specs.keys() : Object.keys(typeof doc.credentials === "object" && doc.credentials || {}),
  );
  const credentialHints = new Map<string, SchemeHint>();
  for (const spec of creds?.specs.values() ?? []) if (spec.schemeHint) credentialHints.set(spec.name, spec.schemeHint);
  const readOnly = options.readOnly === true || doc.read_only === true;

  const upstreams: UpstreamSpec[] = [];
  const rawUpstreams = doc.upstreams;
  if (rawUpstreams !== null && typeof rawUpstreams === "object" && !Array.isArray(rawUpstreams)) {
    for (const [name, entry] of Object.entries(rawUpstreams as Record<string, unknown>)) {
      const path = joinKey("upstreams", name);
      if (!new RegExp(UPSTREAM_NAME_PATTERN).test(name)) {
        errors.push({
          path,
          message: "upstream names must start with a letter and use only A-Z a-z 0-9 _ - (at most 64 characters)",
        });
        continue;
      }
      const reserved = reservedNameProblem(name);
      if (reserved !== undefined) {
        errors.push({ path, message: reserved });
        continue;
      }
      if (entry === null || typeof entry !== "object" || Array.isArray(entry)) continue; // reported by the schema
      const e = entry as Record<string, unknown>;
      const bad = checkTransportName(e.transport, joinKey(path, "transport"), registry);
      if (bad) {
        errors.push(bad);
        continue;
      }
      const transport = registry.get(e.transport as string)!;
      const structural = checkAgainstSchema(transportEntrySchema(transport), e, path);
      if (structural.length > 0) {
        errors.push(...structural);
        continue;
      }
      const ctx: ConfigContext = {
        upstreamName: name,
        path,
        configDir,
        credentialNames,
        credentialHints,
      };
      let parsed: unknown;
      try {
        // Keys every upstream has whatever its transport are read here; the transport gets the rest.
        const own = Object.fromEntries(
          Object.entries(e).filter(([k]) => !(COMMON_KEYS as readonly string[]).includes(k)),
        );
        parsed = transport.parseConfig(own as JsonObject, ctx);
      } catch (err) {
        errors.push({ path, message: `transport ${transport.name} failed to read this entry (${String(err)})` });
        continue;
      }
      if (Array.isArray(parsed)) {
        errors.push(...(parsed as ConfigError[]));
        continue;
      }
      const backoff = {
        initialMs: typeof e.reconnect_backoff_ms === "number" ? e.reconnect_backoff_ms : DEFAULT_BACKOFF.initialMs,
        maxMs: typeof e.reconnect_max_backoff_ms === "number" ? e.reconnect_max_backoff_ms : DEFAULT_BACKOFF.maxMs,
      };
      if (backoff.initialMs > backoff.maxMs) {
        errors.push({
          path: joinKey(
            path,
            e.reconnect_backoff_ms === undefined ? "reconnect_max_backoff_ms" : "reconnect_backoff_ms",
          ),
          message: `the first wait (reconnect_backoff_ms, ${backoff.initialMs}) is longer than the longest ` +
            `(reconnect_max_backoff_ms, ${backoff.maxMs})`,
        });
        continue;
      }
      upstreams.push({
        name,
        transport: transport.name,
        description: typeof e.description === "string" ? e.description : "",
        ...(typeof e.allow_writes === "boolean" ? { allowWrites: e.allow_writes } : {}),
        ...((e.start ?? doc.start) !== undefined ? { start: (e.start ?? doc.start) as StartMode } : {}),
        maxConcurrentRequests: typeof e.max_concurrent_requests === "number"
          ? e.max_concurrent_requests
          : DEFAULT_MAX_CONCURRENT_REQUESTS,
        backoff,
        ...(e.doctor_probe && typeof e.doctor_probe === "object" ? { doctorProbe: probeOf(e.doctor_probe) } : {}),
        config: parsed,
      });
    }
  }
  if (errors.length > 0) return errors.map(quietSecrets);
  const warnings = [...(creds?.warnings ?? [])];
  const used = new Set<string>();
  JSON.stringify(rawUpstreams, (k, v) => {
    if ((k === "binding" || k === "client_id_binding" || k === "client_secret_binding") && typeof v === "string") {
      used.add(v);
    }
    return v;
  });
  for (const name of credentialNames) {
    if (!used.has(name)) warnings.push(`credentials.${name}: declared but not used by any upstream auth`);
  }
  return {
    configDir,
    credentials: creds?.specs ?? new Map(),
    upstreams,
    libraries: ((doc.libraries ?? []) as string[]).map((file) => ({ file, path: resolve(configDir, file) })),
    readOnly,
    ...(doc.allow_writes === true ? { allowWrites: true } : {}),
    ...(doc.approve_writes === true ? { approveWrites: true } : {}),
    limits: resolveLimits((doc.limits ?? {}) as Record<string, unknown>),
    catalog: resolveCatalog((doc.catalog ?? {}) as Record<string, unknown>),
    warnings,
  };
}

/** Read and validate a config file. File problems become a single ConfigError naming the file. */
export async function loadConfigFile(file: string, options: ConfigOptions = {}): Promise<PtcConfig | ConfigError[]> {
  const abs = resolve(file);
  let text: string;
  try {
    text = await Deno.readTextFile(abs);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound
      ? "file not found"
      : e instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable")
      ? `no permission to read it (grant --allow-read=${abs})`
      : "cannot be read";
    return [{ path: abs, message: `upstreams config: ${why}` }];
  }
  const result = parseConfigText(text, dirname(abs), { ...options, label: options.label ?? abs });
  if (!Array.isArray(result)) result.file = abs;
  return result;
}

/** `loadConfigFile` that throws ConfigLoadError. */
export async function loadConfigOrThrow(file: string, options: ConfigOptions = {}): Promise<PtcConfig> {
  const result = await loadConfigFile(file, options);
  if (Array.isArray(result)) throw new ConfigLoadError(result);
  return result;
}
