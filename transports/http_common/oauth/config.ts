/**
 * The `oauth2` auth emitter of an HTTP upstream: `{"scheme": "oauth2", "grant": …, …}` in `auth`. Two grants:
 *
 * - `authorization_code` (mcp_http only, the default there): a person logs in once with `ptc auth login NAME`;
 *   the tokens live in `token_file` (0600) and every face refreshes them silently. The client is registered
 *   dynamically (RFC 7591) unless `client_id_binding` names a pre-registered one.
 * - `client_credentials` (machine to machine, mcp_http and openapi): `client_id_binding` and
 *   `client_secret_binding` name credentials; the token comes from `token_url`, or (mcp_http) from the authorization
 *   server the MCP server names. Tokens are kept in memory only.
 *
 * Every URL obeys the upstream's URL policy (https unless both insecure opt-ins). Every problem names its key path.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { ConfigContext, ConfigError, JsonSchema } from "../../../src/upstream/types.ts";
import { didYouMean } from "../../../src/core/suggest.ts";
import { joinKey, unknownKeyHint } from "../../../src/upstream/messages.ts";

/** Which OAuth grant an upstream uses. */
export type OAuthGrant = "authorization_code" | "client_credentials";

/** A parsed `oauth2` emitter. */
export interface OAuthConfig {
  grant: OAuthGrant;
  /** authorization_code: absolute path of the token file (0600). */
  tokenFile?: string;
  /** Credential holding a pre-registered client id (authorization_code: optional; client_credentials: required). */
  clientIdBinding?: string;
  /** Credential holding the client secret. */
  clientSecretBinding?: string;
  /** Scopes asked for (empty: the server's advertised scopes, else none). */
  scopes: string[];
  /** client_credentials: the token endpoint (no discovery). */
  tokenUrl?: string;
  /** The authorization server's issuer the upstream must use (and the host ptc is allowed to reach). */
  authorizationServer?: string;
}

/** The keys of an `oauth2` emitter. */
export const OAUTH_KEYS = [
  "scheme",
  "grant",
  "token_file",
  "client_id_binding",
  "client_secret_binding",
  "scopes",
  "token_url",
  "authorization_server",
];

/** Checks an https/http URL under the upstream's policy (from the shared HTTP config). */
export type UrlCheck = (value: unknown, path: string) => URL | ConfigError;

const SCOPE_RE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Parse one `oauth2` emitter at `path`. `transport` decides the default grant and what is allowed: OpenAPI upstreams
 * take only client credentials with a `token_url`.
 */
export function parseOAuthEmitter(
  e: Record<string, unknown>,
  path: string,
  ctx: ConfigContext,
  transport: "mcp_http" | "openapi",
  checkUrl: UrlCheck,
  errors: ConfigError[],
): OAuthConfig | undefined {
  const before = errors.length;
  for (const key of Object.keys(e)) {
    if (!OAUTH_KEYS.includes(key)) {
      errors.push({
        path: joinKey(path, key),
        message: `unknown key for an oauth2 emitter${unknownKeyHint(key, OAUTH_KEYS)}`,
      });
    }
  }
  const grant = e.grant ?? (transport === "mcp_http" ? "authorization_code" : "client_credentials");
  if (grant !== "authorization_code" && grant !== "client_credentials") {
    errors.push({ path: joinKey(path, "grant"), message: 'must be "authorization_code" or "client_credentials"' });
    return undefined;
  }
  if (transport === "openapi" && grant !== "client_credentials") {
    errors.push({
      path: joinKey(path, "grant"),
      message: 'OpenAPI upstreams support only "client_credentials" (a login flow is for mcp_http upstreams)',
    });
  }
  const binding = (key: string): string | undefined => {
    const v = e[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string" || v === "") {
      errors.push({ path: joinKey(path, key), message: "must name a credential declared under credentials" });
      return undefined;
    }
    if (!ctx.credentialNames.has(v)) {
      errors.push({
        path: joinKey(path, key),
        message: `references unknown credential "${v}"${didYouMean(v, ctx.credentialNames)}`,
      });
    }
    return v;
  };
  const clientIdBinding = binding("client_id_binding");
  const clientSecretBinding = binding("client_secret_binding");
  if (clientSecretBinding && !clientIdBinding && e.client_id_binding === undefined) {
    errors.push({ path: joinKey(path, "client_secret_binding"), message: "needs client_id_binding too" });
  }
  let scopes: string[] = [];
  if (e.scopes !== undefined) {
    if (!Array.isArray(e.scopes) || e.scopes.some((s) => typeof s !== "string" || !SCOPE_RE.test(s))) {
      errors.push({ path: joinKey(path, "scopes"), message: 'must be a list of scope names like ["read", "write"]' });
    } else scopes = [...new Set(e.scopes as string[])];
  }
  let tokenFile: string | undefined;
  if (e.token_file !== undefined) {
    if (typeof e.token_file !== "string" || e.token_file.trim() === "") {
      errors.push({ path: joinKey(path, "token_file"), message: "must be a file path" });
    } else tokenFile = isAbsolute(e.token_file) ? e.token_file : resolve(ctx.configDir, e.token_file);
  }
  const url = (key: string): string | undefined => {
    if (e[key] === undefined) return undefined;
    const u = checkUrl(e[key], joinKey(path, key));
    if (u instanceof URL) return u.href;
    errors.push(u);
    return undefined;
  };
  const tokenUrl = url("token_url");
  const authorizationServer = url("authorization_server");
  if (grant === "authorization_code") {
    if (tokenFile === undefined && e.token_file === undefined) {
      errors.push({
        path: joinKey(path, "token_file"),
        message: "is required for the authorization_code grant: where `ptc auth login` keeps the tokens (0600)",
      });
    }
    if (e.token_url !== undefined) {
      errors.push({
        path: joinKey(path, "token_url"),
        message: "is for client_credentials; authorization_code discovers the endpoints from the MCP server",
      });
    }
  } else {
    if (e.token_file !== undefined) {
      errors.push({
        path: joinKey(path, "token_file"),
        message: "is for authorization_code; client_credentials tokens are kept in memory only",
      });
    }
    for (const key of ["client_id_binding", "client_secret_binding"]) {
      if (e[key] === undefined) {
        errors.push({ path: joinKey(path, key), message: "is required for the client_credentials grant" });
      }
    }
    if (transport === "openapi" && e.token_url === undefined) {
      errors.push({
        path: joinKey(path, "token_url"),
        message: "is required: the token endpoint (the document's flows.clientCredentials.tokenUrl)",
      });
    }
  }
  if (errors.length > before) return undefined;
  return {
    grant,
    ...(tokenFile ? { tokenFile } : {}),
    ...(clientIdBinding ? { clientIdBinding } : {}),
    ...(clientSecretBinding ? { clientSecretBinding } : {}),
    scopes,
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(authorizationServer ? { authorizationServer } : {}),
  };
}

/** JSON-Schema fragment of an `oauth2` emitter. */
export const oauthEmitterSchema: JsonSchema = {
  type: "object",
  properties: {
    scheme: { const: "oauth2", description: "OAuth 2.1: ptc obtains, stores and refreshes the bearer token." },
    grant: {
      enum: ["authorization_code", "client_credentials"],
      description: "authorization_code (mcp_http default: `ptc auth login NAME` once) or client_credentials " +
        "(machine to machine; the openapi default).",
    },
    token_file: {
      type: "string",
      minLength: 1,
      description: "authorization_code: where the tokens are kept (written 0600; relative to the config file).",
    },
    client_id_binding: { type: "string", minLength: 1, description: "Credential holding a pre-registered client id." },
    client_secret_binding: { type: "string", minLength: 1, description: "Credential holding the client secret." },
    scopes: { type: "array", items: { type: "string" }, description: "Scopes to ask for." },
    token_url: { type: "string", minLength: 1, description: "client_credentials: the token endpoint." },
    authorization_server: {
      type: "string",
      minLength: 1,
      description: "The authorization server's issuer URL: the only one ptc accepts and may reach.",
    },
  },
  required: ["scheme"],
  additionalProperties: false,
};
