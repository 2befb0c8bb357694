/** Start errors of the openapi transport as the runtime reports them: each fact and each hint said once. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { registerBuiltins } from "../../../transports/mod.ts";
import { loadConfigFile, type PtcConfig } from "../../../src/upstream/config.ts";
import { startRuntime } from "../../../src/upstream/runtime.ts";

Deno.test("openapi start: a schema over schema_max_bytes names the upstream once and says to raise the cap once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-openapi-start-" });
  try {
    const schema = join(dir, "doc.json");
    await Deno.writeTextFile(schema, JSON.stringify({ openapi: "3.1.0", info: { title: "x".repeat(500) } }));
    const file = join(dir, "ptc.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        upstreams: {
          big: {
            transport: "openapi",
            base_url: "https://api.example.com",
            schema_file: schema,
            schema_max_bytes: 100,
            include_operations: ["x"],
          },
        },
      }),
    );
    const registry = registerBuiltins();
    const config = await loadConfigFile(file, { registry });
    assert.ok(!Array.isArray(config), JSON.stringify(config));
    const logs: string[] = [];
    const rt = await startRuntime(config as PtcConfig, { registry, log: (l) => logs.push(l) });
    try {
      await rt.settle(Date.now() + 10_000);
      const [snapshot] = rt.catalog();
      assert.equal(snapshot.state, "failed");
      const line = snapshot.cause!.message;
      assert.match(line, /^upstream big: schema_file .* exceeds schema_max_bytes \(100\); raise schema_max_bytes/);
      assert.equal(line.split("upstream big").length - 1, 1, line);
      assert.equal(line.split("raise schema_max_bytes").length - 1, 1, line);
      assert.equal(snapshot.cause!.code, "schema_too_large");
      assert.ok(logs.some((l) => l.startsWith(line)), logs.join("\n"));
    } finally {
      await rt.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
