/**
 * The `openapi` upstream entry: its JSON Schema (merged into the published config schema) and the semantic parse
 * into {@link OpenApiConfig}. Every problem is a ConfigError naming its key path.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { ConfigContext, ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { type HttpCommonConfig, httpCommonSchemaProperties, parseHttpCommon } from "../http_common/config.ts";
import { checkHttpUrl } from "../http_common/config.ts";
import { didYouMean } from "../../src/core/suggest.ts";
import { joinIndex, joinKey, unknownKeyHint } from "../../src/upstream/messages.ts";
import { unknownKeys } from "../../src/upstream/config_keys.ts";
import { paginationSchema } from "../../src/upstream/pagination.ts";
import { overlaysSchema, parseOverlays } from "./overlay_config.ts";

/** Defaults of the numeric settings. */
export const DEFAULTS = {
  request_timeout_ms: 30_000,
  connect_timeout_ms: 5_000,
  max_response_bytes: 2 * 1024 * 1024,
} as const;

/**
 * Default byte caps of the OpenAPI document: a local file is the operator's own and real vendor documents are large
 * (GitHub's is ~13 MB, Microsoft Graph's YAML more than 30 MB), a fetched one comes over the network and gets a
 * tighter bound.
 */
export const SCHEMA_MAX_BYTES = { file: 64 * 1024 * 1024, url: 16 * 1024 * 1024 } as const;

/** Per-operation operator settings (`operation_overrides.<operationId>`). */
export interface OperationOverride {
  name?: string;
  description?: string;
  default_args?: Record<string, unknown>;
  max_response_bytes?: number;
  result_path?: string;
  notes?: string;
  read_only?: boolean;
  /**
   * What the operation does, declared by the operator: `write` (any method; required to include POST, PUT, PATCH or
   * DELETE) or `read` (a GET, or a POST that is a safe query). The compiler checks it against the method.
   */
  effect?: "read" | "write";
  /** How the operation pages (checked against its parameters when the document is compiled). */
  pagination?: Record<string, unknown> | false;
}

/** A parsed `openapi` upstream. */
export interface OpenApiConfig {
  upstreamName: string;
  /** Key path of the entry, for messages (`upstreams.observatory`). */
  path: string;
  http: HttpCommonConfig;
  /** Normalized base URL without a trailing slash. */
  baseUrl: string;
  /** Absolute path (resolved against the config file's folder). */
  schemaFile?: string;
  schemaUrl?: string;
  includeOperations: string[];
  operationOverrides: Record<string, OperationOverride>;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  schemaMaxBytes: number;
  description: string;
  /** What to do when two operations produce one tool name (`conflicts`). */
  conflicts: "error" | "first_wins" | "skip";
  /** Longest tool description kept (`max_description_chars`). */
  maxDescriptionChars: number;
  /** Overlay files (absolute paths), applied in order to the document before compiling (`overlays`). */
  overlays: string[];
}

const OVERRIDE_KEYS = [
  "name",
  "description",
  "default_args",
  "max_response_bytes",
  "result_path",
  "notes",
  "read_only",
  "effect",
  "pagination",
];
const OWN_KEYS = [
  "transport",
  "description",
  "base_url",
  "schema_file",
  "schema_url",
  "include_operations",
  "operation_overrides",
  "auth",
  "static_headers",
  "ca_file",
  "allow_insecure_http",
  "allow_insecure_auth",
  "allow_insecure_loopback",
  "request_timeout_ms",
  "connect_timeout_ms",
  "max_response_bytes",
  "schema_max_bytes",
  "conflicts",
  "max_description_chars",
  "overlays",
];

const positiveInt = (description: string): JsonSchema => ({ type: "integer", minimum: 1, description });

/** JSON Schema of an `openapi` upstream entry. */
export const openapiConfigSchema: JsonSchema = {
  type: "object",
  description: "A JSON API described by an OpenAPI 3.0/3.1 document; the chosen operations become tools " +
    "(GETs, and other methods the operator declares with operation_overrides.<id>.effect).",
  properties: {
    transport: { const: "openapi" },
    description: { type: "string", description: "Shown in (tool/servers) and the catalog." },
    ...httpCommonSchemaProperties({ urlKey: "base_url", loopbackFlag: true }),
    schema_file: { type: "string", minLength: 1, description: "OpenAPI document (JSON or YAML), relative to config." },
    schema_url: { type: "string", minLength: 1, description: "HTTPS URL of the OpenAPI document (fetched at start)." },
    include_operations: {
      type: "array",
      minItems: 1,
      items: { type: "string", minLength: 1 },
      description: "operationIds (or derived ids like list-pets) to expose; nothing else is exposed.",
    },
    operation_overrides: {
      type: "object",
      description: "Per-operationId settings; they win over the document's x-ptc-* extensions.",
      additionalProperties: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, description: "Tool name (kebab-cased)." },
          description: { type: "string", description: "Tool description." },
          default_args: { type: "object", description: "Arguments applied when the program omits them." },
          max_response_bytes: positiveInt("Response cap for this operation (the smaller cap wins)."),
          result_path: { type: "string", minLength: 1, description: "Sub-value to return: a.b.0 or /a/b/0." },
          notes: { type: "string", description: "Operator notes shown by (meta 'srv/tool)." },
          read_only: { type: "boolean", description: "false marks the GET as having side effects." },
          effect: {
            enum: ["read", "write"],
            description: 'What the operation does: "write" includes a POST/PUT/PATCH/DELETE (or marks a GET as ' +
              'having side effects); "read" makes a POST a safe query. Writes pass the write gate.',
          },
          pagination: paginationSchema(
            "How the operation pages, for (tool/pages …); as x-ptc-pagination. false: it does not page (no inference).",
          ),
        },
        additionalProperties: false,
      },
    },
    request_timeout_ms: positiveInt("Whole-request timeout (default 30000)."),
    connect_timeout_ms: positiveInt("Time allowed to connect and receive the response headers (default 5000)."),
    max_response_bytes: positiveInt("Response byte cap, enforced while streaming (default 2 MiB)."),
    conflicts: {
      enum: ["error", "first_wins", "skip"],
      description: "Two operations with one tool name: error (default), keep the first included, or expose neither.",
    },
    max_description_chars: {
      type: "integer",
      minimum: 40,
      maximum: 20000,
      description: "Longest tool description kept (default 800).",
    },
    schema_max_bytes: positiveInt(
      "Byte cap of the OpenAPI document (default 64 MiB for schema_file, 16 MiB for schema_url).",
    ),
    overlays: overlaysSchema,
  },
  required: ["transport", "base_url", "include_operations"],
  additionalProperties: false,
};

/** Semantic parse of an `openapi` upstream entry. Returns every problem found. */
export function parseOpenApiConfig(raw: Record<string, unknown>, ctx: ConfigContext): OpenApiConfig | ConfigError[] {
  const errors: ConfigError[] = [];
  const key = (k: string) => joinKey(ctx.path, k);
  unknownKeys(raw, OWN_KEYS, ctx.path, errors);
  const http = parseHttpCommon(raw, ctx, { urlKey: "base_url", loopbackFlag: true });
  if (Array.isArray(http)) errors.push(...http);

  const hasFile = raw.schema_file !== undefined && raw.schema_file !== null;
  const hasUrl = raw.schema_url !== undefined && raw.schema_url !== null;
  let schemaFile: string | undefined;
  let schemaUrl: string | undefined;
  if (hasFile === hasUrl) {
    errors.push({
      path: ctx.path,
      message: hasFile
        ? "set only one of schema_file and schema_url"
        : "must set exactly one of schema_file (a local JSON/YAML document) or schema_url (https://…)",
    });
  } else if (hasFile) {
    if (typeof raw.schema_file !== "string" || raw.schema_file.trim() === "") {
      errors.push({ path: key("schema_file"), message: "must be a non-empty path string" });
    } else {
      schemaFile = isAbsolute(raw.schema_file) ? raw.schema_file : resolve(ctx.configDir, raw.schema_file);
    }
  } else {
    const insecure = raw.allow_insecure_http === true;
    const url = checkHttpUrl(raw.schema_url, key("schema_url"), {
      allowInsecureHttp: insecure,
      allowInsecureAuth: raw.allow_insecure_auth === true,
      allowInsecureLoopback: raw.allow_insecure_loopback === true,
      hasAuth: Array.isArray(raw.auth) && raw.auth.length > 0,
      allowQuery: true,
    });
    if (url instanceof URL) schemaUrl = url.href;
    else errors.push(url);
  }

  const includeOperations = parseInclude(raw.include_operations, key("include_operations"), errors);
  const operationOverrides = parseOverrides(raw.operation_overrides, key("operation_overrides"), errors);
  for (const id of Object.keys(operationOverrides)) {
    if (includeOperations.length > 0 && !includeOperations.includes(id)) {
      errors.push({
        path: joinKey(key("operation_overrides"), id),
        message: `"${id}" is not in include_operations${didYouMean(id, includeOperations)}`,
      });
    }
  }
  const num = (k: keyof typeof DEFAULTS) => positive(raw[k], key(k), DEFAULTS[k], errors);
  const requestTimeoutMs = num("request_timeout_ms");
  const connectTimeoutMs = num("connect_timeout_ms");
  const maxResponseBytes = num("max_response_bytes");
  const schemaMaxBytes = positive(
    raw.schema_max_bytes,
    key("schema_max_bytes"),
    hasUrl && !hasFile ? SCHEMA_MAX_BYTES.url : SCHEMA_MAX_BYTES.file,
    errors,
  );
  let description = "";
  if (raw.description !== undefined && raw.description !== null) {
    if (typeof raw.description === "string") description = raw.description;
    else errors.push({ path: key("description"), message: "must be a string" });
  }
  if (raw.conflicts !== undefined && !["error", "first_wins", "skip"].includes(raw.conflicts as string)) {
    errors.push({ path: key("conflicts"), message: 'must be "error", "first_wins" or "skip"' });
  }
  const mdc = raw.max_description_chars;
  if (mdc !== undefined && (!Number.isInteger(mdc) || (mdc as number) < 40 || (mdc as number) > 20000)) {
    errors.push({
      path: key("max_description_chars"),
      message: "must be a whole number from 40 to 20000 (default 800)",
    });
  }
  const overlays = parseOverlays(raw.overlays, key("overlays"), ctx.configDir, errors);
  if (errors.length > 0 || Array.isArray(http)) return errors;
  return {
    upstreamName: ctx.upstreamName,
    path: ctx.path,
    http,
    baseUrl: http.url.replace(/\/+$/, ""),
    schemaFile,
    schemaUrl,
    includeOperations,
    operationOverrides,
    requestTimeoutMs,
    connectTimeoutMs,
    maxResponseBytes,
    schemaMaxBytes,
    description,
    conflicts: (raw.conflicts ?? "error") as OpenApiConfig["conflicts"],
    maxDescriptionChars: (raw.max_description_chars ?? 800) as number,
    overlays,
  };
}

function parseInclude(raw: unknown, path: string, errors: ConfigError[]): string[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.push({
      path,
      message: 'is required: a non-empty list of operationIds to expose, e.g. ["list_traces", "get_trace"]',
    });
    return [];
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    if (typeof v !== "string" || v.trim() === "") {
      errors.push({ path: joinIndex(path, i), message: "must be a non-empty operationId string" });
    } else if (out.includes(v.trim())) {
      errors.push({ path: joinIndex(path, i), message: `"${v}" is listed twice` });
    } else out.push(v.trim());
  });
  return out;
}

function parseOverrides(raw: unknown, path: string, errors: ConfigError[]): Record<string, OperationOverride> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push({ path, message: 'must be an object keyed by operationId, e.g. {"list_traces": {"name": "traces"}}' });
    return {};
  }
  const out: Record<string, OperationOverride> = {};
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    const p = joinKey(path, id);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      errors.push({ path: p, message: "must be an object" });
      continue;
    }
    const o = value as Record<string, unknown>;
    const ov: OperationOverride = {};
    for (const [k, v] of Object.entries(o)) {
      const kp = joinKey(p, k);
      if (!OVERRIDE_KEYS.includes(k)) {
        errors.push({ path: kp, message: `unknown key${unknownKeyHint(k, OVERRIDE_KEYS)}` });
      } else if (k === "default_args") {
        if (v === null || typeof v !== "object" || Array.isArray(v)) {
          errors.push({ path: kp, message: "must be an object" });
        } else ov.default_args = v as Record<string, unknown>;
      } else if (k === "max_response_bytes") {
        if (!Number.isInteger(v) || (v as number) <= 0) {
          errors.push({ path: kp, message: "must be a positive integer" });
        } else ov.max_response_bytes = v as number;
      } else if (k === "pagination") {
        if (v !== false && (v === null || typeof v !== "object" || Array.isArray(v))) {
          errors.push({ path: kp, message: 'must be false or an object like {"style": "cursor", …}' });
        } else ov.pagination = v as Record<string, unknown> | false;
      } else if (k === "read_only") {
        if (typeof v !== "boolean") errors.push({ path: kp, message: "must be true or false" });
        else ov.read_only = v;
      } else if (k === "effect") {
        if (v !== "read" && v !== "write") errors.push({ path: kp, message: 'must be "read" or "write"' });
        else ov.effect = v;
      } else if (typeof v !== "string" || (k !== "description" && k !== "notes" && v.trim() === "")) {
        errors.push({ path: kp, message: "must be a non-empty string" });
      } else {
        ov[k as "name" | "description" | "result_path" | "notes"] = v;
      }
    }
    if (ov.effect !== undefined && ov.read_only !== undefined && (ov.effect === "read") !== ov.read_only) {
      errors.push({
        path: joinKey(p, "effect"),
        message: `"${ov.effect}" contradicts read_only: ${ov.read_only} in the same override; keep one of them`,
      });
    }
    out[id] = ov;
  }
  return out;
}

function positive(v: unknown, path: string, fallback: number, errors: ConfigError[]): number {
  if (v === undefined || v === null) return fallback;
  if (!Number.isInteger(v) || (v as number) <= 0) {
    errors.push({ path, message: `must be a positive integer (default ${fallback})` });
    return fallback;
  }
  return v as number;
}
