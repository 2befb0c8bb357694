/**
 * A real loopback upstream answers JSON nested 200,000 deep: the call is a tagged `invalid_response` with a clear
 * message (never an engine "Maximum call stack" error), and the program goes on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPtc } from "./ptc_process.ts";

const DEPTH = 200_000;

const DOC = {
  openapi: "3.0.3",
  info: { title: "deep", version: "1" },
  paths: {
    "/deep": {
      get: {
        operationId: "deep",
        responses: { "200": { description: "nested", content: { "application/json": { schema: {} } } } },
      },
    },
  },
};

Deno.test("deep response: 200k-deep JSON from an upstream is invalid_response, not a stack overflow", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-deep-" });
  const body = "[".repeat(DEPTH) + "]".repeat(DEPTH);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(body, { headers: { "content-type": "application/json" } }),
  );
  try {
    await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(DOC));
    const config = join(dir, "upstreams.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        upstreams: {
          deep: {
            transport: "openapi",
            description: "answers deeply nested JSON",
            base_url: `http://127.0.0.1:${server.addr.port}`,
            schema_file: "doc.json",
            allow_insecure_http: true,
            include_operations: ["deep"],
          },
        },
      }),
    );
    const program = "(let [r (tool/call 'deep/deep {})] [(:ok r) (:reason r) (:message r) (+ 1 2)])";
    const out = await runPtc(["eval", "--upstreams-config", config, program]);
    const stdout = out.stdout;
    assert.equal(out.code, 0, out.stderr);
    assert.match(stdout, /^\[false :invalid_response "[^"]*nests arrays\/objects deeper than 1000 levels[^"]*" 3\]/);
    assert.doesNotMatch(stdout, /call stack/i);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
