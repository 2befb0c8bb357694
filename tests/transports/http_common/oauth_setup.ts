/**
 * The OAuth test bench: a real authorization server (oidc-provider) and a protected MCP/REST server that verifies
 * tokens by introspection, both on loopback; a temporary folder for token files; and `loginWithBrowser`, which runs
 * ptc's login and plays the browser on the printed URL.
 * @module
 */
import {
  type AuthorizationServer,
  playBrowser,
  startAuthorizationServer,
} from "../../../fixtures/oauth/authorization_server.ts";
import { type ProtectedServer, startProtectedServer } from "../../../fixtures/oauth/protected_server.ts";
import { login, type LoginResult } from "../../../transports/http_common/oauth/login.ts";
import { oauthFetch } from "../../../transports/http_common/oauth/fetch.ts";
import type { OAuthConfig } from "../../../transports/http_common/oauth/config.ts";
import type { CredentialMaterializer, Redactor } from "../../../src/upstream/types.ts";
import type { TokenRecord } from "../../../transports/http_common/oauth/token_file.ts";

/** A running bench. */
export interface OAuthBench {
  as: AuthorizationServer;
  rs: ProtectedServer;
  dir: string;
  tokenFile: string;
  /** Read the token file as JSON. */
  record(): TokenRecord;
  close(): Promise<void>;
}

/** Start the authorization server and the protected server. */
export async function startBench(): Promise<OAuthBench> {
  const late: { rs?: ProtectedServer } = {};
  const as = await startAuthorizationServer({
    resources: () => late.rs ? [late.rs.mcpUrl, late.rs.sseUrl, late.rs.apiUrl] : [],
  });
  const rs = late.rs = await startProtectedServer({ issuer: as.issuer, introspector: as.introspector });
  const dir = await Deno.makeTempDir({ prefix: "ptc-oauth-" });
  const tokenFile = `${dir}/tokens.json`;
  return {
    as,
    rs,
    dir,
    tokenFile,
    record: () => JSON.parse(Deno.readTextFileSync(tokenFile)) as TokenRecord,
    close: async () => {
      await rs.close();
      await as.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Log in through ptc's login with the test as the browser. */
export async function loginWithBrowser(
  bench: OAuthBench,
  options: {
    config: OAuthConfig;
    credentials: CredentialMaterializer;
    redactor: Redactor;
    upstreamName?: string;
    /** The MCP endpoint to log in to (`bench.rs.mcpUrl` by default). */
    serverUrl?: string;
  },
): Promise<LoginResult & { authorizationUrl: URL }> {
  let shown: URL | undefined;
  let browsing: Promise<Response | Error> | undefined;
  const stop = new AbortController();
  const result = await login({
    upstreamName: options.upstreamName ?? "fx",
    serverUrl: options.serverUrl ?? bench.rs.mcpUrl,
    config: options.config,
    credentials: options.credentials,
    redactor: options.redactor,
    fetchFn: oauthFetch(fetch, 10_000),
    show: (url) => {
      shown = new URL(url);
      // a failure here shows as the login's own (no answer from the browser); it is rethrown after
      browsing = playBrowser(url, (u) => u.pathname === "/callback").catch((e: Error) => (stop.abort(), e));
    },
    timeoutMs: 20_000,
    signal: stop.signal,
  }).catch(async (e) => {
    const page = await browsing;
    throw page instanceof Error ? page : e;
  });
  const page = await browsing!;
  if (page instanceof Error) throw page;
  await page.body?.cancel();
  return { ...result, authorizationUrl: shown! };
}
