/**
 * Config parsing shared by the HTTP transports (openapi, mcp_http): the URL checks (HTTPS by default, two separate
 * opt-ins for plain HTTP and for credentials over plain HTTP, and a loopback-only opt-in refused on https:// URLs), the `auth`
 * emitter list and `static_headers`. Every problem is a ConfigError naming its key path.
 * @module
 */
import { resolve } from "node:path";
import type { AuthEmitter, ConfigContext, ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { HEADER_TOKEN_RE, isReservedHeader, secretNamePart } from "../../src/upstream/headers.ts";
import { didYouMean } from "../../src/core/suggest.ts";
import { joinIndex, joinKey, unknownKeyHint } from "../../src/upstream/messages.ts";
import { optionalBool } from "../../src/upstream/config_keys.ts";
import { type OAuthConfig, oauthEmitterSchema, parseOAuthEmitter, type UrlCheck } from "./oauth/config.ts";

/** The parsed common part of an HTTP upstream. */
export interface HttpCommonConfig {
  /** The URL as written (normalized by `URL`). */
  url: string;
  /** `scheme://host:port`. */
  origin: string;
  /** `host:port` (default ports filled in) for `--allow-net`. */
  hostPort: string;
  /** True when the URL is plain http. */
  insecure: boolean;
  auth: AuthEmitter[];
  /** The `oauth2` emitter, if `auth` has one (it emits `Authorization: Bearer <access token>`). */
  oauth?: OAuthConfig;
  /** Static headers as ordered `[lowercase-name, value]` pairs. */
  staticHeaders: [string, string][];
  allowInsecureHttp: boolean;
  allowInsecureAuth: boolean;
  allowInsecureLoopback: boolean;
  /** `ca_file`, resolved against the config's folder: extra CA certificates (PEM) its TLS connections trust. */
  caFile?: string;
}

/** Options of `parseHttpCommon`. */
export interface HttpCommonOptions {
  /** Key of the URL: `base_url` (openapi) or `url` (mcp_http). */
  urlKey: "base_url" | "url";
  /** Accept `allow_insecure_loopback`. */
  loopbackFlag?: boolean;
}

/** Flags that decide whether an http:// URL is admitted. */
export interface UrlPolicy {
  allowInsecureHttp: boolean;
  allowInsecureAuth: boolean;
  allowInsecureLoopback?: boolean;
  /** Whether credentials will be sent to this URL. */
  hasAuth: boolean;
  /** Whether a query string is acceptable (not for base URLs). */
  allowQuery?: boolean;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);

/** `host:port` of a URL with the scheme's default port filled in (the form `--allow-net` takes). */
export function hostPortOf(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
  return port ? `${url.hostname}:${port}` : url.hostname;
}

/** True when the URL's host is a literal loopback address (127.0.0.1 or [::1]). */
export function isLiteralLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}

/** Check one upstream URL against the policy; returns the parsed URL or the problem at `path`. */
export function checkHttpUrl(value: unknown, path: string, policy: UrlPolicy): URL | ConfigError {
  if (typeof value !== "string" || value.trim() === "") return { path, message: "must be a non-empty URL string" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { path, message: `malformed URL "${value}"` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { path, message: `unsupported URL scheme "${url.protocol.slice(0, -1)}"; use https://` };
  }
  if (!url.hostname) return { path, message: `URL "${value}" has no host` };
  if (url.username || url.password) {
    return { path, message: "must not embed credentials (user:pass@); declare a credential and an auth emitter" };
  }
  if (url.hash) return { path, message: "must not have a #fragment" };
  if (url.search && !policy.allowQuery) return { path, message: "must not have a ?query" };
  if (url.protocol === "http:") {
    const loopbackOk = policy.allowInsecureLoopback === true && isLiteralLoopback(url);
    if (!policy.allowInsecureHttp && !loopbackOk) {
      const hint = policy.allowInsecureLoopback
        ? "allow_insecure_loopback admits only http://127.0.0.1 and http://[::1]; set allow_insecure_http: true"
        : "set allow_insecure_http: true to allow it";
      return { path, message: `uses http:// without allow_insecure_http (${hint})` };
    }
    if (policy.hasAuth && !policy.allowInsecureAuth) {
      return {
        path,
        message: "uses http:// with auth but allow_insecure_auth is not true (credentials would travel in clear text)",
      };
    }
  }
  return url;
}

/** How `parseAuth` reads an `oauth2` emitter: for which transport, with which URL check, and where it goes. */
export interface OAuthEmitterOptions {
  transport: "mcp_http" | "openapi";
  checkUrl: UrlCheck;
  found: (config: OAuthConfig) => void;
}

/** The emitter schemes that send a declared credential, and the extra key each one takes. */
const SCHEMES = ["bearer", "basic", "custom_header", "query", "cookie"] as const;
const EMITTER_KEYS = ["scheme", "binding", "header", "param", "cookie"];
/** A query parameter or cookie name: a token, no `=`, `;`, `&` or space. */
const NAME_RE = /^[A-Za-z0-9!#$%'*+.^_`|~-]{1,128}$/;

/**
 * Parse an `auth` list (null/absent = none). `queryKeys`: the transport can send `query` emitters (OpenAPI; the
 * MCP endpoint URL is the server's to choose). An `oauth2` emitter goes to `oauth.found` instead of the list
 * (without `oauth`, "oauth2" is not a scheme).
 */
export function parseAuth(
  raw: unknown,
  path: string,
  ctx: ConfigContext,
  errors: ConfigError[],
  queryKeys = true,
  oauth?: OAuthEmitterOptions,
): AuthEmitter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.push({ path, message: 'must be a list like [{"scheme": "bearer", "binding": "my_token"}]' });
    return [];
  }
  const out: AuthEmitter[] = [];
  const emittedBy = new Map<string, number>();
  raw.forEach((item, i) => {
    const p = joinIndex(path, i);
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      errors.push({ path: p, message: "must be an object with scheme and binding" });
      return;
    }
    const e = item as Record<string, unknown>;
    if (e.scheme === "oauth2" && oauth) {
      const emitted = 'header "authorization"';
      const prev = emittedBy.get(emitted);
      if (prev !== undefined) {
        errors.push({ path: p, message: `emits ${emitted} already emitted by ${joinIndex(path, prev)}` });
        return;
      }
      emittedBy.set(emitted, i);
      const parsed = parseOAuthEmitter(e, p, ctx, oauth.transport, oauth.checkUrl, errors);
      if (parsed) oauth.found(parsed);
      return;
    }
    let ok = true;
    for (const key of Object.keys(e)) {
      if (!EMITTER_KEYS.includes(key)) {
        errors.push({ path: joinKey(p, key), message: `unknown key${unknownKeyHint(key, EMITTER_KEYS)}` });
        ok = false;
      }
    }
    const scheme = e.scheme as AuthEmitter["scheme"];
    if (scheme === ("api_key" as string)) {
      errors.push({
        path: joinKey(p, "scheme"),
        message: '"api_key" is not a scheme here; write "custom_header" with "header": "<Header-Name>", ' +
          '"query" with "param": "<name>" or "cookie" with "cookie": "<name>"',
      });
      return;
    }
    if (!(SCHEMES as readonly unknown[]).includes(scheme)) {
      const last = oauth
        ? ', "cookie" (an API key in a cookie) or "oauth2" (ptc obtains and refreshes the token)'
        : ' or "cookie" (an API key in a cookie)';
      errors.push({
        path: joinKey(p, "scheme"),
        message: `must be "bearer", "basic", "custom_header", "query" (an API key in the query string)${last}`,
      });
      return;
    }
    if (scheme === "query" && !queryKeys) {
      errors.push({
        path: joinKey(p, "scheme"),
        message: '"query" emitters are for openapi upstreams; an MCP endpoint takes credentials in headers',
      });
      return;
    }
    const binding = e.binding;
    if (typeof binding !== "string" || binding === "") {
      const what = binding === undefined ? "is required: " : "must be ";
      errors.push({
        path: joinKey(p, "binding"),
        message: `${what}the name of a credential declared under credentials`,
      });
      return;
    }
    if (!ctx.credentialNames.has(binding)) {
      errors.push({
        path: joinKey(p, "binding"),
        message: `references unknown credential "${binding}"${didYouMean(binding, ctx.credentialNames)}`,
      });
      ok = false;
    }
    const hint = ctx.credentialHints?.get(binding);
    if (hint) {
      const allowed = (hint === "bearer" && scheme === "bearer") || (hint === "basic" && scheme === "basic") ||
        (hint === "raw" && (scheme === "custom_header" || scheme === "query" || scheme === "cookie"));
      if (!allowed) {
        errors.push({
          path: joinKey(p, "binding"),
          message: `credential "${binding}" has scheme_hint "${hint}" and cannot be used by a ${scheme} emitter`,
        });
        ok = false;
      }
    }
    let header: string | undefined;
    if (scheme === "custom_header") {
      if (typeof e.header !== "string" || !HEADER_TOKEN_RE.test(e.header)) {
        errors.push({ path: joinKey(p, "header"), message: "custom_header needs a valid header name" });
        return;
      }
      if (isReservedHeader(e.header)) {
        errors.push({ path: joinKey(p, "header"), message: `header "${e.header}" is reserved and cannot be set` });
        return;
      }
      header = e.header;
    } else if (e.header !== undefined) {
      errors.push({ path: joinKey(p, "header"), message: `is only used with scheme "custom_header", not "${scheme}"` });
      ok = false;
    }
    let name: string | undefined;
    for (const [key, owner] of [["param", "query"], ["cookie", "cookie"]] as const) {
      if (scheme === owner) {
        if (typeof e[key] !== "string" || !NAME_RE.test(e[key] as string)) {
          errors.push({
            path: joinKey(p, key),
            message: `${owner} needs "${key}": the ${owner === "query" ? "query parameter" : "cookie"} name ` +
              "(letters, digits and !#$%'*+.^_`|~-)",
          });
          return;
        }
        name = e[key] as string;
      } else if (e[key] !== undefined) {
        errors.push({ path: joinKey(p, key), message: `is only used with scheme "${owner}", not "${scheme}"` });
        ok = false;
      }
    }
    const emitted = scheme === "query"
      ? `query parameter "${name}"`
      : scheme === "cookie"
      ? `cookie "${name}"`
      : `header "${header ? header.toLowerCase() : "authorization"}"`;
    const prev = emittedBy.get(emitted);
    if (prev !== undefined) {
      errors.push({ path: p, message: `emits ${emitted} already emitted by ${joinIndex(path, prev)}` });
      ok = false;
    } else emittedBy.set(emitted, i);
    if (!ok) return;
    if (scheme === "query") out.push({ scheme, binding, param: name });
    else if (scheme === "cookie") out.push({ scheme, binding, cookie: name });
    else out.push(header ? { scheme, binding, header } : { scheme, binding });
  });
  return out;
}

/** Parse `static_headers` (null/absent = none) into ordered `[lowercase-name, value]` pairs. */
export function parseStaticHeaders(raw: unknown, path: string, errors: ConfigError[]): [string, string][] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push({ path, message: 'must be an object like {"X-Tenant": "acme"}' });
    return [];
  }
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const p = joinKey(path, name);
    const lower = name.toLowerCase();
    if (!HEADER_TOKEN_RE.test(name)) {
      errors.push({ path: p, message: "is not a valid header name" });
    } else if (isReservedHeader(name)) {
      errors.push({ path: p, message: `header "${name}" is reserved (set by ptc or the protocol)` });
    } else if (secretNamePart(name)) {
      errors.push({
        path: p,
        message: `header "${name}" looks secret-bearing ("${secretNamePart(name)}"); send it from a credential: ` +
          `auth: [{"scheme": "custom_header", "header": "${name}", "binding": "<credential>"}]`,
      });
    } else if (typeof value !== "string") {
      errors.push({ path: p, message: "value must be a string" });
    } else if (/[\r\n\0]/.test(value)) {
      errors.push({ path: p, message: "value must not contain line breaks or NUL" });
    } else if (seen.has(lower)) {
      errors.push({ path: p, message: `duplicate header "${name}" (header names are case-insensitive)` });
    } else {
      seen.add(lower);
      out.push([lower, value]);
    }
  }
  return out;
}

/**
 * Parse the common keys of an HTTP upstream. Order: flags → auth → static headers → URL (+ insecure gates) →
 * auth/static collisions. Returns every problem found.
 */
export function parseHttpCommon(
  raw: Record<string, unknown>,
  ctx: ConfigContext,
  options: HttpCommonOptions,
): HttpCommonConfig | ConfigError[] {
  const errors: ConfigError[] = [];
  const allowInsecureHttp = optionalBool(raw, "allow_insecure_http", ctx.path, false, errors);
  const allowInsecureAuth = optionalBool(raw, "allow_insecure_auth", ctx.path, false, errors);
  const allowInsecureLoopback = options.loopbackFlag
    ? optionalBool(raw, "allow_insecure_loopback", ctx.path, false, errors)
    : false;
  if (allowInsecureAuth && !allowInsecureHttp) {
    errors.push({
      path: joinKey(ctx.path, "allow_insecure_auth"),
      message: "requires allow_insecure_http: true as well (two separate opt-ins)",
    });
  }
  const hasAuth = Array.isArray(raw.auth) && raw.auth.length > 0;
  let oauth: OAuthConfig | undefined;
  const auth = parseAuth(raw.auth, joinKey(ctx.path, "auth"), ctx, errors, options.urlKey === "base_url", {
    transport: options.urlKey === "url" ? "mcp_http" : "openapi",
    // the authorization server's URLs obey the upstream's own policy: credentials travel to them
    checkUrl: (value, path) =>
      checkHttpUrl(value, path, { allowInsecureHttp, allowInsecureAuth, hasAuth: true, allowQuery: false }),
    found: (c) => (oauth = c),
  });
  const staticHeaders = parseStaticHeaders(raw.static_headers, joinKey(ctx.path, "static_headers"), errors);
  if (allowInsecureLoopback && hasAuth) {
    errors.push({
      path: joinKey(ctx.path, "allow_insecure_loopback"),
      message: "admits only unauthenticated loopback servers; remove auth or use allow_insecure_http + " +
        "allow_insecure_auth",
    });
  }
  const url = checkHttpUrl(raw[options.urlKey], joinKey(ctx.path, options.urlKey), {
    allowInsecureHttp,
    allowInsecureAuth,
    allowInsecureLoopback,
    hasAuth,
    allowQuery: options.urlKey === "url",
  });
  if (!(url instanceof URL)) errors.push(url);
  else if (allowInsecureLoopback && url.protocol === "https:") {
    errors.push({
      path: joinKey(ctx.path, "allow_insecure_loopback"),
      message: `only admits http:// loopback URLs and ${options.urlKey} is https://; remove it`,
    });
  }
  for (const emitter of auth) {
    if (emitter.header && staticHeaders.some(([n]) => n === emitter.header!.toLowerCase())) {
      errors.push({
        path: joinKey(joinKey(ctx.path, "static_headers"), emitter.header),
        message: `header "${emitter.header}" is configured in both auth and static_headers`,
      });
    }
  }
  let caFile: string | undefined;
  if (raw.ca_file !== undefined) {
    if (typeof raw.ca_file !== "string" || raw.ca_file.trim() === "") {
      errors.push({ path: joinKey(ctx.path, "ca_file"), message: "must be the path of a PEM file" });
    } else caFile = resolve(ctx.configDir, raw.ca_file);
  }
  if (errors.length > 0 || !(url instanceof URL)) return errors;
  return {
    ...(caFile ? { caFile } : {}),
    url: url.href,
    origin: url.origin,
    hostPort: hostPortOf(url),
    insecure: url.protocol === "http:",
    auth,
    ...(oauth ? { oauth } : {}),
    staticHeaders,
    allowInsecureHttp,
    allowInsecureAuth,
    allowInsecureLoopback,
  };
}

/** JSON-Schema fragment of one `auth` emitter (an `oauth2` emitter takes the keys of `oauthEmitterSchema`). */
export const authEmitterSchema: JsonSchema = {
  type: "object",
  properties: {
    ...(oauthEmitterSchema.properties as Record<string, JsonSchema>),
    scheme: {
      enum: [...SCHEMES, "oauth2"],
      description: "How the credential is sent: bearer, basic, custom_header (a header), query (openapi: a query " +
        "parameter), cookie (a Cookie); oauth2: ptc obtains, stores and refreshes the token itself.",
      "x-ptc-hints": {
        api_key: '"api_key" is not a scheme here; write "custom_header" with "header": "<Header-Name>"',
      },
    },
    binding: { type: "string", minLength: 1, description: "Name of a credential under top-level credentials." },
    header: { type: "string", minLength: 1, description: "custom_header only: the header name." },
    param: { type: "string", minLength: 1, description: "query only: the query parameter name." },
    cookie: { type: "string", minLength: 1, description: "cookie only: the cookie name." },
  },
  required: ["scheme"],
  additionalProperties: false,
};

/** An emitter of an upstream that cannot send `query` emitters (mcp_http): no `param` key, which nothing would read. */
const headerEmitterSchema: JsonSchema = (() => {
  const { param: _param, ...properties } = authEmitterSchema.properties as Record<string, JsonSchema>;
  return { ...authEmitterSchema, properties };
})();

/** JSON-Schema `properties` for the common HTTP keys (merge into a transport's configSchema). */
export function httpCommonSchemaProperties(options: HttpCommonOptions): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {
    [options.urlKey]: {
      type: "string",
      minLength: 1,
      description: options.urlKey === "base_url"
        ? "Base URL every request goes to (https:// unless allow_insecure_http)."
        : "MCP endpoint URL (https:// unless allow_insecure_http / allow_insecure_loopback).",
    },
    auth: {
      type: ["array", "null"],
      items: options.urlKey === "base_url" ? authEmitterSchema : headerEmitterSchema,
      description: options.urlKey === "base_url"
        ? "Credentials to send, in order: bearer, basic, custom_header, query, cookie or oauth2 emitters."
        : "Credentials to send, in order: bearer, basic, custom_header, cookie or oauth2 emitters.",
    },
    static_headers: {
      type: ["object", "null"],
      additionalProperties: { type: "string" },
      description: "Non-secret headers sent on every request (protocol and secret-looking names are rejected).",
    },
    ca_file: {
      type: "string",
      minLength: 1,
      description: "PEM file of extra CA certificates this upstream's TLS connections trust (a private CA; relative " +
        "to the config file). DENO_CERT does the same for the whole process.",
    },
    allow_insecure_http: { type: "boolean", description: "Allow a plain http:// URL." },
    allow_insecure_auth: { type: "boolean", description: "Also send credentials over plain http:// (needs both)." },
  };
  if (options.loopbackFlag) {
    props.allow_insecure_loopback = {
      type: "boolean",
      description: "Allow http://127.0.0.1 or http://[::1] (literal addresses only), without credentials; " +
        "refused on an https:// URL.",
    };
  }
  return props;
}
