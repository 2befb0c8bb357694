/**
 * The interactive part of the authorization code grant (`ptc auth login NAME`), per the MCP authorization spec:
 *
 * 1. an unauthenticated request to the MCP endpoint must answer 401; its `WWW-Authenticate` names the protected
 *    resource metadata (RFC 9728) and maybe the scope. The request is a Streamable HTTP POST; when that answers 400,
 *    404 or 405 (a legacy HTTP+SSE endpoint), the event stream's GET, as the transport's own fallback does;
 * 2. the SDK's `auth()` reads that metadata, then the authorization server's (RFC 8414, or OpenID Connect discovery),
 *    registers a client (RFC 7591) unless `client_id_binding` names one, and builds the authorization URL with PKCE
 *    (S256), a `state` and the resource indicator (RFC 8707);
 * 3. ptc prints the URL and waits on a loopback redirect (`http://127.0.0.1:<free port>/callback`) for the browser;
 * 4. the code is exchanged (with the verifier), and the client, the discovery state and the tokens are written to the
 *    token file (0600). Nothing here prints or logs a token.
 * @module
 */
import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type {
  FetchLike,
  OAuthClientInformationMixed,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import type { CredentialMaterializer, Redactor } from "../../../src/upstream/types.ts";
import type { OAuthConfig } from "./config.ts";
import { writeTokenFile } from "./token_file.ts";
import { describeOAuthError, OAuthFailure, registerClient, registerTokens, sameIssuer } from "./session.ts";

/** What `login` needs. */
export interface LoginOptions {
  upstreamName: string;
  /** The MCP endpoint. */
  serverUrl: string;
  config: OAuthConfig;
  credentials: CredentialMaterializer;
  redactor: Redactor;
  /** Guarded fetch for the probe and every OAuth exchange. */
  fetchFn: FetchLike;
  /** Where the authorization URL is shown to the person. */
  show: (authorizationUrl: string) => void;
  /** How long to wait for the browser (ms). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What a login obtained (no secret in it). */
export interface LoginResult {
  issuer: string;
  scope?: string;
  expiresIn?: number;
  refreshable: boolean;
  registered: boolean;
}

const PROBE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: {} });

function randomState(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Log in (see the module doc). Throws `OAuthFailure` with a message that names no secret. */
export async function login(o: LoginOptions): Promise<LoginResult> {
  const challenge = await probe(o);
  const callback = startCallbackServer();
  try {
    const redirectUrl = `http://127.0.0.1:${callback.port}/callback`;
    const state = randomState();
    const mem: {
      client?: OAuthClientInformationMixed;
      tokens?: OAuthTokens;
      verifier?: string;
      discovery?: OAuthDiscoveryState;
      authorizationUrl?: URL;
      registered: boolean;
    } = { registered: false };
    if (o.config.clientIdBinding) {
      const client_id = await resolve(o, o.config.clientIdBinding);
      const client_secret = o.config.clientSecretBinding ? await resolve(o, o.config.clientSecretBinding) : undefined;
      mem.client = { client_id, ...(client_secret ? { client_secret } : {}) };
      registerClient(o.redactor, mem.client as { client_secret?: string });
    }
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return redirectUrl;
      },
      get clientMetadata() {
        return {
          client_name: `ptc (${o.upstreamName})`,
          redirect_uris: [redirectUrl],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
        };
      },
      state: () => state,
      // a configured client is bound to the authorization server it is used with (`authorization_server` is
      // checked against the discovered one in saveDiscoveryState)
      clientInformation: (ctx) =>
        mem.client && !("issuer" in mem.client) && o.config.clientIdBinding && ctx?.issuer
          ? { ...mem.client, issuer: ctx.issuer }
          : mem.client,
      saveClientInformation: (client) => {
        registerClient(o.redactor, client as { client_secret?: string });
        // the SDK also saves a configured client back (with the issuer it is bound to): that is no registration
        if (client.client_id !== mem.client?.client_id) mem.registered = true;
        mem.client = client;
      },
      tokens: () => mem.tokens,
      saveTokens: (tokens) => {
        registerTokens(o.redactor, tokens);
        mem.tokens = tokens;
      },
      redirectToAuthorization: (url) => {
        mem.authorizationUrl = url;
      },
      saveCodeVerifier: (v) => {
        mem.verifier = v;
      },
      codeVerifier: () => mem.verifier ?? "",
      saveDiscoveryState: (d) => {
        const pin = o.config.authorizationServer;
        const issuer = d.authorizationServerMetadata?.issuer ?? d.authorizationServerUrl;
        if (pin && !sameIssuer(pin, issuer)) {
          throw new OAuthFailure(`the server names authorization server ${issuer}, not the configured ${pin}`);
        }
        mem.discovery = d;
      },
      discoveryState: () => mem.discovery,
    };
    const scope = o.config.scopes.length ? o.config.scopes.join(" ") : challenge.scope;
    const common = {
      serverUrl: o.serverUrl,
      resourceMetadataUrl: challenge.resourceMetadataUrl,
      fetchFn: o.fetchFn,
    };
    const first = await step(o, () => auth(provider, { ...common, scope }));
    if (first !== "REDIRECT" || !mem.authorizationUrl) {
      throw new OAuthFailure("the authorization server did not start a login");
    }
    o.show(mem.authorizationUrl.href);
    const answer = await callback.wait(o.timeoutMs, o.signal);
    if (answer.state !== state) throw new OAuthFailure("the browser came back with another state (not this login)");
    if (answer.error) throw new OAuthFailure(`the authorization server refused: ${safeCode(answer.error)}`);
    if (!answer.code) throw new OAuthFailure("the browser came back without an authorization code");
    const second = await step(
      o,
      () => auth(provider, { ...common, authorizationCode: answer.code!, ...(answer.iss ? { iss: answer.iss } : {}) }),
    );
    if (second !== "AUTHORIZED" || !mem.tokens || !mem.discovery) {
      throw new OAuthFailure("the authorization server did not issue tokens");
    }
    const issuer = mem.discovery.authorizationServerMetadata?.issuer ?? mem.discovery.authorizationServerUrl;
    await writeTokenFile(o.config.tokenFile!, {
      version: 1,
      server_url: o.serverUrl,
      issuer,
      client: mem.client,
      discovery: mem.discovery,
      tokens: mem.tokens,
      obtained_at: Date.now(),
    });
    return {
      issuer,
      ...(mem.tokens.scope ? { scope: mem.tokens.scope } : {}),
      ...(typeof mem.tokens.expires_in === "number" ? { expiresIn: mem.tokens.expires_in } : {}),
      refreshable: typeof mem.tokens.refresh_token === "string",
      registered: mem.registered,
    };
  } finally {
    await callback.close();
  }
}

async function resolve(o: LoginOptions, binding: string): Promise<string> {
  try {
    return await o.credentials.resolve(binding);
  } catch (e) {
    throw new OAuthFailure(describeOAuthError(e, o.redactor));
  }
}

async function step<T>(o: LoginOptions, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof OAuthFailure) throw e;
    throw new OAuthFailure(describeOAuthError(e, o.redactor));
  }
}

/** An OAuth error code from the redirect, shown only when it is shaped like one. */
function safeCode(code: string): string {
  return /^[a-z_]{1,64}$/.test(code) ? code : "an error";
}

/** Statuses of the POST after which a legacy HTTP+SSE endpoint is asked with a GET (see protocol.ts of mcp_http). */
const SSE_FALLBACK = new Set([400, 404, 405]);

/** Step 1: the unauthenticated request and its challenge. */
async function probe(o: LoginOptions): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const ask = async (init: RequestInit): Promise<Response> => {
    let res: Response;
    try {
      res = await o.fetchFn(o.serverUrl, init);
    } catch (e) {
      throw new OAuthFailure(`the MCP server cannot be reached (${describeOAuthError(e, o.redactor)})`);
    }
    await res.body?.cancel();
    return res;
  };
  let res = await ask({
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: PROBE,
  });
  if (SSE_FALLBACK.has(res.status)) res = await ask({ method: "GET", headers: { accept: "text/event-stream" } });
  if (res.status !== 401) {
    throw new OAuthFailure(
      `the MCP server answered HTTP ${res.status} without credentials, not 401: it asks for no login`,
    );
  }
  const params = extractWWWAuthenticateParams(res);
  return {
    ...(params.resourceMetadataUrl ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
    ...(params.scope ? { scope: params.scope } : {}),
  };
}

interface CallbackAnswer {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
}

const DONE_PAGE = "<!doctype html><title>ptc</title><p>ptc: the login is complete; you can close this tab.</p>";

/** Step 3: a one-shot listener on 127.0.0.1 (OS-assigned port) for the redirect. */
function startCallbackServer() {
  let deliver: (a: CallbackAnswer) => void = () => {};
  const answered = new Promise<CallbackAnswer>((r) => (deliver = r));
  const ac = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (req.method !== "GET" || url.pathname !== "/callback") return new Response("not found", { status: 404 });
    const get = (k: string) => url.searchParams.get(k) ?? undefined;
    deliver({ code: get("code"), state: get("state"), iss: get("iss"), error: get("error") });
    return new Response(DONE_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return {
    port: server.addr.port,
    async wait(timeoutMs: number, signal?: AbortSignal): Promise<CallbackAnswer> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new OAuthFailure(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
        signal?.addEventListener("abort", () => reject(new OAuthFailure("the login was interrupted")), { once: true });
      });
      try {
        return await Promise.race([answered, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}
