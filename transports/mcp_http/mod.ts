/**
 * The `mcp_http` transport: an MCP server over Streamable HTTP, spoken to with the official SDK v2 client through
 * ptc's guarded fetch (auth/static headers, timeouts, byte caps, closed connection diagnostics).
 * @module
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { PermissionNeeds, Transport, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { connectClient, ProbeTap } from "../mcp_common/session.ts";
import { McpWireFailure } from "../mcp_common/errors.ts";
import { startMcpUpstream } from "../mcp_common/upstream.ts";
import { type McpHttpConfig, mcpHttpSchema, parseHttpConfig } from "./config.ts";
import { makeMcpFetch } from "./fetch.ts";
import { publicEndpoint } from "../http_common/endpoint.ts";
import { oauthAuthProvider, oauthPermissions } from "../http_common/oauth/mod.ts";

export type { McpHttpConfig } from "./config.ts";

async function start(config: McpHttpConfig, deps: TransportDeps): Promise<Upstream> {
  const url = new URL(config.url);
  const authProvider = config.oauth
    ? oauthAuthProvider(
      config.oauth,
      config.url,
      deps,
      config.requestTimeoutMs,
      (m, login) => new McpWireFailure(login ? "login_required" : "credential_failed", m),
    )
    : undefined;
  const connect = () =>
    connectClient({
      ...config,
      cacheKey: JSON.stringify(["mcp_http", config.url]),
      makeTransport: () => {
        const tap = new ProbeTap();
        const transport = new StreamableHTTPClientTransport(url, {
          fetch: makeMcpFetch(config, deps, tap),
          ...(authProvider ? { authProvider } : {}),
        });
        return { transport, tap };
      },
    });
  return await startMcpUpstream({
    transportName: "mcp_http",
    deps,
    connect,
    config,
    extraDiagnostics: () => ({ origin: config.insecure ? "http (insecure)" : "https" }),
  });
}

/** Permissions: `--allow-net=<host:port>` of the endpoint, plus the token file and authorization server with OAuth. */
function permissions(config: McpHttpConfig): PermissionNeeds {
  const own: PermissionNeeds = { net: [config.hostPort], read: [], env: [], run: [] };
  return config.oauth ? oauthPermissions(config.oauth, own) : own;
}

const transport: Transport<McpHttpConfig> = {
  name: "mcp_http",
  summary: "an MCP server over Streamable HTTP",
  formerNames: ["http"],
  configSchema: mcpHttpSchema,
  parseConfig: parseHttpConfig,
  permissions,
  start,
  endpoint: (config) => publicEndpoint({ url: config.url }),
};

export default transport;
