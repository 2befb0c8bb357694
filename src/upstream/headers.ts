/**
 * Header-name rules shared by config validation and credential emission: the RFC 9110 token syntax, the
 * protocol headers a config (and so a program) can never set, and the names that look secret-bearing.
 * @module
 */

/** RFC 9110 token: a valid header field name. */
export const HEADER_TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Exact (lowercase) names owned by the protocol or the transport. Ordinary API-key headers (`X-Api-Key`, `Api-Key`,
 * `X-Auth-Token`, …) are not among them: they are what a `custom_header` emitter is for.
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "host",
  "user-agent",
  "accept",
  "accept-encoding",
  "content-type",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "forwarded",
  "origin",
  "referer",
  "last-event-id",
]);

/** Reserved (lowercase) prefixes: MCP protocol headers, proxy and fetch-metadata headers, forwarding headers. */
export const RESERVED_PREFIXES: readonly string[] = ["mcp-", "proxy-", "sec-", "x-forwarded-"];

/** Substrings that make a static header name look secret-bearing (such values must come from a credential). */
export const SECRET_NAME_PARTS: readonly string[] = [
  "token",
  "secret",
  "key",
  "password",
  "passwd",
  "auth",
  "credential",
  "cookie",
  "session",
  "signature",
];

/** True when a header name is owned by the protocol/transport and can never be configured. */
export function isReservedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return RESERVED_HEADERS.has(n) || RESERVED_PREFIXES.some((p) => n.startsWith(p));
}

/** The secret-looking part of a header name, or undefined. */
export function secretNamePart(name: string): string | undefined {
  const n = name.toLowerCase();
  return SECRET_NAME_PARTS.find((p) => n.includes(p));
}
