/**
 * The Streamable HTTP face: `createMcpHandler` mounted in Hono at `/mcp`, hardened for the network —
 * Host and Origin checks (DNS rebinding), bearer-token auth (required on any non-loopback bind), failed-auth rate
 * limiting, a request body cap, `GET /health` and `GET /ready`, and draining on shutdown.
 * @module
 */
import { Hono } from "hono";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { checkBearer, FailedAuthLimiter } from "./auth.ts";
import { buildGuard, guardResponse, isLoopbackHost } from "./guards.ts";
import { InFlightResponses } from "./inflight.ts";
import { readCapped } from "../upstream/http_client.ts";

/** Longest wait for open connections after draining; the process exits afterwards anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Wait for `p`, at most SHUTDOWN_GRACE_MS. */
async function bounded(p: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_GRACE_MS)));
  await Promise.race([p, grace]);
  clearTimeout(timer);
}

/** Options of the HTTP face. */
export interface HttpFaceOptions {
  hostname: string;
  port: number;
  /** Required when `hostname` is not loopback. */
  authToken?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** Reports saturation for `/ready`. */
  saturated: () => boolean;
  onError?: (error: Error) => void;
}

/** The running HTTP face. */
export interface HttpFace {
  url: string;
  port: number;
  /** Stop accepting MCP requests (503) while in-flight calls finish. */
  drain(): void;
  /** Close the listener and the MCP handler. */
  close(): Promise<void>;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Build the Hono app (exported for tests that drive it without a socket). */
export function createHttpApp(
  factory: Parameters<typeof createMcpHandler>[0],
  options: HttpFaceOptions,
  state: { draining: boolean },
) {
  if (!isLoopbackHost(options.hostname) && !options.authToken) {
    throw new Error(
      `--http ${options.hostname}: binding to a non-loopback address requires --http-auth-token-file`,
    );
  }
  const guard = buildGuard(options.hostname, options.allowedHosts, options.allowedOrigins);
  const mcp = createMcpHandler(factory, { legacy: "stateless", onerror: options.onError });
  const limiter = new FailedAuthLimiter();
  const inflight = new InFlightResponses();
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
  app.all("/mcp", async (c) => {
    const req = c.req.raw;
    const rejected = guardResponse(req, guard);
    if (rejected) return rejected;
    if (state.draining) return c.json({ error: "server is shutting down" }, 503);
    let clientId = "local";
    if (options.authToken) {
      // The peer address only: X-Forwarded-For is client-controlled, so trusting it would let a caller dodge the
      // failed-auth limiter by sending a new value with every attempt.
      const client = (c.env as { remoteAddr?: string } | undefined)?.remoteAddr || "unknown";
      const wait = limiter.retryAfter(client);
      if (wait > 0) {
        return c.json({ error: "too many failed authentication attempts" }, 429, { "Retry-After": String(wait) });
      }
      const check = checkBearer(c.req.header("authorization") ?? null, options.authToken);
      if (!check.ok) {
        limiter.fail(client);
        return c.json({ error: "unauthorized" }, 401, { "WWW-Authenticate": check.challenge });
      }
      limiter.succeed(client);
      clientId = `token:${(await sha256Hex(options.authToken)).slice(0, 12)}`;
    }
    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > options.maxBodyBytes) return c.json({ error: "request body too large" }, 413);
    let forwarded = req;
    if (req.method === "POST") {
      const { bytes, over } = await readCapped(req, options.maxBodyBytes);
      if (over) return c.json({ error: "request body too large" }, 413);
      // Keep the client-disconnect signal: the SDK aborts the tool handler (and so the program) through it.
      const body = bytes as Uint8Array<ArrayBuffer>;
      forwarded = new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal });
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
  });
  return { app, mcp, inflight };
}

/** Start listening. */
export function startHttpFace(factory: Parameters<typeof createMcpHandler>[0], options: HttpFaceOptions): Promise<
  HttpFace
> {
  const state = { draining: false };
  const { app, mcp, inflight } = createHttpApp(factory, options, state);
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: options.hostname,
      port: options.port,
      onListen: ({ port }) => {
        const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
        resolve({
          url: `http://${host}:${port}/mcp`,
          port,
          drain: () => {
            state.draining = true;
          },
          close: async () => {
            state.draining = true;
            // 1. Let answers already being written finish (evaluations drained before: the caller waits for the gate).
            // 2. Close the MCP handler: it ends long-lived `subscriptions/listen` streams, which would otherwise hold
            //    the listener's shutdown open. 3. Stop the listener. Each wait is bounded.
            await bounded(inflight.idle());
            await mcp.close();
            await bounded(server.shutdown());
          },
        });
      },
    }, (req, info) => app.fetch(req, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname }));
  });
}
