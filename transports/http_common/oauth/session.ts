/**
 * One upstream's OAuth access token, as every face uses it: `accessToken()` before each request and
 * `unauthorized()` after a 401.
 *
 * - `authorization_code`: the token file is re-read on every use; an access token within a minute of its expiry is
 *   refreshed first (RFC 6749 §6, with the resource indicator of RFC 8707) and the new tokens written back; after a
 *   401 the refresh is forced. A refresh that fails — or no token file, or no refresh token — is an
 *   {@link OAuthLoginRequired} whose message says to run `ptc auth login NAME`. A refresh holds an exclusive lock
 *   of the token file, so another process refreshing the same file waits and then takes the new tokens from it.
 * - `client_credentials`: a token from the token endpoint (`token_url`, or the one the MCP server's protected
 *   resource metadata leads to), kept in memory until a minute before it expires or a 401.
 *
 * Every token and client secret is registered with the redactor before it is used. Concurrent callers share one
 * refresh.
 * @module
 */
import {
  discoverOAuthServerInfo,
  fetchToken,
  type OAuthClientProvider,
  type OAuthTokens,
  refreshAuthorization,
} from "@modelcontextprotocol/client";
import type { AuthorizationServerMetadata, FetchLike } from "@modelcontextprotocol/client";
import type { CredentialMaterializer, Redactor } from "../../../src/upstream/types.ts";
import type { OAuthConfig } from "./config.ts";
import { expiresAt, readTokenFile, TokenFileError, type TokenRecord, writeTokenFile } from "./token_file.ts";
import { OAuthWireError } from "./fetch.ts";

/** How long before its expiry an access token is replaced. */
export const REFRESH_MARGIN_MS = 60_000;

/** The upstream cannot get a token without a person logging in again; the message says how. */
export class OAuthLoginRequired extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthLoginRequired";
  }
}

/** Any other OAuth failure (the authorization server refused, could not be reached, a credential is missing). */
export class OAuthFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthFailure";
  }
}

/** What a session needs from the runtime. */
export interface OAuthSessionDeps {
  upstreamName: string;
  credentials: CredentialMaterializer;
  redactor: Redactor;
  /** A guarded fetch for the OAuth exchanges (`oauthFetch`). */
  fetchFn: FetchLike;
}

/** Register every secret of a token answer with the redactor. */
export function registerTokens(redactor: Redactor, tokens: OAuthTokens | undefined): void {
  if (!tokens) return;
  for (const t of [tokens.access_token, tokens.refresh_token, tokens.id_token]) {
    if (typeof t === "string" && t !== "") {
      redactor.register(t);
      redactor.register(`Bearer ${t}`);
    }
  }
}

/** Register a client's secret (a dynamically registered client has one) with the redactor. */
export function registerClient(redactor: Redactor, client: { client_secret?: string } | undefined): void {
  if (typeof client?.client_secret === "string" && client.client_secret !== "") redactor.register(client.client_secret);
}

/** Why an OAuth exchange failed, in a few words that carry no token: the OAuth error code or the wire failure. */
export function describeOAuthError(e: unknown, redactor: Redactor): string {
  if (e instanceof OAuthWireError || e instanceof TokenFileError || e instanceof OAuthFailure) {
    return redactor.redact(e.message);
  }
  const code = (e as { code?: unknown })?.code;
  if (typeof code === "string" && /^[a-z_]{1,64}$/.test(code)) return `the authorization server answered ${code}`;
  if (e instanceof Error && e.name === "CredentialError") return redactor.redact(e.message);
  return "the authorization server's answer was not usable";
}

/** The login hint every message ends with. */
export function loginHint(upstreamName: string): string {
  return `run \`ptc auth login ${upstreamName}\``;
}

/** The access token of one upstream (see the module doc). */
export class OAuthSession {
  #inflight: Promise<string> | undefined;
  #cached: { token: string; expiresAt?: number } | undefined;

  constructor(
    private readonly config: OAuthConfig,
    /** The protected resource: the MCP endpoint, or the OpenAPI base URL. */
    private readonly resourceUrl: string,
    private readonly deps: OAuthSessionDeps,
  ) {}

  /** A valid access token (refreshed or fetched first when needed). */
  async accessToken(): Promise<string> {
    if (this.config.grant === "client_credentials") {
      const c = this.#cached;
      if (c && !expiringSoon(c.expiresAt)) return c.token;
      return await this.#once(() => this.#clientCredentials());
    }
    const record = await this.#record();
    if (!expiringSoon(expiresAt(record))) return record.tokens!.access_token;
    return await this.#once(() => this.#refresh(record));
  }

  /** The server answered 401: get a new token (refresh, or a new client-credentials token). */
  async unauthorized(): Promise<void> {
    if (this.config.grant === "client_credentials") {
      this.#cached = undefined;
      await this.#once(() => this.#clientCredentials());
      return;
    }
    const record = await this.#record();
    await this.#once(() => this.#refresh(record));
  }

  #once(work: () => Promise<string>): Promise<string> {
    if (!this.#inflight) this.#inflight = work().finally(() => (this.#inflight = undefined));
    return this.#inflight;
  }

  #loginRequired(why: string): OAuthLoginRequired {
    return new OAuthLoginRequired(`${why}; ${loginHint(this.deps.upstreamName)}`);
  }

  async #record(): Promise<TokenRecord> {
    const path = this.config.tokenFile!;
    let record: TokenRecord | undefined;
    try {
      record = await readTokenFile(path);
    } catch (e) {
      throw new OAuthFailure(describeOAuthError(e, this.deps.redactor));
    }
    if (!record?.tokens?.access_token) throw this.#loginRequired(`not logged in (no tokens in ${path})`);
    if (record.server_url !== this.resourceUrl) {
      throw this.#loginRequired(`the tokens in ${path} are for another server`);
    }
    registerTokens(this.deps.redactor, record.tokens);
    registerClient(this.deps.redactor, record.client as { client_secret?: string });
    return record;
  }

  /**
   * Refresh under an exclusive lock of the token file, so two processes never spend one (rotating) refresh token: the
   * second waits, then finds the first one's tokens in the file and takes them.
   */
  async #refresh(stale: TokenRecord): Promise<string> {
    const lock = await lockTokenFile(this.config.tokenFile!);
    try {
      let record = stale;
      if (lock) {
        const current = await this.#record();
        if (current.tokens!.access_token !== stale.tokens!.access_token && !expiringSoon(expiresAt(current))) {
          return current.tokens!.access_token;
        }
        record = current;
      }
      return await this.#refreshNow(record);
    } finally {
      lock?.close();
    }
  }

  async #refreshNow(record: TokenRecord): Promise<string> {
    const refreshToken = record.tokens?.refresh_token;
    if (!refreshToken) throw this.#loginRequired("the access token expired and there is no refresh token");
    const discovery = record.discovery;
    if (!discovery || !record.client) throw this.#loginRequired("the token file names no authorization server");
    const pin = this.config.authorizationServer;
    if (pin && !sameIssuer(pin, record.issuer ?? discovery.authorizationServerUrl)) {
      throw this.#loginRequired(`the tokens were issued by another authorization server than ${pin}`);
    }
    let tokens: OAuthTokens;
    try {
      tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: record.client,
        refreshToken,
        resource: discovery.resourceMetadata?.resource ?? this.resourceUrl,
        fetchFn: this.deps.fetchFn,
      });
    } catch (e) {
      // another process may have refreshed first and rotated the refresh token: its tokens are in the file
      const again = await readTokenFile(this.config.tokenFile!).catch(() => undefined);
      const rotated = again?.tokens?.refresh_token;
      if (again?.tokens && rotated && rotated !== refreshToken && !expiringSoon(expiresAt(again))) {
        registerTokens(this.deps.redactor, again.tokens);
        return again.tokens.access_token;
      }
      if (e instanceof OAuthWireError) throw new OAuthFailure(`refreshing the token failed (${e.message})`);
      throw this.#loginRequired(`refreshing the token failed (${describeOAuthError(e, this.deps.redactor)})`);
    }
    registerTokens(this.deps.redactor, tokens);
    try {
      await writeTokenFile(this.config.tokenFile!, { ...record, tokens, obtained_at: Date.now() });
    } catch (e) {
      throw new OAuthFailure(describeOAuthError(e, this.deps.redactor));
    }
    return tokens.access_token;
  }

  async #clientCredentials(): Promise<string> {
    let clientId: string;
    let clientSecret: string;
    try {
      clientId = await this.deps.credentials.resolve(this.config.clientIdBinding!);
      clientSecret = await this.deps.credentials.resolve(this.config.clientSecretBinding!);
    } catch (e) {
      throw new OAuthFailure(describeOAuthError(e, this.deps.redactor));
    }
    this.deps.redactor.register(clientSecret);
    const scope = this.config.scopes.length ? this.config.scopes.join(" ") : undefined;
    try {
      const server = await this.#tokenServer();
      const provider = clientCredentialsProvider(clientId, clientSecret, scope);
      const tokens = await fetchToken(provider, server.url, {
        metadata: server.metadata,
        resource: server.resource,
        scope,
        fetchFn: this.deps.fetchFn,
      });
      registerTokens(this.deps.redactor, tokens);
      const expires = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : undefined;
      this.#cached = { token: tokens.access_token, expiresAt: expires };
      return tokens.access_token;
    } catch (e) {
      if (e instanceof OAuthFailure) throw e;
      throw new OAuthFailure(
        `getting a client-credentials token failed (${describeOAuthError(e, this.deps.redactor)})`,
      );
    }
  }

  /** Where client-credentials tokens come from: `token_url`, else discovery from the protected resource. */
  async #tokenServer(): Promise<{ url: string; metadata?: AuthorizationServerMetadata; resource: string }> {
    const pin = this.config.authorizationServer;
    if (this.config.tokenUrl) {
      const url = pin ?? new URL(this.config.tokenUrl).origin;
      const metadata = {
        issuer: url,
        authorization_endpoint: this.config.tokenUrl,
        token_endpoint: this.config.tokenUrl,
        response_types_supported: ["code"],
      } as AuthorizationServerMetadata;
      return { url, metadata, resource: this.resourceUrl };
    }
    const info = await discoverOAuthServerInfo(this.resourceUrl, { fetchFn: this.deps.fetchFn });
    if (pin && !sameIssuer(pin, info.authorizationServerMetadata?.issuer ?? info.authorizationServerUrl)) {
      throw new OAuthFailure(
        `the server names authorization server ${info.authorizationServerUrl}, not the configured ${pin}`,
      );
    }
    return {
      url: info.authorizationServerUrl,
      metadata: info.authorizationServerMetadata,
      resource: info.resourceMetadata?.resource ?? this.resourceUrl,
    };
  }
}

/** How long a refresh waits for another process's refresh of the same token file. */
export const LOCK_WAIT_MS = 15_000;

/**
 * An exclusive lock of the token file (undefined when it cannot be opened for writing: the refresh then goes ahead
 * unlocked and its write reports the problem). Waits at most {@link LOCK_WAIT_MS}.
 */
async function lockTokenFile(path: string): Promise<Deno.FsFile | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true });
  } catch {
    return undefined;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const locking = file.lock(true).then(() => true);
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), LOCK_WAIT_MS)));
  const locked = await Promise.race([locking, late]);
  clearTimeout(timer);
  if (!locked) {
    // the lock may still be granted later: release it then
    locking.then(() => file.close(), () => file.close());
    throw new OAuthFailure(`token file ${path} stayed locked by another refresh for ${LOCK_WAIT_MS / 1000} s`);
  }
  return file;
}

function expiringSoon(at: number | undefined): boolean {
  return at !== undefined && at - REFRESH_MARGIN_MS <= Date.now();
}

/** Two issuer URLs name the same server (a trailing slash aside). */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/** The SDK provider shape for a client-credentials token request. */
function clientCredentialsProvider(clientId: string, clientSecret: string, scope?: string): OAuthClientProvider {
  return {
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata() {
      return { redirect_uris: [], grant_types: ["client_credentials"], client_name: "ptc" };
    },
    clientInformation: () => ({ client_id: clientId, client_secret: clientSecret }),
    tokens: () => undefined,
    saveTokens: () => {},
    redirectToAuthorization: () => {
      throw new OAuthFailure("client_credentials never redirects");
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => "",
    prepareTokenRequest: (asked?: string) => {
      const params = new URLSearchParams({ grant_type: "client_credentials" });
      const s = asked ?? scope;
      if (s) params.set("scope", s);
      return params;
    },
  };
}
