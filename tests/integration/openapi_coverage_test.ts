/**
 * OpenAPI coverage, end to end: PTC-Lisp programs in the sandbox call a real loopback HTTP service through the
 * runtime — an API key in the query string (sent with the schema URL too; the service echoes its URL in an error body, a success body and a
 * redirect, and the key is never shown: values, messages, call records, logs), an API key in a cookie, a
 * Stripe-style `application/x-www-form-urlencoded` write the service parses (nested objects and lists in bracket
 * encoding), `deepObject` and `form` object query parameters, and a `text/csv` read.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Hono } from "hono";
import { SandboxPool } from "../../src/sandbox/mod.ts";
import { loadConfigOrThrow } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { startRuntime } from "../../src/upstream/runtime.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { serve } from "../transports/openapi/helpers.ts";

/** Characters that change under URL and form encoding, so every encoded form of the key is checked too. */
const QUERY_KEY = "qk/3y+canary=Zx 9";
const COOKIE_KEY = "ck-canary.7e2/Q";

/** `a[b][0]=x` pairs → nested objects and lists (numeric keys make lists), as Stripe reads a form body. */
function parseBrackets(params: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
        node = container[slot] as Record<string, unknown>;
      }
    });
  }
  return root;
}

function app(): Hono {
  const h = new Hono();
  const keyed = (url: string) => new URL(url).searchParams.get("api_key") === QUERY_KEY;
  h.get("/widgets", (c) => {
    if (!keyed(c.req.url)) return c.json({ message: "no key" }, 401);
    const q = new URLSearchParams(new URL(c.req.url).search);
    q.delete("api_key");
    return c.json({ raw: q.toString(), parsed: parseBrackets(q) });
  });
  h.get("/openapi.json", (c) => keyed(c.req.url) ? c.json(document()) : c.json({ message: "no key" }, 401));
  h.get("/whoami", (c) => c.json({ you_called: c.req.url }));
  h.get("/broken", (c) => c.json({ message: `cannot serve ${c.req.url}` }, 400));
  h.get("/moved", (c) => c.redirect(`/gone?came_from=${encodeURIComponent(c.req.url)}&api_key=${QUERY_KEY}`, 302));
  h.get("/gone", (c) => c.text(`nothing here: ${c.req.url}`, 404));
  h.get("/export.csv", (c) => {
    if (!keyed(c.req.url)) return c.text("no key", 401);
    return c.body("id,status\nw1,open\nw2,closed\n", 200, { "content-type": "text/csv; charset=utf-8" });
  });
  h.post("/v1/charges", async (c) => {
    if (c.req.header("cookie") !== `session=${COOKIE_KEY}`) return c.json({ message: "no session" }, 401);
    if (c.req.header("content-type") !== "application/x-www-form-urlencoded") {
      return c.json({ message: `wrong type ${c.req.header("content-type")}` }, 415);
    }
    const body = new URLSearchParams(await c.req.text());
    return c.json({ id: "ch_1", received: parseBrackets(body), raw: body.toString() });
  });
  return h;
}

const get = (path: string, op: string, parameters: unknown[] = [], response?: unknown) => ({
  [path]: {
    get: {
      operationId: op,
      parameters,
      responses: response ?? { "200": { description: "ok", content: { "application/json": { schema: {} } } } },
    },
  },
});

function document(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "coverage", version: "1" },
    components: {
      securitySchemes: {
        key: { type: "apiKey", in: "query", name: "api_key" },
        session: { type: "apiKey", in: "cookie", name: "session" },
      },
    },
    security: [{ key: [] }],
    paths: {
      ...get("/widgets", "list_widgets", [
        { name: "api_key", in: "query", required: true, schema: { type: "string" } },
        {
          name: "filter",
          in: "query",
          style: "deepObject",
          schema: { type: "object", properties: { status: { type: "string" }, owner: { type: "object" } } },
        },
        {
          name: "range",
          in: "query",
          style: "form",
          explode: true,
          schema: { type: "object", properties: { min: { type: "integer" }, max: { type: "integer" } } },
        },
        {
          name: "color",
          in: "query",
          style: "form",
          explode: false,
          schema: { type: "object", properties: { r: { type: "integer" }, g: { type: "integer" } } },
        },
      ]),
      ...get("/whoami", "whoami"),
      ...get("/broken", "broken"),
      ...get("/moved", "moved"),
      ...get("/export.csv", "export_widgets", [], {
        "200": { description: "csv", content: { "text/csv": { schema: { type: "string" } } } },
      }),
      "/v1/charges": {
        post: {
          operationId: "create_charge",
          security: [{ session: [] }],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["amount", "currency"],
                  properties: {
                    amount: { type: "integer" },
                    currency: { type: "string" },
                    metadata: { type: "object", additionalProperties: { type: "string" } },
                    items: {
                      type: "array",
                      items: { type: "object", properties: { price: { type: "string" }, qty: { type: "integer" } } },
                    },
                    expand: { type: "array", items: { type: "string" } },
                    tags: { type: "array", items: { type: "string" } },
                  },
                },
                encoding: { tags: { style: "form", explode: true } },
              },
            },
          },
          responses: { "200": { description: "ok", content: { "application/json": { schema: {} } } } },
        },
      },
    },
  };
}

Deno.test("OpenAPI coverage: query and cookie keys (never shown), form writes, object query styles, CSV", async () => {
  const server = serve(app());
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-openapi-coverage-" }));
  const logs: string[] = [];
  let pool: SandboxPool | undefined;
  let runtime: Awaited<ReturnType<typeof startRuntime>> | undefined;
  try {
    await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(document()));
    await Deno.writeTextFile(join(dir, "query.key"), QUERY_KEY);
    await Deno.writeTextFile(join(dir, "cookie.key"), COOKIE_KEY);
    const common = {
      transport: "openapi",
      base_url: server.url,
      schema_file: "doc.json",
      allow_insecure_http: true,
      allow_insecure_auth: true,
    };
    await Deno.writeTextFile(
      join(dir, "upstreams.json"),
      JSON.stringify({
        credentials: {
          shop_key: { source: "file", path: "query.key" },
          pay_session: { source: "file", path: "cookie.key" },
        },
        upstreams: {
          shop: {
            ...common,
            schema_file: undefined,
            schema_url: `${server.url}/openapi.json`, // same origin: the query key goes along
            auth: [{ scheme: "query", param: "api_key", binding: "shop_key" }],
            include_operations: ["list_widgets", "whoami", "broken", "moved", "export_widgets"],
          },
          pay: {
            ...common,
            allow_writes: true,
            auth: [{ scheme: "cookie", cookie: "session", binding: "pay_session" }],
            include_operations: ["create_charge"],
            operation_overrides: { create_charge: { effect: "write" } },
          },
        },
      }),
    );
    const registry = registerBuiltins();
    const config = await loadConfigOrThrow(join(dir, "upstreams.json"), { registry });
    runtime = await startRuntime(config, { registry, log: (m) => logs.push(m), allowWrites: true });
    pool = new SandboxPool({ size: 1 });
    await pool.warm();
    const reports: unknown[] = [];
    const run = async (program: string) => {
      const report = await withRunContext(runtime!, (ctx) => pool!.evaluate(program, { host: ctx.callbacks() }));
      reports.push(report);
      const result = report.value;
      if (!result.ok) throw new Error(`program failed: ${result.reason}: ${result.message}`);
      return result.json as Record<string, unknown>;
    };

    // the query key is sent (the service checks it) and is no argument of the tool
    const listed = await run(`(tool/call 'shop/list-widgets {:filter {:status "open" :owner {:team "core"}}
                                                              :range {:min 1 :max 9} :color {:r 1 :g 2}})`);
    assert.equal(listed.ok, true, JSON.stringify(listed));
    const got = listed.value as { raw: string; parsed: Record<string, unknown> };
    assert.equal(
      decodeURIComponent(got.raw),
      "color=r,1,g,2&filter[status]=open&filter[owner][team]=core&min=1&max=9",
    );
    assert.deepEqual(got.parsed.filter, { owner: { team: "core" }, status: "open" });
    const props = runtime.findTool("shop", "list-widgets")?.inputSchema.properties as Record<string, unknown>;
    assert.deepEqual(Object.keys(props).sort(), ["color", "filter", "range"]);

    // the service echoes the URL — in a success body, an error body, and after a redirect: the key never shows
    const whoami = await run(`(:value (tool/call 'shop/whoami {}))`);
    assert.match(String(whoami.you_called), /\/whoami\?.*\[REDACTED\]/);
    const broken = await run(`(tool/call 'shop/broken {})`);
    assert.deepEqual([broken.ok, broken.reason], [false, "upstream_error"]);
    assert.match(String(broken.message), /cannot serve .*\[REDACTED\]/);
    const moved = await run(`(tool/call 'shop/moved {})`);
    assert.deepEqual([moved.ok, moved.reason], [false, "not_found"]);
    assert.match(String(moved.message), /nothing here/);

    // text/csv: the text, bounded like JSON
    const csv = await run(`(let [r (tool/call 'shop/export-widgets {})] [(:value_kind r) (:value r)])`);
    assert.deepEqual(csv, ["text", "id,status\nw1,open\nw2,closed\n"]);
    const rows = await run(`(->> (:value (tool/call 'shop/export-widgets {})) split-lines rest (map #(split % #",")))`);
    assert.deepEqual(rows, [["w1", "open"], ["w2", "closed"]]);

    // a Stripe-style form write with the cookie key: the service parses exactly what the program wrote
    const charge = await run(`(tool/call 'pay/create-charge
      {:amount 2000 :currency "eur" :metadata {:order_id "o-42" "note" "a&b=c"}
       :items [{:price "p_1" :qty 2} {:price "p_2" :qty 1}] :expand ["customer"] :tags ["x" "y"]})`);
    assert.equal(charge.ok, true, JSON.stringify(charge));
    assert.equal(charge.mutation_state, "applied");
    const received = (charge.value as { received: Record<string, unknown> }).received;
    assert.deepEqual(received, {
      amount: "2000",
      currency: "eur",
      metadata: { order_id: "o-42", note: "a&b=c" },
      items: [{ price: "p_1", qty: "2" }, { price: "p_2", qty: "1" }],
      expand: ["customer"],
      tags: "y", // style form, explode: tags=x&tags=y (the bracket parser keeps the last)
    });
    assert.match((charge.value as { raw: string }).raw, /tags=x&tags=y/);

    // nothing anywhere holds a key, in any encoding
    const everything = JSON.stringify(reports) + logs.join("\n");
    for (const secret of [QUERY_KEY, COOKIE_KEY]) {
      for (const form of [secret, encodeURIComponent(secret), new URLSearchParams([["k", secret]]).toString()]) {
        assert.ok(!everything.includes(form.replace(/^k=/, "")), `leaked ${form}`);
      }
    }
  } finally {
    await pool?.close();
    await runtime?.stop();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
