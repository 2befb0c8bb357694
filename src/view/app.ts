/**
 * The web app of `ptc view` and `ptc mcp --view`: Hono routes for the pages, the live event stream, behind the HTTP
 * face's own door — the Host/Origin guards against DNS rebinding (`src/mcp/guards.ts`), and the optional bearer token
 * (required off loopback), taken from an `Authorization` header or, for a browser, from a `?token=` visit that sets
 * an HttpOnly, SameSite=Strict cookie. Every page carries a strict Content-Security-Policy: its own inline CSS and
 * script under a fresh nonce, nothing from elsewhere.
 * @module
 */
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { getCookie, setCookie } from "hono/cookie";
import { buildGuard, guardResponse, isLoopbackHost } from "../mcp/guards.ts";
import { checkBearer, constantTimeEqual, FailedAuthLimiter } from "../mcp/auth.ts";
import { sha256Hex } from "../core/digest.ts";
import type { ViewRun } from "./model.ts";
import type { RunSourceReader } from "./sources.ts";
import type { LiveFeed } from "./live.ts";
import { type AgentView, type RunFilters, runPage, runsPage, seesPage } from "./pages.ts";

/** Options of the view app. */
export interface ViewAppOptions {
  /** The bind address (decides the guards). */
  hostname: string;
  /** Bearer token; required when `hostname` is not loopback. */
  authToken?: string;
  allowedHosts?: string[];
  sources: RunSourceReader[];
  /** Live mode: the server's feed (the pages update as evaluations end). */
  live?: LiveFeed;
  /** The catalogs the agent sees (computed once, on the first visit). */
  agentViews: () => Promise<AgentView[]>;
  /** Show every owner's program, prints and answer (live mode); default: only the viewer's own. */
  allPrograms?: boolean;
}

const COOKIE = "ptc_view_token";
/** Sources are read again at most this often. */
const REFRESH_MS = 1_000;

/** The view's owner key for a token: the HTTP face's (`token:<12 hex of its SHA-256>`), `local` without one. */
export async function viewerKey(token: string | undefined): Promise<string> {
  return token ? `token:${(await sha256Hex(token)).slice(0, 12)}` : "local";
}

function filtersOf(c: Context): RunFilters {
  const q = (k: string) => {
    const v = c.req.query(k)?.trim();
    return v ? v.slice(0, 200) : undefined;
  };
  const page = Number.parseInt(c.req.query("page") ?? "1", 10);
  return {
    outcome: q("outcome"),
    upstream: q("upstream"),
    tool: q("tool"),
    from: q("from"),
    to: q("to"),
    q: q("q"),
    page: Number.isFinite(page) ? page : 1,
  };
}

/** The app and what ends its open event streams (before the listener shuts down). */
export interface ViewApp {
  app: Hono;
  closeStreams(): void;
}

/** Build the app. Throws (GuardConfigError, Error) on a bind it cannot guard. */
export function createViewApp(options: ViewAppOptions): ViewApp {
  if (!isLoopbackHost(options.hostname) && !options.authToken) {
    throw new Error(`${options.hostname}: serving the view off loopback requires a bearer token file`);
  }
  const guard = buildGuard(options.hostname, options.allowedHosts ?? [], []);
  const limiter = new FailedAuthLimiter();
  const viewer = viewerKey(options.authToken);
  let refreshed = 0;
  let refreshing: Promise<void> | undefined;
  let agentViews: Promise<AgentView[]> | undefined;
  const streams = new Set<() => void>();
  let closing = false;

  const refresh = async () => {
    if (Date.now() - refreshed < REFRESH_MS) return await refreshing;
    refreshed = Date.now();
    refreshing = Promise.all(options.sources.map((s) => s.refresh())).then(() => {});
    await refreshing;
  };

  /** The runs as this viewer may see them: another owner's program, prints and answer withheld. */
  const visible = async (runs: ViewRun[]): Promise<ViewRun[]> => {
    const me = await viewer;
    if (options.allPrograms) return runs;
    return runs.map((r) =>
      r.owner === undefined || r.owner === me || r.source !== "live"
        ? r
        : { ...r, program: undefined, prints: undefined, answer: undefined, hidden: true }
    );
  };

  const app = new Hono();
  app.use("*", async (c, next) => {
    const rejected = guardResponse(c.req.raw, guard);
    if (rejected) return c.text("forbidden: this view answers only its own host name", 403);
    if (options.authToken) {
      const client = (c.env as { remoteAddr?: string } | undefined)?.remoteAddr ?? "unknown";
      // As on the MCP endpoint, the limiter refuses only failures: the rightful viewer is never locked out.
      const wait = limiter.retryAfter(client);
      const refuse = () => {
        if (wait > 0) return c.text("too many failed attempts", 429, { "Retry-After": String(wait) });
        limiter.fail(client);
        return undefined;
      };
      const offered = c.req.query("token");
      if (offered !== undefined) {
        if (!constantTimeEqual(offered, options.authToken)) return refuse() ?? c.text("unauthorized", 401);
        setCookie(c, COOKIE, offered, { httpOnly: true, sameSite: "Strict", path: "/" });
        const url = new URL(c.req.url);
        url.searchParams.delete("token");
        return c.redirect(`${url.pathname}${url.search}`, 303);
      }
      const cookie = getCookie(c, COOKIE);
      const header = c.req.header("authorization") ?? (cookie ? `Bearer ${cookie}` : null);
      const check = checkBearer(header, options.authToken);
      if (!check.ok) {
        return refuse() ??
          c.text("unauthorized: open this view with ?token=… once, or send Authorization: Bearer", 401, {
            "WWW-Authenticate": check.challenge,
          });
      }
    }
    const nonce = crypto.randomUUID().replaceAll("-", "");
    c.set("nonce" as never, nonce as never);
    await next();
    c.res.headers.set(
      "Content-Security-Policy",
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("Referrer-Policy", "no-referrer");
    c.res.headers.set("Cache-Control", "no-store");
  });
  const nonceOf = (c: Context) => c.get("nonce" as never) as unknown as string;
  const allRuns = async () => await visible(options.sources.flatMap((s) => s.runs()));

  app.get("/", async (c) => {
    await refresh();
    return c.html(runsPage(await allRuns(), filtersOf(c), nonceOf(c), {
      live: options.live !== undefined,
      sources: options.sources.map((s) => s.label),
      problems: options.sources.flatMap((s) => s.problems),
    }));
  });
  app.get("/runs/:id", async (c) => {
    await refresh();
    const run = (await allRuns()).find((r) => r.id === c.req.param("id"));
    if (!run) return c.text("no such run", 404);
    return c.html(runPage(run, nonceOf(c)));
  });
  app.get("/sees", async (c) => {
    agentViews ??= options.agentViews();
    return c.html(seesPage(await agentViews, nonceOf(c)));
  });
  if (options.live) {
    const live = options.live;
    app.get("/events", (c) =>
      streamSSE(c, async (stream) => {
        let wake: () => void = () => {};
        const queue: string[] = [];
        const stop = live.listen((run) => {
          if (queue.length < 100) queue.push(run.id);
          wake();
        });
        const end = () => wake();
        streams.add(end);
        stream.onAbort(end);
        try {
          while (!stream.aborted && !closing) {
            const next = queue.shift();
            if (next !== undefined) await stream.writeSSE({ data: next, event: "message" });
            else await new Promise<void>((r) => (wake = r));
          }
        } finally {
          stop();
          streams.delete(end);
        }
      }));
  }
  return {
    app,
    closeStreams: () => {
      closing = true;
      for (const end of streams) end();
    },
  };
}

/** A running view server. */
export interface ViewServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serve the app on `hostname:port` (port 0: the OS picks). */
export function serveView(view: ViewApp, hostname: string, port: number): Promise<ViewServer> {
  const app = view.app;
  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve(
        {
          hostname,
          port,
          onListen: ({ port }) => {
            const host = hostname.includes(":") ? `[${hostname}]` : hostname;
            resolve({
              url: `http://${host}:${port}/`,
              port,
              close: () => {
                view.closeStreams();
                return server.shutdown();
              },
            });
          },
        },
        (req, info) => app.fetch(req, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname }),
      );
    } catch (e) {
      reject(e);
    }
  });
}
