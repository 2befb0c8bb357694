/**
 * `mcp_http` upstream config: `url` (HTTPS by default; `allow_insecure_http`, or `allow_insecure_loopback` for a
 * literal 127.0.0.1 / [::1] without credentials), `auth` and `static_headers` exactly as for OpenAPI (shared
 * `transports/http_common/config.ts`), `connect_timeout_ms`, plus the shared MCP keys. `protocol` takes two more
 * values here, which pin the wire: `"streamable"` (Streamable HTTP only, era negotiated as under `"auto"`) and
 * `"sse"` (the legacy HTTP+SSE transport only, 2025-11-25 `initialize`).
 * @module
 */
import type { JsonObject } from "../../src/core/json.ts";
import type { ConfigContext, ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { type HttpCommonConfig, httpCommonSchemaProperties, parseHttpCommon } from "../http_common/config.ts";
import {
  COMMON_KEYS,
  type McpCommonConfig,
  mcpCommonSchemaProperties,
  parseMcpCommon,
  posInt,
} from "../mcp_common/config.ts";
import { unknownKeys } from "../../src/upstream/config_keys.ts";
import { joinKey } from "../../src/upstream/messages.ts";

/**
 * Which HTTP wire an upstream may speak: `auto` tries Streamable HTTP and falls back to HTTP+SSE on a 400/404/405
 * (the MCP spec's backwards-compatibility procedure); `streamable` and `sse` pin one.
 */
export type HttpWireMode = "auto" | "streamable" | "sse";

/** Parsed `mcp_http` config. */
export interface McpHttpConfig extends McpCommonConfig, HttpCommonConfig {
  upstreamName: string;
  /** Bound on the wait for response headers. */
  connectTimeoutMs: number;
  /** The wires to try (from `protocol`). */
  wire: HttpWireMode;
  /** The `protocol` setting as written (`auto` when absent), for diagnostics. */
  protocolSetting: string;
}

const HTTP_PROTOCOLS = ["auto", "2026-07-28", "legacy", "streamable", "sse"];

const KEYS = [
  ...COMMON_KEYS,
  "url",
  "auth",
  "static_headers",
  "ca_file",
  "allow_insecure_http",
  "allow_insecure_auth",
  "allow_insecure_loopback",
  "connect_timeout_ms",
];

/** JSON Schema of an `mcp_http` upstream entry. */
export const mcpHttpSchema: JsonSchema = {
  type: "object",
  properties: {
    transport: { const: "mcp_http" },
    ...mcpCommonSchemaProperties,
    protocol: {
      enum: HTTP_PROTOCOLS,
      description: 'MCP revision and wire: "auto" (default: Streamable HTTP, probing 2026-07-28 then 2025-11-25, ' +
        'falling back to the legacy HTTP+SSE transport on HTTP 400/404/405), "2026-07-28" (modern only), "legacy" ' +
        '(2025-11-25 initialize, Streamable HTTP then HTTP+SSE), "streamable" (Streamable HTTP only) or "sse" ' +
        "(HTTP+SSE only).",
    },
    ...httpCommonSchemaProperties({ urlKey: "url", loopbackFlag: true }),
    connect_timeout_ms: { type: "integer", minimum: 1, description: "Bound on the wait for response headers (5000)." },
  },
  required: ["transport", "url"],
};

/** Parse and check an `mcp_http` entry; every problem names its key path. */
export function parseHttpConfig(raw: JsonObject, ctx: ConfigContext): McpHttpConfig | ConfigError[] {
  const errors: ConfigError[] = [];
  unknownKeys(raw, KEYS, ctx.path, errors);
  const p = raw.protocol;
  let wire: HttpWireMode = "auto";
  let era: unknown = p;
  if (p !== undefined && p !== null && (typeof p !== "string" || !HTTP_PROTOCOLS.includes(p))) {
    errors.push({
      path: joinKey(ctx.path, "protocol"),
      message: `must be "auto" (Streamable HTTP, falling back to HTTP+SSE), "2026-07-28" (modern only), "legacy" ` +
        `(2025-11-25 initialize), "streamable" (Streamable HTTP only) or "sse" (the legacy HTTP+SSE transport only)`,
    });
    era = undefined;
  } else if (p === "sse") {
    wire = "sse";
    era = "legacy";
  } else if (p === "streamable" || p === "2026-07-28") {
    wire = "streamable";
    era = p === "streamable" ? "auto" : p;
  }
  const common = parseMcpCommon({ ...raw, protocol: era }, ctx.path, errors);
  const connectTimeoutMs = posInt(raw, "connect_timeout_ms", ctx.path, 5000, errors, 600_000);
  const http = parseHttpCommon(raw, ctx, { urlKey: "url", loopbackFlag: true });
  if (Array.isArray(http)) errors.push(...http);
  if (errors.length > 0 || Array.isArray(http)) return errors;
  const protocolSetting = typeof p === "string" ? p : "auto";
  return { ...common, ...http, upstreamName: ctx.upstreamName, connectTimeoutMs, wire, protocolSetting };
}
