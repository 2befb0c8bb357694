/**
 * The `openapi` transport: a curated JSON adapter for services described by OpenAPI 3.0/3.1. The document is loaded
 * and compiled once at start; each included operation becomes one tool — a GET, or another method whose effect the
 * operator declares (a write, or a POST that is a safe query).
 * @module
 */
import { appendQuery } from "./request.ts";
import { hostPortOf } from "../http_common/config.ts";
import { publicEndpoint } from "../http_common/endpoint.ts";
import { connectTimeoutOf } from "../http_common/timeouts.ts";
import { withCaFile } from "../http_common/tls.ts";
import type { JsonObject } from "../../src/core/json.ts";
import {
  type ConfigContext,
  type ConfigError,
  type PermissionNeeds,
  type ToolEntry,
  type Transport,
  type TransportDeps,
  type Upstream,
  UpstreamStartError,
} from "../../src/upstream/types.ts";
import { compileDocument, type CompiledOperation, CompileError } from "./compiler.ts";
import { type OpenApiConfig, openapiConfigSchema, parseOpenApiConfig } from "./config.ts";
import { OperationExecutor } from "./executor.ts";
import { type LoadedDocument, loadSchemaFile, loadSchemaUrl, safeUrl, SchemaLoadError } from "./loader.ts";
import { isJsonFile, loadOverlays, OverlayError, YAML_ENV } from "./overlay.ts";
import { applyOverlays } from "./overlay_apply.ts";

import { oauthPermissions } from "../http_common/oauth/mod.ts";

export type { OpenApiConfig } from "./config.ts";

/** Load the document of a config (file or URL). Throws UpstreamStartError with a one-line message. */
export async function loadDocument(config: OpenApiConfig, deps: TransportDeps): Promise<LoadedDocument> {
  const prefix = `upstream ${config.upstreamName}`;
  try {
    if (config.schemaFile) return await loadSchemaFile(config.schemaFile, config.schemaMaxBytes);
    let url = config.schemaUrl!;
    // Credentials go to the schema URL only when it is on base_url's origin.
    const sameOrigin = new URL(url).origin === config.http.origin;
    const headers: Record<string, string> = {};
    if (sameOrigin) {
      for (const [name, value] of config.http.staticHeaders) headers[name] = value;
      Object.assign(headers, await deps.credentials.authHeaders(config.http.auth));
      // query API keys too (messages show the schema URL without its query: loader.ts safeUrl)
      url = appendQuery(url, await deps.credentials.authQuery?.(config.http.auth) ?? []);
    }
    return await loadSchemaUrl(url, {
      maxBytes: config.schemaMaxBytes,
      timeoutMs: Math.min(config.requestTimeoutMs, deps.limits.callTimeoutMs || config.requestTimeoutMs),
      connectTimeoutMs: connectTimeoutOf(config.connectTimeoutMs, deps),
      headers,
      fetch: deps.fetch,
    });
  } catch (error) {
    if (error instanceof SchemaLoadError) {
      throw new UpstreamStartError(error.code, deps.redactor.redact(`${prefix}: ${error.message}`), loadHint(error));
    }
    const why = error instanceof Error ? error.message : String(error);
    throw new UpstreamStartError("schema_load_failed", deps.redactor.redact(`${prefix}: ${why}`));
  }
}

/**
 * Read the config's overlays and apply them, in order, to the loaded document (changed in place); returns the
 * warnings. Throws UpstreamStartError naming the overlay file, the action and the target.
 */
export async function overlayDocument(config: OpenApiConfig, deps: TransportDeps, loaded: LoadedDocument) {
  try {
    return applyOverlays(loaded.doc, await loadOverlays(config.overlays), loaded.version);
  } catch (error) {
    if (!(error instanceof OverlayError)) throw error;
    const lines = error.message.split("\n").map((line) => `upstream ${config.upstreamName}: ${line}`);
    throw new UpstreamStartError(
      error.code,
      deps.redactor.redact(lines.join("\n")),
      error.code === "overlay_unreadable"
        ? "check overlays (relative paths resolve against the config file's folder) and --allow-read"
        : undefined,
    );
  }
}

/** Start an upstream from a parsed config: load, apply the overlays, compile, and return the live upstream. */
export async function startOpenApi(config: OpenApiConfig, given: TransportDeps): Promise<Upstream> {
  const started = performance.now();
  const deps = await withCaFile(given, config.http.caFile, `upstreams.${given.upstreamName}.ca_file`);
  const loaded = await loadDocument(config, deps);
  const overlayWarnings = await overlayDocument(config, deps, loaded);
  // the runtime prefixes log lines with the upstream name
  for (const w of overlayWarnings) deps.log(`warning: ${w}`);
  let operations: CompiledOperation[];
  let warnings: string[];
  try {
    ({ operations, warnings } = compileDocument(loaded.doc, loaded.version, {
      ...config,
      ...suppliedByAuth(config),
    }));
  } catch (error) {
    if (error instanceof CompileError) {
      const lines = error.problems.map((p) => `upstream ${config.upstreamName}: ${p}`);
      throw new UpstreamStartError("openapi_compile_failed", deps.redactor.redact(lines.join("\n")));
    }
    throw error;
  }
  for (const w of warnings) deps.log(w); // the runtime names the upstream
  const compileMs = Math.round(performance.now() - started);
  return createUpstream(config, deps, operations, {
    loaded,
    warnings: warnings.length,
    overlayWarnings: overlayWarnings.length,
    compileMs,
  });
}

function createUpstream(
  config: OpenApiConfig,
  deps: TransportDeps,
  operations: CompiledOperation[],
  facts: { loaded: LoadedDocument; warnings: number; overlayWarnings: number; compileMs: number },
): Upstream {
  const byName = new Map(operations.map((op) => [op.entry.name, op]));
  const entries: ToolEntry[] = operations.map((op) => op.entry);
  const executor = new OperationExecutor(config, deps);
  let stopped = false;
  return {
    listTools: () => entries,
    call(toolName, args, ctx) {
      if (stopped) {
        return Promise.resolve({ ok: false, reason: "upstream_unavailable", message: "the upstream is stopped" });
      }
      const op = byName.get(toolName);
      if (!op) {
        const known = [...byName.keys()].join(", ");
        return Promise.resolve({
          ok: false,
          reason: "upstream_error",
          message: `unknown tool "${toolName}" in upstream ${config.upstreamName} (tools: ${known})`,
        });
      }
      return executor.call(op, args, ctx);
    },
    diagnostics(): JsonObject {
      return {
        transport: "openapi",
        base_url: safeUrl(config.baseUrl),
        schema: config.schemaFile ? { file: config.schemaFile } : { url: safeUrl(config.schemaUrl!) },
        ...(config.overlays.length ? { overlays: config.overlays, overlay_warnings: facts.overlayWarnings } : {}),
        openapi_version: facts.loaded.version,
        document_bytes: facts.loaded.bytes,
        tools: entries.length,
        operations: operations.map((op) => op.id),
        compile_warnings: facts.warnings,
        compile_ms: facts.compileMs,
        request_timeout_ms: config.requestTimeoutMs,
        connect_timeout_ms: config.connectTimeoutMs,
        max_response_bytes: config.maxResponseBytes,
        stopped,
      };
    },
    stop() {
      stopped = true;
      return Promise.resolve();
    },
  };
}

/** What the config sends on every request: header names (lowercase), query parameter names, cookie names. */
export function suppliedByAuth(config: OpenApiConfig): {
  suppliedHeaders: Set<string>;
  suppliedQuery: Set<string>;
  suppliedCookies: Set<string>;
} {
  const suppliedHeaders = new Set(config.http.staticHeaders.map(([name]) => name));
  const suppliedQuery = new Set<string>();
  const suppliedCookies = new Set<string>();
  for (const e of config.http.auth) {
    if (e.scheme === "query") suppliedQuery.add(e.param!);
    else if (e.scheme === "cookie") suppliedCookies.add(e.cookie!);
    else suppliedHeaders.add(e.header ? e.header.toLowerCase() : "authorization");
  }
  // the oauth2 emitter sends Authorization: Bearer <access token>
  if (config.http.oauth) suppliedHeaders.add("authorization");
  return { suppliedHeaders, suppliedQuery, suppliedCookies };
}

/**
 * Deno permissions: the base URL's host:port, the schema file or the schema URL's host:port, the overlay files, and
 * the environment variables the YAML parser reads when a file — or the schema URL's path — does not end in `.json`
 * (a URL's answer is parsed as YAML unless it says JSON, which is not known before it is fetched).
 */
export function openapiPermissions(config: OpenApiConfig): PermissionNeeds {
  const net = new Set([config.http.hostPort]);
  const read: string[] = [...config.overlays];
  if (config.schemaFile) read.push(config.schemaFile);
  if (config.schemaUrl) net.add(hostPortOf(new URL(config.schemaUrl)));
  const yaml = (config.schemaUrl !== undefined && !isJsonFile(new URL(config.schemaUrl).pathname)) ||
    [...config.overlays, ...(config.schemaFile ? [config.schemaFile] : [])].some((f) => !isJsonFile(f));
  if (config.http.caFile) read.push(config.http.caFile);
  const own: PermissionNeeds = { net: [...net], read, env: yaml ? [...YAML_ENV] : [], run: [] };
  return config.http.oauth ? oauthPermissions(config.http.oauth, own) : own;
}

function loadHint(error: SchemaLoadError): string | undefined {
  switch (error.code) {
    // schema_too_large / schema_response_too_large: the message already says to raise schema_max_bytes
    case "schema_unsupported_version":
      return "convert the document to OpenAPI 3.0 or 3.1";
    case "schema_unreadable":
      return "check schema_file (relative paths resolve against the config file's folder) and --allow-read";
    default:
      return undefined;
  }
}

/** The `openapi` transport. */
const openapiTransport: Transport<OpenApiConfig> = {
  name: "openapi",
  summary: "an HTTP API described by OpenAPI",
  configSchema: openapiConfigSchema,
  parseConfig: (raw: JsonObject, ctx: ConfigContext): OpenApiConfig | ConfigError[] => parseOpenApiConfig(raw, ctx),
  permissions: openapiPermissions,
  start: startOpenApi,
  endpoint: (config) => publicEndpoint({ baseUrl: config.baseUrl }),
};

export default openapiTransport;
