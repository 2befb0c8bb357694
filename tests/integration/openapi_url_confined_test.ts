/**
 * A YAML OpenAPI document served at a URL, used as a user runs ptc: through `bin/ptc` under exactly the flags
 * `ptc permissions` prints — `ptc catalog --operations URL`, `ptc init openapi URL` and a config's `schema_url`. The
 * answer is parsed as YAML (its content type does not say JSON), and the YAML parser reads two debug variables: the
 * printed flags must grant them, or a valid document is reported as "invalid YAML".
 */
import assert from "node:assert/strict";
import { stringify } from "yaml";
import { elsewhere, launchConfined } from "./launcher_helpers.ts";
import { sampleDoc } from "../transports/openapi/helpers.ts";

Deno.test("a YAML document at a URL through bin/ptc: catalog --operations, init and schema_url", async (t) => {
  const yaml = stringify(sampleDoc());
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(yaml, { headers: { "content-type": "application/yaml" } }),
  );
  const cwd = await elsewhere();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/openapi`;
    const face = (args: string[]) => launchConfined(args, { cwd });

    await t.step("catalog --operations URL", async () => {
      const r = await face(["catalog", "--operations", url]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^\+ list_traces +GET /m);
      assert.doesNotMatch(r.stderr, /invalid YAML/);
    });

    await t.step("init openapi URL", async () => {
      const r = await face(["init", "openapi", url, "--base-url", "https://api.example.com"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`"schema_url": "${url}"`));
    });

    await t.step("a config's schema_url", async () => {
      await Deno.writeTextFile(
        `${cwd}/ptc.json`,
        JSON.stringify({
          upstreams: {
            obs: {
              transport: "openapi",
              base_url: `http://127.0.0.1:${server.addr.port}`,
              allow_insecure_loopback: true,
              schema_url: url,
              include_operations: ["list_traces"],
            },
          },
        }),
      );
      const r = await face(["catalog", "--upstreams-config", "ptc.json"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /obs\/list-traces /);
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cwd, { recursive: true });
  }
});
