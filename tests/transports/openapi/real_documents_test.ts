/**
 * Request building for the shapes real documents use, end to end through `ptc eval` against a strict loopback mock
 * (it answers 406 to a wrong Accept and 400 to an unexpected query, as a validating mock does): a vendor `+json`
 * response type, a `#fragment` and a query string in path templates, parameter names mixing `-` and `_`, an
 * X-Api-Key custom_header, and a 4xx validation list reaching the program's `:message` bounded, redacted and marked untrusted.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { serve } from "./helpers.ts";
import { runDeno } from "../../cli/run_deno.ts";

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;
const CANARY = "canary-token-5b1e0d";

function strictMock(): Hono {
  const app = new Hono();
  const exactQuery = (c: { req: { url: string } }, expected: string) => new URL(c.req.url).search === expected;
  app.get("/repos", (c) => {
    if (c.req.header("accept") !== "application/vnd.acme.v3+json") return c.json({ message: "not acceptable" }, 406);
    return c.json([{ name: "ptc" }], 200, { "content-type": "application/vnd.acme.v3+json" });
  });
  app.get("/folders/:id", (c) => c.json({ id: c.req.param("id"), kind: "folder" }));
  app.get("/alerts", (c) => {
    if (!exactQuery(c, "?lat=48.8&lon=2.3&units=si")) return c.json({ message: `bad query ${c.req.url}` }, 400);
    return c.json({ alerts: [] });
  });
  app.get("/", (c) => {
    if (!exactQuery(c, "?Action=DescribeThings&Version=2016-11-15&MaxResults=5")) {
      return c.json({ message: "bad query" }, 400);
    }
    return c.json({ things: ["a"] });
  });
  app.get("/keyed", (c) => c.json({ keyed: c.req.header("x-api-key") === CANARY }));
  app.get("/pages", (c) => c.json({ got: new URL(c.req.url).search }));
  app.get("/validate", (c) =>
    c.json(
      {
        type: "https://example.com/probs/invalid",
        title: "Invalid request",
        errors: [
          { field: "owner", message: `must not be ${CANARY}` },
          { source: { pointer: "/data/name" }, detail: "too long\u0000\n\nreally" },
          ...Array.from({ length: 30 }, (_, i) => ({ loc: ["query", `f${i}`], msg: "x".repeat(400) })),
        ],
      },
      422,
      { "content-type": "application/problem+json" },
    ));
  return app;
}

const json200 = (type = "application/json") => ({
  "200": { description: "ok", content: { [type]: { schema: { type: ["object", "array"] } } } },
});

function mockDoc(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "real shapes", version: "1" },
    paths: {
      "/repos": { get: { operationId: "list_repos", responses: json200("application/vnd.acme.v3+json") } },
      "/folders/{id}#get": {
        get: {
          operationId: "get_folder",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: json200(),
        },
      },
      "/alerts?lat={lat}&lon={lon}": {
        get: {
          operationId: "alerts",
          parameters: [
            { name: "lat", in: "path", required: true, schema: { type: "number" } },
            { name: "lon", in: "path", required: true, schema: { type: "number" } },
            { name: "units", in: "query", schema: { type: "string" } },
          ],
          responses: json200(),
        },
      },
      "/?Action=DescribeThings&Version=2016-11-15#aws": {
        get: {
          operationId: "describe_things",
          parameters: [{ name: "MaxResults", in: "query", schema: { type: "integer" } }],
          responses: json200(),
        },
      },
      "/pages": {
        get: {
          operationId: "pages",
          parameters: [
            { name: "page-size_max", in: "query", schema: { type: "integer" } },
            { name: "sort_order-key", in: "query", schema: { type: "string" } },
          ],
          responses: json200(),
        },
      },
      "/validate": { get: { operationId: "validate", responses: json200() } },
      "/keyed": { get: { operationId: "keyed", responses: json200() } },
    },
  };
}

function evalJson(config: string, program: string, env: Record<string, string> = {}) {
  return runDeno([MAIN, "eval", "--format", "json", "--upstreams-config", config, "-"], { stdin: program, env });
}

async function withMock(fn: (config: string) => Promise<void>) {
  const server = serve(strictMock());
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/doc.json`, JSON.stringify(mockDoc()));
    await Deno.writeTextFile(`${dir}/tok`, CANARY);
    const config = `${dir}/ptc.jsonc`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        credentials: { tok: { source: "file", path: "tok" } },
        upstreams: {
          real: {
            transport: "openapi",
            base_url: server.url,
            schema_file: "doc.json",
            allow_insecure_http: true,
            allow_insecure_auth: true,
            auth: [{ scheme: "bearer", binding: "tok" }],
            include_operations: ["list_repos", "get_folder", "alerts", "describe_things", "pages", "validate"],
          },
          keyed: {
            transport: "openapi",
            base_url: server.url,
            schema_file: "doc.json",
            allow_insecure_http: true,
            allow_insecure_auth: true,
            auth: [{ scheme: "custom_header", header: "X-Api-Key", binding: "tok" }],
            include_operations: ["keyed"],
          },
        },
      }),
    );
    await fn(config);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("real documents: Accept, fragments, query templates and mixed names all reach the strict mock", async () => {
  await withMock(async (config) => {
    const r = await evalJson(
      config,
      `[(tool/call 'real/list-repos {})
        (tool/call 'real/get-folder {:id "f 1"})
        (tool/call 'real/alerts {:lat 48.8 :lon 2.3 :units "si"})
        (tool/call 'real/describe-things {:MaxResults 5})
        (tool/call 'real/pages {:page-size_max 3 :sort_order-key "a"})
        (tool/call 'keyed/keyed {})]`,
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const out = JSON.parse(r.stdout);
    for (const call of out.value) assert.equal(call.ok, true, JSON.stringify(call));
    assert.deepEqual(out.value.map((call: { value: unknown }) => call.value), [
      [{ name: "ptc" }],
      { id: "f 1", kind: "folder" },
      { alerts: [] },
      { things: ["a"] },
      { got: "?page-size_max=3&sort_order-key=a" },
      { keyed: true },
    ]);
  });
});

Deno.test("real documents: a 4xx validation list reaches :message bounded, redacted, marked untrusted", async () => {
  await withMock(async (config) => {
    const r = await evalJson(config, `(:message (tool/call 'real/validate {}))`);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const message: string = JSON.parse(r.stdout).value;
    assert.match(message, /^GET \/validate: HTTP 422 \(bad request\): upstream says \(untrusted\) «Invalid request — /);
    assert.match(message, /owner: must not be \[REDACTED/);
    assert.match(message, /\/data\/name: too long really/);
    assert.ok(!message.includes(CANARY), message);
    assert.ok(message.length < 700, `bounded: ${message.length}`);
    assert.match(message, /»$/);
  });
});
