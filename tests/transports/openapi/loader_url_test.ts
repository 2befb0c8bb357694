/** schema_url loading through the transport against a loopback server. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { stringify } from "yaml";
import openapi from "../../../transports/openapi/mod.ts";
import { UpstreamStartError } from "../../../src/upstream/types.ts";
import { configContext, makeDeps, serve } from "./helpers.ts";
import { fixtureDoc } from "./server_fixture.ts";

const SECRET = "schema-url-secret-42";

Deno.test("openapi schema_url: JSON and YAML, auth reused on the same origin, caps and statuses", async () => {
  const app = new Hono();
  app.get("/doc.json", (c) => c.json(fixtureDoc()));
  app.get("/doc.yaml", (c) => c.body(stringify(fixtureDoc()), 200, { "content-type": "application/yaml" }));
  app.get("/missing", (c) => c.json({ detail: "nope" }, 404));
  app.get("/away", (c) => c.redirect("http://localhost:1/doc.json", 302));
  const server = serve(app);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/tok`, SECRET);
    const start = async (schemaPath: string, extra: Record<string, unknown> = {}) => {
      const deps = makeDeps([{ name: "tok", source: "file", path: `${dir}/tok` }]);
      const parsed = openapi.parseConfig({
        transport: "openapi",
        base_url: server.url,
        schema_url: `${server.url}${schemaPath}`,
        allow_insecure_http: true,
        allow_insecure_auth: true,
        auth: [{ scheme: "bearer", binding: "tok" }],
        include_operations: ["list_traces", "get_trace"],
        ...extra,
      }, configContext("fx", ["tok"]));
      if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
      return await openapi.start(parsed, deps);
    };
    for (const path of ["/doc.json", "/doc.yaml"]) {
      const up = await start(path);
      assert.deepEqual(up.listTools().map((t) => t.name), ["list-traces", "get-trace"]);
      assert.equal(server.seen.at(-1)!.headers["authorization"], `Bearer ${SECRET}`);
      await up.stop();
    }
    const problems: [string, Record<string, unknown>, RegExp][] = [
      ["/doc.json", { schema_max_bytes: 100 }, /exceeded 100 bytes; raise schema_max_bytes/],
      ["/missing", {}, /schema_url http:\/\/127\.0\.0\.1:\d+\/missing: the server answered HTTP 404/],
      ["/away", {}, /refused a redirect to another origin/],
    ];
    for (const [path, extra, re] of problems) {
      await assert.rejects(start(path, extra), (e: Error) => {
        assert.ok(e instanceof UpstreamStartError);
        assert.match(e.message, /^upstream fx: /);
        assert.match(e.message, re);
        assert.ok(!e.message.includes(SECRET));
        return true;
      });
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openapi start: compile problems become one UpstreamStartError with one line each", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/doc.json`, JSON.stringify(fixtureDoc()));
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: "https://api.example.com",
      schema_file: `${dir}/doc.json`,
      include_operations: ["list_trace", "statuss"],
    }, configContext("fx"));
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    await assert.rejects(openapi.start(parsed, makeDeps()), (e: Error) => {
      assert.ok(e instanceof UpstreamStartError);
      assert.equal(e.code, "openapi_compile_failed");
      const lines = e.message.split("\n");
      assert.equal(lines.length, 2);
      assert.match(
        lines[0],
        /^upstream fx: upstreams\.fx\.include_operations\[0\]: .*\(did you mean "list_traces"\?\)/,
      );
      assert.match(lines[1], /\(did you mean "status"\?\)/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
