/**
 * Config keys shared by the MCP transports (`protocol`, timeouts, caps), parsed with key-path errors.
 * @module
 */
import type { ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { joinKey } from "../../src/upstream/messages.ts";
import { parseToolMap, type ToolMap, toolMapSchema } from "./tool_map.ts";

/** The per-upstream `protocol` setting. */
export type ProtocolMode = "auto" | "2026-07-28" | "legacy";

/** The shared MCP settings of one upstream. */
export interface McpCommonConfig {
  protocol: ProtocolMode;
  /** Bound on spawn/connect + handshake (probe included) and on the first `tools/list`. */
  startTimeoutMs: number;
  /** Upstream ceiling on one call's duration (the runtime's call context may be shorter). */
  requestTimeoutMs: number;
  /** Hard cap on one message from the server (calls use the smaller of this and the run cap). */
  maxResponseBytes: number;
  /** Most tools accepted from the server. */
  maxTools: number;
  /** Most `tools/list` pages followed. */
  maxListPages: number;
  /** The operator's `tools` mapping; absent: every server tool, effect from its annotations. */
  tools?: ToolMap;
  /** `binary_content`: image, audio and blob content reaches programs as a size summary, or also as base64 data. */
  binaryContent: "summary" | "include";
}

/** Keys every MCP upstream accepts besides its transport-specific ones. */
export const COMMON_KEYS = [
  "transport",
  "description",
  "protocol",
  "start_timeout_ms",
  "request_timeout_ms",
  "max_response_bytes",
  "max_tools",
  "max_list_pages",
  "tools",
  "binary_content",
];

const PROTOCOLS = ["auto", "2026-07-28", "legacy"];

/** Read a positive integer (absent → default). */
export function posInt(
  raw: Record<string, unknown>,
  key: string,
  path: string,
  def: number,
  errors: ConfigError[],
  max = 2 ** 31,
): number {
  const v = raw[key];
  if (v === undefined || v === null) return def;
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0 || v > max) {
    errors.push({ path: joinKey(path, key), message: `must be a whole number between 1 and ${max}` });
    return def;
  }
  return v;
}

/** Parse the shared MCP keys. */
export function parseMcpCommon(raw: Record<string, unknown>, path: string, errors: ConfigError[]): McpCommonConfig {
  let protocol: ProtocolMode = "auto";
  const p = raw.protocol;
  if (p !== undefined && p !== null) {
    if (typeof p !== "string" || !PROTOCOLS.includes(p)) {
      errors.push({
        path: joinKey(path, "protocol"),
        message: `must be "auto" (probe server/discover, fall back to initialize), "2026-07-28" (modern only) ` +
          `or "legacy" (2025-11-25 initialize)`,
      });
    } else protocol = p as ProtocolMode;
  }
  return {
    protocol,
    startTimeoutMs: posInt(raw, "start_timeout_ms", path, 10_000, errors, 600_000),
    requestTimeoutMs: posInt(raw, "request_timeout_ms", path, 30_000, errors, 3_600_000),
    maxResponseBytes: posInt(raw, "max_response_bytes", path, 2 * 1024 * 1024, errors, 512 * 1024 * 1024),
    maxTools: posInt(raw, "max_tools", path, 1000, errors, 100_000),
    maxListPages: posInt(raw, "max_list_pages", path, 64, errors, 10_000),
    binaryContent: binaryContent(raw.binary_content, path, errors),
    ...optionalMap(parseToolMap(raw.tools, path, errors)),
  };
}

function binaryContent(v: unknown, path: string, errors: ConfigError[]): "summary" | "include" {
  if (v === undefined || v === null || v === "summary") return "summary";
  if (v === "include") return "include";
  errors.push({
    path: joinKey(path, "binary_content"),
    message: 'must be "summary" (images, audio and blobs as {type, mime_type, bytes}) or "include" (their base64 ' +
      "data too, within the byte caps)",
  });
  return "summary";
}

function optionalMap(tools: ToolMap | undefined): { tools?: ToolMap } {
  return tools ? { tools } : {};
}

/** JSON-Schema properties of the shared keys. */
export const mcpCommonSchemaProperties: Record<string, JsonSchema> = {
  description: { type: "string", description: "What this server is for (shown in discovery)." },
  protocol: {
    enum: PROTOCOLS,
    description: 'MCP revision: "auto" (default: probe 2026-07-28 server/discover, fall back to 2025-11-25 ' +
      'initialize), "2026-07-28" (modern only) or "legacy".',
  },
  start_timeout_ms: { type: "integer", minimum: 1, description: "Bound on start + handshake (default 10000)." },
  request_timeout_ms: { type: "integer", minimum: 1, description: "Ceiling on one call (default 30000)." },
  max_response_bytes: { type: "integer", minimum: 1, description: "Cap on one server message (default 2 MiB)." },
  max_tools: { type: "integer", minimum: 1, description: "Most tools accepted from the server (default 1000)." },
  max_list_pages: { type: "integer", minimum: 1, description: "Most tools/list pages followed (default 64)." },
  tools: toolMapSchema,
  binary_content: {
    enum: ["summary", "include"],
    description: 'Image, audio and blob content: "summary" (default: {type, mime_type, bytes}, no data) or "include" ' +
      "(the base64 data too, within the byte caps).",
  },
};
