/**
 * `ptc auth login|status|logout` — the person's side of OAuth for upstreams whose `auth` has an `oauth2` emitter:
 *
 * - `login NAME`: the authorization code grant once (prints the authorization URL, waits on a loopback redirect,
 *   stores the tokens in the upstream's token file, 0600); every face then refreshes silently.
 * - `status [NAME]`: per OAuth upstream, whether it is logged in, when the access token expires, whether a refresh
 *   token is held — never a token.
 * - `logout NAME`: revokes the grant at the authorization server when it offers revocation (RFC 7009), then removes
 *   the token file.
 * @module
 */
import { parseFlags, UsageError, usageError } from "./usage.ts";
import { loadConfigFile, type PtcConfig, resolveConfigPath } from "../upstream/config.ts";
import { createMaterializer } from "../upstream/credentials.ts";
import { createRedactor } from "../upstream/redact.ts";
import { formatConfigError } from "../upstream/messages.ts";
import { didYouMean } from "../core/suggest.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import type { OAuthConfig } from "../../transports/http_common/oauth/config.ts";
import { login } from "../../transports/http_common/oauth/login.ts";
import { oauthFetch } from "../../transports/http_common/oauth/fetch.ts";
import {
  expiresAt,
  readTokenFile,
  removeTokenFile,
  type TokenRecord,
} from "../../transports/http_common/oauth/token_file.ts";
import { describeOAuthError } from "../../transports/http_common/oauth/session.ts";

const USAGE = `Usage: ptc auth login NAME [--upstreams-config FILE] [--timeout SECONDS]
       ptc auth status [NAME] [--upstreams-config FILE] [--format text|json]
       ptc auth logout NAME [--upstreams-config FILE]

OAuth for upstreams whose auth has {"scheme": "oauth2"}:
  login    log in once (authorization code + PKCE): prints the authorization URL to open in a browser, waits
           on a loopback redirect, stores the tokens in the upstream's token_file (0600)
  status   whether each OAuth upstream is logged in and when its token expires (never a token)
  logout   revoke the grant at the authorization server (when it offers revocation) and remove the token file
  --timeout SECONDS   how long login waits for the browser (300)
  --format F          status: text (default) or json
The config file defaults to $PTC_UPSTREAMS. Exit codes: 0 ok, 1 failed (status: an upstream is not logged in),
2 usage or config error.`;

/** The flags of `ptc auth` (face_needs parses them too). */
export const AUTH_OPTIONS = {
  "upstreams-config": { type: "string" },
  timeout: { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** An OAuth upstream of the config. */
interface OAuthUpstream {
  name: string;
  transport: string;
  /** The protected resource: the MCP endpoint or the OpenAPI base URL. */
  url: string;
  oauth: OAuthConfig;
}

function oauthUpstreams(config: PtcConfig): OAuthUpstream[] {
  const out: OAuthUpstream[] = [];
  for (const u of config.upstreams) {
    const c = u.config as { url?: string; oauth?: OAuthConfig; http?: { url: string; oauth?: OAuthConfig } };
    const oauth = c.oauth ?? c.http?.oauth;
    const url = c.url ?? c.http?.url;
    if (oauth && url) out.push({ name: u.name, transport: u.transport, url, oauth });
  }
  return out;
}

/** `ptc auth …`. */
export async function run(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseFlags(args, AUTH_OPTIONS);
  } catch (e) {
    return usageError(e instanceof UsageError ? e.message : String(e), USAGE, "auth");
  }
  const v = flags.values;
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  const [sub, name, ...extra] = flags.positionals;
  if (sub !== "login" && sub !== "status" && sub !== "logout") {
    return usageError(
      sub ? `unknown subcommand '${sub}' (login, status or logout)` : "missing subcommand",
      USAGE,
      "auth",
    );
  }
  if (extra.length) return usageError(`unexpected argument '${extra[0]}'`, USAGE, "auth");
  if (sub !== "status" && !name) return usageError(`${sub} needs the upstream's NAME`, USAGE, "auth");
  let timeoutS = 300;
  if (v.timeout !== undefined) {
    if (!/^\d+$/.test(v.timeout) || Number(v.timeout) < 1) {
      return usageError(`--timeout expects a whole number of seconds, got '${v.timeout}'`, USAGE, "auth");
    }
    timeoutS = Number(v.timeout);
  }
  const format = v.format ?? "text";
  if (format !== "text" && format !== "json") {
    return usageError(`--format must be text or json, got '${format}'`, USAGE, "auth");
  }
  const file = resolveConfigPath(v["upstreams-config"]);
  if (!file) return usageError("no config: pass --upstreams-config FILE or set PTC_UPSTREAMS", USAGE, "auth");
  const loaded = await loadConfigFile(file, { registry: registerBuiltins() });
  if (Array.isArray(loaded)) {
    console.error(`ptc auth: config ${file}: ${loaded.length} problem(s)`);
    for (const e of loaded) console.error(`  ${formatConfigError(e)}`);
    return 2;
  }
  const all = oauthUpstreams(loaded);
  let chosen = all;
  if (name) {
    const found = all.find((u) => u.name === name);
    if (!found) {
      const known = loaded.upstreams.some((u) => u.name === name);
      const why = known
        ? `upstream '${name}' has no oauth2 auth`
        : `no upstream '${name}'${didYouMean(name, loaded.upstreams.map((u) => u.name))}`;
      console.error(`ptc auth: ${why} (OAuth upstreams: ${all.map((u) => u.name).join(", ") || "none"})`);
      return 2;
    }
    chosen = [found];
  }
  if (sub === "status") return await status(chosen, format);
  const target = chosen[0];
  if (target.oauth.grant !== "authorization_code") {
    console.error(
      `ptc auth: upstream '${target.name}' uses the client_credentials grant: there is nothing to ${sub} ` +
        "(ptc fetches its tokens with the client id and secret when it needs them)",
    );
    return 2;
  }
  return sub === "login" ? await doLogin(loaded, target, timeoutS) : await logout(target);
}

async function doLogin(config: PtcConfig, u: OAuthUpstream, timeoutS: number): Promise<number> {
  const redactor = createRedactor();
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const result = await login({
      upstreamName: u.name,
      serverUrl: u.url,
      config: u.oauth,
      credentials: createMaterializer(config.credentials, redactor),
      redactor,
      fetchFn: oauthFetch(fetch, 30_000),
      show: (url) => {
        console.error(`To log in to ${u.name}, open this URL in a browser (waiting ${timeoutS} s):`);
        console.log(url);
      },
      timeoutMs: timeoutS * 1000,
      signal: ac.signal,
    });
    const expiry = result.expiresIn !== undefined ? `; the access token expires in ${result.expiresIn} s` : "";
    console.error(
      `Logged in to ${u.name} at ${result.issuer}${result.registered ? " (client registered)" : ""}${expiry}; ` +
        `${result.refreshable ? "it is refreshed silently" : "no refresh token: log in again when it expires"}. ` +
        `Tokens are in ${u.oauth.tokenFile} (0600).`,
    );
    return 0;
  } catch (e) {
    console.error(`ptc auth login: ${u.name}: ${describeOAuthError(e, redactor)}`);
    return 1;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}

/** One upstream's status line (never a token). */
interface StatusEntry {
  name: string;
  grant: string;
  state: "logged_in" | "expired" | "not_logged_in" | "unreadable" | "no_login_needed";
  token_file?: string;
  issuer?: string;
  expires_in_s?: number;
  refresh_token?: boolean;
  scope?: string;
  problem?: string;
}

async function statusOf(u: OAuthUpstream): Promise<StatusEntry> {
  if (u.oauth.grant === "client_credentials") return { name: u.name, grant: u.oauth.grant, state: "no_login_needed" };
  const base = { name: u.name, grant: u.oauth.grant, token_file: u.oauth.tokenFile! };
  let record: TokenRecord | undefined;
  try {
    record = await readTokenFile(u.oauth.tokenFile!);
  } catch (e) {
    return { ...base, state: "unreadable", problem: e instanceof Error ? e.message : "cannot be read" };
  }
  if (!record?.tokens?.access_token) return { ...base, state: "not_logged_in" };
  const at = expiresAt(record);
  const left = at === undefined ? undefined : Math.round((at - Date.now()) / 1000);
  return {
    ...base,
    state: left !== undefined && left <= 0 ? "expired" : "logged_in",
    ...(record.issuer ? { issuer: record.issuer } : {}),
    ...(left !== undefined ? { expires_in_s: left } : {}),
    refresh_token: typeof record.tokens.refresh_token === "string",
    ...(record.tokens.scope ? { scope: record.tokens.scope } : {}),
  };
}

async function status(upstreams: OAuthUpstream[], format: string): Promise<number> {
  const entries = await Promise.all(upstreams.map(statusOf));
  const bad = entries.some((e) => e.state === "not_logged_in" || e.state === "unreadable");
  if (format === "json") {
    console.log(JSON.stringify({ upstreams: entries }, null, 2));
    return bad ? 1 : 0;
  }
  if (entries.length === 0) console.log("no upstream uses oauth2");
  for (const e of entries) {
    if (e.state === "no_login_needed") {
      console.log(`${e.name}: client_credentials (no login; a token is fetched when needed)`);
    } else if (e.state === "not_logged_in") {
      console.log(`${e.name}: not logged in — run \`ptc auth login ${e.name}\``);
    } else if (e.state === "unreadable") {
      console.log(`${e.name}: ${e.problem}`);
    } else {
      const exp = e.expires_in_s === undefined
        ? ""
        : e.state === "expired"
        ? ", access token expired"
        : `, access token expires in ${e.expires_in_s} s`;
      const refresh = e.refresh_token ? "refreshes silently" : "no refresh token (log in again when it expires)";
      console.log(`${e.name}: logged in at ${e.issuer ?? "?"}${exp}; ${refresh}${e.scope ? `; scope ${e.scope}` : ""}`);
    }
  }
  return bad ? 1 : 0;
}

async function logout(u: OAuthUpstream): Promise<number> {
  const redactor = createRedactor();
  let record: TokenRecord | undefined;
  try {
    record = await readTokenFile(u.oauth.tokenFile!);
  } catch (e) {
    console.error(`ptc auth logout: ${u.name}: ${e instanceof Error ? e.message : "the token file cannot be read"}`);
    return 1;
  }
  if (!record) {
    console.error(`${u.name}: not logged in (no token file ${u.oauth.tokenFile})`);
    return 0;
  }
  const revoked = await revoke(record, redactor).catch((e) => describeOAuthError(e, redactor));
  try {
    await removeTokenFile(u.oauth.tokenFile!);
  } catch (e) {
    console.error(`ptc auth logout: ${u.name}: ${e instanceof Error ? e.message : "cannot remove the token file"}`);
    return 1;
  }
  const said = revoked === true
    ? "the authorization server revoked the grant"
    : revoked === false
    ? "the authorization server offers no revocation"
    : `revocation failed (${revoked})`;
  console.error(`Logged out of ${u.name}: ${said}; ${u.oauth.tokenFile} removed.`);
  return 0;
}

/** RFC 7009: revoke the refresh token (else the access token); false when the server has no revocation endpoint. */
async function revoke(record: TokenRecord, redactor: ReturnType<typeof createRedactor>): Promise<boolean> {
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined;
  const endpoint = typeof metadata?.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
  const token = record.tokens?.refresh_token ?? record.tokens?.access_token;
  if (!endpoint || !token || !record.client) return false;
  redactor.register(token);
  const client = record.client as { client_id: string; client_secret?: string };
  const headers: Record<string, string> = {};
  const body = new URLSearchParams({
    token,
    token_type_hint: record.tokens?.refresh_token ? "refresh_token" : "access_token",
  });
  if (client.client_secret) headers.authorization = `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`;
  else body.set("client_id", client.client_id);
  const res = await oauthFetch(fetch, 30_000)(endpoint, { method: "POST", headers, body });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return true;
}
