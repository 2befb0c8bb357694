/**
 * The HTTP face's settings that come straight from `ptc mcp`'s flags, shared by the working server and the one that
 * reports a start failure, so both listen and guard the same way.
 * @module
 */
import type { McpOptions } from "./mcp_flags.ts";

/** `startHttpFace` options taken from the flags (the caller adds what depends on the running server). */
export function httpFaceSettings(
  options: McpOptions & { http: NonNullable<McpOptions["http"]> },
  authTokens: string[] | undefined,
) {
  return {
    hostname: options.http.hostname,
    port: options.http.port,
    authTokens,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    maxBodyBytes: options.maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs,
    maxOpenRequests: options.maxOpenRequests,
    maxConnections: options.maxConnections,
    headerTimeoutMs: options.headerTimeoutMs,
    // A large body is read only while an evaluation permit could take it: at most that many at once.
    maxLargeBodyReads: options.maxConcurrentCalls,
    trustedProxies: options.trustedProxies,
  };
}
