/**
 * The `mcp_http` transport: an MCP server over Streamable HTTP — or, by the MCP spec's backwards-compatibility
 * procedure, over the legacy HTTP+SSE transport (`protocol.ts`, `sse.ts`) — spoken to with the official SDK v2 client
 * through ptc's guarded fetch (auth/static headers, timeouts, byte caps, closed connection diagnostics).
 * @module
 */
import type { PermissionNeeds, Transport, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { startMcpUpstream } from "../mcp_common/upstream.ts";
import { type McpHttpConfig, mcpHttpSchema, parseHttpConfig } from "./config.ts";
import { makeWireConnector, type Wire } from "./protocol.ts";
import { publicEndpoint } from "../http_common/endpoint.ts";

export type { McpHttpConfig } from "./config.ts";

/** Reconnects after an HTTP+SSE event stream closed (Streamable HTTP connections never close on their own). */
const STREAM_RESTART = { initialBackoffMs: 250, maxBackoffMs: 30_000, maxAttempts: 8, lost: "its event stream closed" };

async function start(config: McpHttpConfig, deps: TransportDeps): Promise<Upstream> {
  const connectWire = makeWireConnector(config, deps);
  let wire: Wire | undefined;
  const connect = async () => {
    const conn = await connectWire();
    wire = conn.wire;
    return conn;
  };
  return await startMcpUpstream({
    transportName: "mcp_http",
    deps,
    connect,
    config,
    restart: STREAM_RESTART,
    extraDiagnostics: () => ({
      origin: config.insecure ? "http (insecure)" : "https",
      protocol: config.protocolSetting,
      ...(wire ? { wire } : {}),
    }),
  });
}

/** Permissions: `--allow-net=<host:port>` of the endpoint. */
function permissions(config: McpHttpConfig): PermissionNeeds {
  return { net: [config.hostPort], read: [], env: [], run: [] };
}

const transport: Transport<McpHttpConfig> = {
  name: "mcp_http",
  summary: "an MCP server over HTTP (Streamable HTTP or legacy SSE)",
  formerNames: ["http"],
  configSchema: mcpHttpSchema,
  parseConfig: parseHttpConfig,
  permissions,
  start,
  endpoint: (config) => publicEndpoint({ url: config.url }),
};

export default transport;
