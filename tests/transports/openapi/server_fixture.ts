/**
 * The loopback service used by the OpenAPI integration tests: one route per behaviour (statuses, redirects,
 * slow and dripping responses, oversize bodies, malformed JSON, rotating bearer token) and its OpenAPI document.
 * @module
 */
import { Hono } from "hono";

/** Sleep that ends early (and clears its timer) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** A body that sends one byte every `everyMs` until the client goes away. */
function drip(everyMs: number): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("["));
      const tick = () => {
        try {
          controller.enqueue(new TextEncoder().encode("1,"));
          timer = setTimeout(tick, everyMs);
        } catch {
          timer = undefined;
        }
      };
      timer = setTimeout(tick, everyMs);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
    },
  });
}

/** An endless stream of 1 KiB chunks without Content-Length. */
function flood(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`"${"x".repeat(1022)}",`);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(chunk);
      sent++;
      if (sent > 100_000) controller.close();
    },
  });
}

/**
 * Build the app. `token()` returns the bearer token currently accepted; `crossOrigin()` is a second server's URL;
 * `shutdown` ends slow handlers when the server closes; `onUnauthorized` runs before each 401 of `/secure`.
 */
export function fixtureApp(
  token: () => Promise<string>,
  crossOrigin: () => string,
  shutdown: AbortSignal,
  onUnauthorized: () => Promise<void> = () => Promise.resolve(),
): Hono {
  const app = new Hono();
  app.get("/api/v1/traces", (c) => c.json({ traces: [{ id: "trace-1", org_id: c.req.query("org_id") }] }));
  app.get("/api/v1/traces/:id", (c) => c.json({ id: c.req.param("id") }));
  app.get("/api/v1/traces/:id/steps", (c) => c.json({ steps: [{ name: "a" }, { name: "b" }] }));
  app.get("/status/:code", (c) => {
    const code = Number(c.req.param("code"));
    if (code === 204) return c.body(null, 204);
    if (code === 429) return c.json({ message: "slow down" }, 429, { "retry-after": "30" });
    if (code === 422) return c.json({ title: "Unprocessable", detail: "org_id is unknown: " + "z".repeat(2000) }, 422);
    if (code === 400) return c.text("bad\u0000request\n\n  text", 400);
    return c.json({ error: { message: `status ${code}` } }, code as 200);
  });
  app.get("/empty", (c) => c.body(null, 200));
  app.get("/redirect/same", (c) => c.redirect("/api/v1/traces/from-redirect", 302));
  app.get("/redirect/loop", (c) => c.redirect("/redirect/loop", 302));
  app.get("/redirect/cross", (c) => c.redirect(`${crossOrigin()}/api/v1/traces/stolen`, 302));
  app.get("/slow", async (c) => {
    await sleep(5_000, shutdown);
    return c.json({ late: true });
  });
  app.get("/drip", () => new Response(drip(50), { headers: { "content-type": "application/json" } }));
  app.get("/big", (c) => c.json({ data: "y".repeat(10_000) }));
  app.get("/flood", () => new Response(flood(), { headers: { "content-type": "application/json" } }));
  app.get("/malformed", () => new Response('{"a": [1, 2', { headers: { "content-type": "application/json" } }));
  app.get("/html", (c) => c.html("<html><body>hi</body></html>"));
  app.get("/secure", async (c) => {
    const expected = `Bearer ${await token()}`;
    if (c.req.header("authorization") !== expected) {
      await onUnauthorized();
      return c.json({ detail: `token ${c.req.header("authorization")} rejected` }, 401);
    }
    return c.json({ ok: "authorized" });
  });
  app.get("/echo-secret", (c) => c.json({ title: `bad token ${c.req.header("authorization")}` }, 422));
  return app;
}

function op(id: string, parameters: unknown[] = [], extra: Record<string, unknown> = {}) {
  return {
    get: {
      operationId: id,
      parameters,
      responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      ...extra,
    },
  };
}

const pathParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

/** The OpenAPI document of the fixture app. */
export function fixtureDoc(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "fixture", version: "1" },
    paths: {
      "/api/v1/traces": op("list_traces", [
        { name: "org_id", in: "query", required: true, schema: { type: "string" } },
        { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
        { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } } },
        { name: "ids", in: "query", explode: false, schema: { type: "array", items: { type: "integer" } } },
        { name: "flag", in: "query", schema: { type: "boolean" } },
        { name: "page-size", in: "query", schema: { type: "integer" } },
        { name: "q", in: "query", schema: { type: "string" } },
      ]),
      "/api/v1/traces/{trace_id}": op("get_trace", [pathParam("trace_id")]),
      "/api/v1/traces/{trace_id}/steps": op("list_steps", [pathParam("trace_id")], { "x-ptc-result-path": "steps" }),
      "/status/{code}": op("status", [pathParam("code")]),
      "/empty": op("empty"),
      "/redirect/same": op("redirect_same"),
      "/redirect/loop": op("redirect_loop"),
      "/redirect/cross": op("redirect_cross"),
      "/slow": op("slow"),
      "/drip": op("drip"),
      "/big": op("big"),
      "/flood": op("flood"),
      "/malformed": op("malformed"),
      "/html": op("html"),
      "/secure": op("secure"),
      "/echo-secret": op("echo_secret"),
    },
  };
}

/** Every operationId of {@link fixtureDoc}. */
export function fixtureOperationIds(): string[] {
  return Object.values(fixtureDoc().paths as Record<string, { get: { operationId: string } }>).map((p) =>
    p.get.operationId
  );
}
