/**
 * DNS-rebinding guards of the HTTP face: the `Host` header must name this server (loopback names on a loopback bind,
 * plus `--allowed-hosts`), and a browser `Origin`, when present, must be a loopback origin (any port) or exactly one
 * of `--allowed-origins` (scheme, host and port compared). Requests without `Origin` (non-browser clients) pass.
 * @module
 */

/** A bad `--allowed-hosts` / `--allowed-origins` entry, or a bind that cannot be guarded. */
export class GuardConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GuardConfigError";
  }
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** The compiled guard. */
export interface RequestGuard {
  /** Accepted Host names (lowercase, IPv6 in brackets, no port). */
  hosts: Set<string>;
  /** Accepted exact origins (`scheme://host[:port]`, as `URL.origin` prints them). */
  origins: Set<string>;
  /** Whether loopback origins (any port) are accepted. */
  loopbackOrigins: boolean;
}

/** Whether a bind address is loopback-only. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function isWildcard(hostname: string): boolean {
  return hostname === "0.0.0.0" || hostname === "::" || hostname === "[::]";
}

function hostKey(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

/** Normalize one `--allowed-hosts` entry: a host name or address, optionally with a port (ignored). */
export function normalizeAllowedHost(entry: string): string {
  let url: URL;
  try {
    url = new URL(
      `http://${entry.includes(":") && !entry.startsWith("[") && entry.split(":").length > 2 ? `[${entry}]` : entry}`,
    );
  } catch {
    throw new GuardConfigError(`--allowed-hosts: '${entry}' is not a host name (e.g. ptc.internal or 10.0.0.5)`);
  }
  if (url.pathname !== "/" || url.username || url.search) {
    throw new GuardConfigError(`--allowed-hosts: '${entry}' is not a host name (e.g. ptc.internal or 10.0.0.5)`);
  }
  return url.hostname;
}

/** Normalize one `--allowed-origins` entry: a full origin such as `https://app.example.com` or `http://host:8080`. */
export function normalizeAllowedOrigin(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new GuardConfigError(
      `--allowed-origins: '${entry}' is not an origin; write scheme://host[:port], e.g. https://app.example.com`,
    );
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || (url.pathname !== "/" && url.pathname !== "")) {
    throw new GuardConfigError(
      `--allowed-origins: '${entry}' is not an origin; write scheme://host[:port], e.g. https://app.example.com`,
    );
  }
  return url.origin;
}

/** Build the guard for a bind address and the extra allowed hosts/origins. Throws GuardConfigError. */
export function buildGuard(bind: string, allowedHosts: string[], allowedOrigins: string[]): RequestGuard {
  const hosts = new Set<string>(allowedHosts.map(normalizeAllowedHost));
  const loopback = isLoopbackHost(bind);
  if (loopback) { for (const n of LOOPBACK_NAMES) hosts.add(n); }
  else if (isWildcard(bind)) {
    if (allowedHosts.length === 0) {
      throw new GuardConfigError(
        `--http ${bind}: a wildcard bind needs --allowed-hosts naming the host(s) clients use to reach this server ` +
          "(requests with any other Host header are refused to stop DNS rebinding)",
      );
    }
  } else hosts.add(hostKey(bind));
  return { hosts, origins: new Set(allowedOrigins.map(normalizeAllowedOrigin)), loopbackOrigins: loopback };
}

function reject(message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status: 403 });
}

/** A 403 response when the request's Host or Origin is not allowed; undefined when it may proceed. */
export function guardResponse(req: Request, guard: RequestGuard): Response | undefined {
  const host = req.headers.get("host");
  if (!host) return reject("Missing Host header");
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return reject("Invalid Host header");
  }
  if (!guard.hosts.has(hostname)) return reject(`Invalid Host: ${hostname}`);
  const origin = req.headers.get("origin");
  if (origin === null || origin === "") return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return reject("Invalid Origin header");
  }
  if (guard.origins.has(url.origin)) return undefined;
  const web = url.protocol === "http:" || url.protocol === "https:";
  if (guard.loopbackOrigins && web && LOOPBACK_NAMES.includes(url.hostname)) return undefined;
  return reject(`Invalid Origin: ${url.origin}`);
}
