import assert from "node:assert/strict";
import { join } from "node:path";
import { createEngine } from "../../src/engine/engine.ts";
import { registerBuiltins } from "../../transports/mod.ts";

const STDIO_FIXTURE = new URL("../../fixtures/mcp/stdio.ts", import.meta.url).pathname;

Deno.test("engine result: counts the program's discovery operations (the audit log's discovery_ops)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-results-" });
  const config = join(dir, "upstreams.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      upstreams: {
        fx: {
          transport: "mcp_stdio",
          command: Deno.execPath(),
          args: ["run", "--frozen", "--cached-only", "--allow-env", STDIO_FIXTURE],
        },
      },
    }),
  );
  const engine = await createEngine({ registry: registerBuiltins(), upstreamsConfig: config, poolSize: 1 });
  try {
    const none = await engine.evaluate({ program: "(+ 1 2)" });
    assert.equal(none.discoveryOps, undefined);
    const some = await engine.evaluate({ program: '(tool/servers) (apropos "echo") (dir \'fx) 1' });
    assert.equal(some.ok, true, some.ok ? "" : some.message);
    assert.equal(some.discoveryOps, 3);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true });
  }
});
