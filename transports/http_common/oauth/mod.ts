/**
 * OAuth 2.1 for HTTP upstreams, as the transports use it: the SDK `AuthProvider` an `mcp_http` upstream hands its
 * Streamable HTTP client (`token()` before every request, `onUnauthorized()` after a 401, then one retry), the
 * `Authorization` header an OpenAPI upstream adds, and the Deno permissions an `oauth2` emitter adds (its token
 * file, read and written; the authorization server's host from the config and from the token file).
 *
 * The room: `config.ts` (the emitter's keys), `token_file.ts` (the 0600 file), `fetch.ts` (guarded exchanges),
 * `session.ts` (tokens, refresh, client credentials), `login.ts` (the interactive authorization code grant).
 * @module
 */
import type { AuthProvider } from "@modelcontextprotocol/client";
import type { PermissionNeeds, TransportDeps } from "../../../src/upstream/types.ts";
import type { OAuthConfig } from "./config.ts";
import { oauthFetch } from "./fetch.ts";
import { OAuthLoginRequired, OAuthSession } from "./session.ts";
import { recordedHosts, tempPathOf } from "./token_file.ts";
import { hostPortOf } from "../config.ts";

export type { OAuthConfig } from "./config.ts";
export { OAuthFailure, OAuthLoginRequired, OAuthSession } from "./session.ts";

/** The session of one upstream, its OAuth exchanges bounded by `timeoutMs`. */
export function oauthSession(config: OAuthConfig, resourceUrl: string, deps: TransportDeps, timeoutMs: number) {
  return new OAuthSession(config, resourceUrl, {
    upstreamName: deps.upstreamName,
    credentials: deps.credentials,
    redactor: deps.redactor,
    fetchFn: oauthFetch(deps.fetch, timeoutMs),
  });
}

/**
 * The SDK auth provider of an `mcp_http` upstream. A failure is rethrown as `wrap(message, loginRequired)` (the
 * transport's own closed failure, which its callers answer `auth_failed`).
 */
export function oauthAuthProvider(
  config: OAuthConfig,
  resourceUrl: string,
  deps: TransportDeps,
  timeoutMs: number,
  wrap: (message: string, loginRequired: boolean) => Error,
): AuthProvider {
  const session = oauthSession(config, resourceUrl, deps, timeoutMs);
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      throw wrap(
        e instanceof Error ? deps.redactor.redact(e.message) : "OAuth failed",
        e instanceof OAuthLoginRequired,
      );
    }
  };
  return {
    token: () => guard(() => session.accessToken()),
    onUnauthorized: () => guard(() => session.unauthorized()),
  };
}

/** What an `oauth2` emitter adds to an upstream's permissions. */
export function oauthPermissions(config: OAuthConfig, own: PermissionNeeds): PermissionNeeds {
  const net = [...own.net];
  const read = [...own.read];
  const write = [...own.write ?? []];
  for (const u of [config.tokenUrl, config.authorizationServer]) if (u) net.push(hostPortOf(new URL(u)));
  if (config.tokenFile) {
    // a write goes through the temporary file, renamed over the token file: a rename reads and writes both
    read.push(config.tokenFile, tempPathOf(config.tokenFile));
    write.push(config.tokenFile, tempPathOf(config.tokenFile));
    net.push(...recordedHosts(config.tokenFile, hostPortOf));
  }
  return { ...own, net: [...new Set(net)], read, write };
}
