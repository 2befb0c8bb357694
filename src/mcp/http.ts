/**
 * The Streamable HTTP face: `createMcpHandler` mounted in Hono at `/mcp`, hardened for the network —
 * Host and Origin checks (DNS rebinding), bearer-token auth (required on any non-loopback bind), failed-auth rate
 * limiting keyed on the client address (the peer, or behind `--trusted-proxy` the forwarded client), a request body cap, `GET /health` and `GET /ready`, and draining on shutdown.
 * @module
 */
import { type Context, Hono } from "hono";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { checkBearer, FailedAuthLimiter } from "./auth.ts";
import { buildGuard, guardResponse, isLoopbackHost } from "./guards.ts";
import { InFlightResponses } from "./inflight.ts";
import { BodyReader } from "./body.ts";
import { clientAddress, type TrustedProxies } from "./client_address.ts";
import { sha256Hex } from "../core/digest.ts";
import { DOOR_DEFAULTS, openDoor } from "./door.ts";
import { startInnerServer } from "./inner_server.ts";

/** Longest wait for open connections after draining; the process exits afterwards anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Wait for `p`, at most SHUTDOWN_GRACE_MS. */
async function bounded(p: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_GRACE_MS)));
  await Promise.race([p, grace]);
  clearTimeout(timer);
}

/** Default of `HttpFaceOptions.bodyTimeoutMs`. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** Default of `HttpFaceOptions.maxLargeBodyReads`. */
export const DEFAULT_LARGE_BODY_READS = 4;
/** Default of `HttpFaceOptions.maxOpenRequests`. */
export const DEFAULT_MAX_OPEN_REQUESTS = 256;

/** Options of the HTTP face. */
export interface HttpFaceOptions {
  hostname: string;
  port: number;
  /** Accepted bearer tokens, each a client of its own; at least one is required when `hostname` is not loopback. */
  authTokens?: string[];
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** Longest time a request body may take to arrive (default 10 s); a slower one is answered 408. */
  bodyTimeoutMs?: number;
  /** Requests larger than 64 KiB (or of undeclared size) whose bodies are read at once (default 4); more get 503. */
  maxLargeBodyReads?: number;
  /** MCP requests open at once, from arrival to answer (default 256); more get 503 before anything is read. */
  maxOpenRequests?: number;
  /**
   * Reverse proxies whose forwarded client address is believed (`--trusted-proxy`). When set, the owner key also
   * carries the client address, so clients behind one proxy keep separate sessions and limiter buckets.
   */
  trustedProxies?: TrustedProxies;
  /** Told of each request refused at the door (403 Host/Origin, 401, 429) with the client address (the audit log). */
  onDenied?: (denial: { status: number; reason: string; client: string }) => void;
  /** Open client connections at most (default 512); more are closed at accept, before anything is parsed. */
  maxConnections?: number;
  /** Longest time a connection's first request head may take to arrive (default 10 s); slower is 408. */
  headerTimeoutMs?: number;
  /** Longest time a connection may pass with no byte either way (default 5 min). */
  idleTimeoutMs?: number;
  /** `GET /metrics` (Prometheus text format, same auth as /mcp); absent: no such route. */
  metrics?: { render(): Promise<{ text: string; contentType: string }> };
  /** Reports saturation for `/ready`. */
  saturated: () => boolean;
  onError?: (error: Error) => void;
}

/** The running HTTP face. */
export interface HttpFace {
  url: string;
  port: number;
  /** Client connections open now, and those closed at accept for the cap since start. */
  connections(): { open: number; refused: number };
  /** Stop accepting MCP requests (503) while in-flight calls finish. */
  drain(): void;
  /** Close the listener and the MCP handler. */
  close(): Promise<void>;
}

/** Build the Hono app (exported for tests that drive it without a socket). */
export function createHttpApp(
  factory: Parameters<typeof createMcpHandler>[0],
  options: HttpFaceOptions,
  state: { draining: boolean },
) {
  if (!isLoopbackHost(options.hostname) && !options.authTokens?.length) {
    throw new Error(
      `--http ${options.hostname}: binding to a non-loopback address requires --http-auth-token-file`,
    );
  }
  const guard = buildGuard(options.hostname, options.allowedHosts, options.allowedOrigins);
  const mcp = createMcpHandler(factory, { legacy: "stateless", onerror: options.onError });
  const limiter = new FailedAuthLimiter();
  const inflight = new InFlightResponses();
  const bodies = new BodyReader({
    maxBytes: options.maxBodyBytes,
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    maxLargeReads: options.maxLargeBodyReads ?? DEFAULT_LARGE_BODY_READS,
  });
  const maxOpen = options.maxOpenRequests ?? DEFAULT_MAX_OPEN_REQUESTS;
  let open = 0;
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-request-id", crypto.randomUUID());
  });
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/ready", (c) => {
    if (state.draining) return c.json({ status: "draining" }, 503);
    if (options.saturated()) return c.json({ status: "saturated" }, 503);
    return c.json({ status: "ready" });
  });
  if (options.metrics) {
    const metrics = options.metrics;
    // The same door as /mcp: a scrape carries the bearer token when one is configured.
    app.get("/metrics", async (c) => {
      const admitted = await admit(c);
      if ("refused" in admitted) return admitted.refused;
      const { text, contentType } = await metrics.render();
      return c.body(text, 200, { "Content-Type": contentType });
    });
  }
  app.all("/mcp", async (c) => {
    if (open >= maxOpen) {
      return c.json({ error: `server busy: ${maxOpen} requests open; retry shortly` }, 503, { "Retry-After": "1" });
    }
    open++;
    try {
      return await handle(c);
    } finally {
      open--;
    }
  });
  /**
   * The door checks every request to /mcp and /metrics passes: Host/Origin, draining, the bearer token (the limiter
   * refuses only failures). Returns the refusal, or the owner key of the admitted client.
   */
  async function admit(c: Context): Promise<{ refused: Response } | { clientId: string }> {
    const req: Request = c.req.raw;
    // The socket peer, or the forwarded client when the peer is a trusted proxy (never a header from anyone else).
    const peer = (c.env as { remoteAddr?: string } | undefined)?.remoteAddr || "unknown";
    const client = clientAddress(peer, req.headers, options.trustedProxies);
    const denied = (status: number, reason: string) => options.onDenied?.({ status, reason, client });
    const rejected = guardResponse(req, guard);
    if (rejected) {
      denied(rejected.status, "forbidden");
      return { refused: rejected };
    }
    if (state.draining) return { refused: c.json({ error: "server is shutting down" }, 503) };
    let clientId = "local";
    if (options.authTokens?.length) {
      // The token is checked first: the limiter only ever refuses a failure, so no one who sends wrong tokens from
      // an address (or a shared proxy) can lock the rightful client out. A blocked address gets 429 instead of 401.
      const wait = limiter.retryAfter(client);
      const check = checkBearer(c.req.header("authorization") ?? null, options.authTokens);
      if (!check.ok) {
        if (wait > 0) {
          denied(429, "rate_limited");
          return {
            refused: c.json({ error: "too many failed authentication attempts" }, 429, { "Retry-After": String(wait) }),
          };
        }
        limiter.fail(client);
        denied(401, "unauthorized");
        return { refused: c.json({ error: "unauthorized" }, 401, { "WWW-Authenticate": check.challenge }) };
      }
      clientId = `token:${(await sha256Hex(check.token)).slice(0, 12)}`;
    }
    if (options.trustedProxies) clientId = `${clientId}@${client}`;
    return { clientId };
  }
  async function handle(c: Context): Promise<Response> {
    const req: Request = c.req.raw;
    const admitted = await admit(c);
    if ("refused" in admitted) return admitted.refused;
    const { clientId } = admitted;
    let forwarded = req;
    if (req.method === "POST") {
      // Read only now that the request is admitted (guards, auth, the open-request cap), within size and time.
      const read = await bodies.read(req);
      if (!read.ok) {
        const headers: Record<string, string> = read.retryAfter ? { "Retry-After": String(read.retryAfter) } : {};
        return c.json({ error: read.error }, read.status, headers);
      }
      // Keep the client-disconnect signal: the SDK aborts the tool handler (and so the program) through it.
      forwarded = new Request(req.url, {
        method: req.method,
        headers: req.headers,
        body: read.bytes,
        signal: req.signal,
      });
    } else if (Number(c.req.header("content-length") ?? "0") > options.maxBodyBytes) {
      return c.json({ error: "request body too large" }, 413);
    }
    // A `subscriptions/listen` stream stays open until the client leaves: shutdown closes it rather than waiting.
    const listen = c.req.header("mcp-method")?.toLowerCase() === "subscriptions/listen";
    const handOver = listen ? (r: Response | undefined) => r : inflight.begin();
    let res: Response | undefined;
    try {
      res = await mcp.fetch(forwarded, { authInfo: { token: "", clientId, scopes: [] } });
    } finally {
      res = handOver(res);
    }
    return res!;
  }
  return { app, mcp, inflight };
}

/** Start listening. */
export async function startHttpFace(
  factory: Parameters<typeof createMcpHandler>[0],
  options: HttpFaceOptions,
): Promise<HttpFace> {
  const state = { draining: false };
  const { app, mcp, inflight } = createHttpApp(factory, options, state);
  // The HTTP server listens on loopback only (restarted if its accept loop dies); clients reach it through the door,
  // which applies the connection cap and the header timeouts before a byte is parsed and survives accept errors.
  let door: ReturnType<typeof openDoor> | undefined;
  const server = await startInnerServer((req, info) => {
    const peer = door?.peerOf(info.remoteAddr.port);
    // Only the door connects here; anything else on this loopback port is refused.
    if (peer === undefined) return new Response("connect through the public address", { status: 421 });
    return app.fetch(req, { remoteAddr: peer });
  }, options.onError);
  try {
    door = openDoor(() => server.port(), {
      hostname: options.hostname,
      port: options.port,
      maxConnections: options.maxConnections ?? DOOR_DEFAULTS.maxConnections,
      headerTimeoutMs: options.headerTimeoutMs ?? DOOR_DEFAULTS.headerTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? DOOR_DEFAULTS.idleTimeoutMs,
      maxHeaderBytes: DOOR_DEFAULTS.maxHeaderBytes,
      onAcceptError: acceptErrorReporter(options.onError),
    });
  } catch (e) {
    await server.shutdown();
    throw e;
  }
  const opened = door;
  const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
  return {
    url: `http://${host}:${opened.port}/mcp`,
    port: opened.port,
    connections: () => ({ open: opened.open, refused: opened.refused }),
    drain: () => {
      state.draining = true;
    },
    close: async () => {
      state.draining = true;
      // 1. Let answers already being written finish (evaluations drained before: the caller waits for the gate).
      // 2. Close the MCP handler: it ends long-lived `subscriptions/listen` streams, which would otherwise hold
      //    the listener's shutdown open. 3. Stop accepting at the door, stop the server (its connections end once
      //    their answers are written, and the door delivers those bytes), then close what is left. Each wait is
      //    bounded.
      await bounded(inflight.idle());
      await mcp.close();
      opened.stopAccepting();
      await bounded(server.shutdown());
      await bounded(opened.idle());
      opened.close();
    },
  };
}

/** Report accept errors (EMFILE under a connection flood) at most once a second, with how many were suppressed. */
function acceptErrorReporter(onError?: (e: Error) => void): (e: Error) => void {
  let last = 0;
  let suppressed = 0;
  return (e) => {
    const now = Date.now();
    if (now - last < 1000) {
      suppressed++;
      return;
    }
    last = now;
    const more = suppressed > 0 ? ` (${suppressed} more since the last report)` : "";
    suppressed = 0;
    onError?.(new Error(`accepting a connection failed: ${e.message}${more}; still serving`));
  };
}
