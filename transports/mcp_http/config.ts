/**
 * `mcp_http` upstream config: `url` (HTTPS by default; `allow_insecure_http`, or `allow_insecure_loopback` for a
 * literal 127.0.0.1 / [::1] without credentials), `auth` and `static_headers` exactly as for OpenAPI (shared
 * `transports/http_common/config.ts`), `connect_timeout_ms`, plus the shared MCP keys.
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

/** Parsed `mcp_http` config. */
export interface McpHttpConfig extends McpCommonConfig, HttpCommonConfig {
  upstreamName: string;
  /** Bound on the wait for response headers. */
  connectTimeoutMs: number;
}

const KEYS = [
  ...COMMON_KEYS,
  "url",
  "auth",
  "static_headers",
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
    ...httpCommonSchemaProperties({ urlKey: "url", loopbackFlag: true }),
    connect_timeout_ms: { type: "integer", minimum: 1, description: "Bound on the wait for response headers (5000)." },
  },
  required: ["transport", "url"],
};

/** Parse and check an `mcp_http` entry; every problem names its key path. */
export function parseHttpConfig(raw: JsonObject, ctx: ConfigContext): McpHttpConfig | ConfigError[] {
  const errors: ConfigError[] = [];
  unknownKeys(raw, KEYS, ctx.path, errors);
  const common = parseMcpCommon(raw, ctx.path, errors);
  const connectTimeoutMs = posInt(raw, "connect_timeout_ms", ctx.path, 5000, errors, 600_000);
  const http = parseHttpCommon(raw, ctx, { urlKey: "url", loopbackFlag: true });
  if (Array.isArray(http)) errors.push(...http);
  if (errors.length > 0 || Array.isArray(http)) return errors;
  return { ...common, ...http, upstreamName: ctx.upstreamName, connectTimeoutMs };
}
