/**
 * The Streamable HTTP face: `createMcpHandler` mounted in Hono at `/mcp`, hardened for the network —
 * Host and Origin checks (DNS rebinding), bearer-token auth (required on any non-loopback bind), failed-auth rate
 * limiting, a request body cap, `GET /health` and `GET /ready`, and draining on shutdown.
 * @module
 */
import { Hono } from "hono";
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import { checkBearer, FailedAuthLimiter } from "./auth.ts";

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

/** Whether a bind address is loopback-only. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
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

/** Read a request body with a byte cap; undefined when over the cap. */
async function readCapped(req: Request, max: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
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
  const mcp = createMcpHandler(factory, { legacy: "stateless", onerror: options.onError });
  const limiter = new FailedAuthLimiter();
  const loopback = isLoopbackHost(options.hostname);
  const hosts = [...(loopback ? localhostAllowedHostnames() : [options.hostname]), ...options.allowedHosts];
  const origins = [...(loopback ? localhostAllowedOrigins() : []), ...options.allowedOrigins];
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
    const rejected = hostHeaderValidationResponse(req, hosts) ?? originValidationResponse(req, origins);
    if (rejected) return rejected;
    if (state.draining) return c.json({ error: "server is shutting down" }, 503);
    let clientId = "local";
    if (options.authToken) {
      const client = c.req.header("x-forwarded-for")?.split(",")[0].trim() ||
        (c.env as { remoteAddr?: string } | undefined)?.remoteAddr || "unknown";
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
      const body = await readCapped(req, options.maxBodyBytes);
      if (body === undefined) return c.json({ error: "request body too large" }, 413);
      forwarded = new Request(req.url, { method: req.method, headers: req.headers, body });
    }
    return await mcp.fetch(forwarded, { authInfo: { token: "", clientId, scopes: [] } });
  });
  return { app, mcp };
}

/** Start listening. */
export function startHttpFace(factory: Parameters<typeof createMcpHandler>[0], options: HttpFaceOptions): Promise<
  HttpFace
> {
  const state = { draining: false };
  const { app, mcp } = createHttpApp(factory, options, state);
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
            await server.shutdown();
            await mcp.close();
          },
        });
      },
    }, (req, info) => app.fetch(req, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname }));
  });
}
