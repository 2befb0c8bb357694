/**
 * The `mcp_http` transport: an MCP server over Streamable HTTP — or, by the MCP spec's backwards-compatibility
 * procedure, over the legacy HTTP+SSE transport (`protocol.ts`, `sse.ts`) — spoken to with the official SDK v2 client
 * through ptc's guarded fetch (auth/static headers, timeouts, byte caps, closed connection diagnostics).
 * @module
 */
import type { PermissionNeeds, Transport, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { McpWireFailure } from "../mcp_common/errors.ts";
import { startMcpUpstream } from "../mcp_common/upstream.ts";
import { type McpHttpConfig, mcpHttpSchema, parseHttpConfig } from "./config.ts";
import { makeWireConnector, type Wire } from "./protocol.ts";
import { publicEndpoint } from "../http_common/endpoint.ts";
import { withCaFile } from "../http_common/tls.ts";
import { oauthAuthProvider, oauthPermissions } from "../http_common/oauth/mod.ts";

export type { McpHttpConfig } from "./config.ts";

async function start(config: McpHttpConfig, given: TransportDeps): Promise<Upstream> {
  const deps = await withCaFile(given, config.caFile, `upstreams.${given.upstreamName}.ca_file`);
  // one OAuth session for the upstream, whichever wire it speaks: both SDK transports call token() before each
  // request and onUnauthorized() after a 401
  const authProvider = config.oauth
    ? oauthAuthProvider(
      config.oauth,
      config.url,
      deps,
      config.requestTimeoutMs,
      (m, login) => new McpWireFailure(login ? "login_required" : "credential_failed", m),
    )
    : undefined;
  const connectWire = makeWireConnector(config, deps, authProvider);
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
    // An HTTP+SSE event stream that closes ends the connection (the runtime reconnects with the upstream's backoff);
    // Streamable HTTP connections never close on their own.
    closeReason: () => wire === "sse" ? "its event stream closed" : "the connection to the server closed",
    extraDiagnostics: () => ({
      origin: config.insecure ? "http (insecure)" : "https",
      protocol: config.protocolSetting,
      ...(wire ? { wire } : {}),
    }),
  });
}

/** Permissions: `--allow-net=<host:port>` of the endpoint, plus the token file and authorization server with OAuth. */
function permissions(config: McpHttpConfig): PermissionNeeds {
  const own: PermissionNeeds = { net: [config.hostPort], read: config.caFile ? [config.caFile] : [], env: [], run: [] };
  return config.oauth ? oauthPermissions(config.oauth, own) : own;
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
