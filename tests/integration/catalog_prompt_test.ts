/**
 * `ptc catalog --prompt` prints exactly the `lisp_eval` description that `ptc mcp` serves for the same config and
 * options, as the official MCP SDK client receives it — so an operator sees what the agent sees without a client.
 */
import assert from "node:assert/strict";
import { connectStdio, settledDescription, startWorld } from "./mcp_server_helpers.ts";
import { runPtc } from "./ptc_process.ts";

Deno.test("ptc catalog --prompt equals the lisp_eval description ptc mcp serves", async (t) => {
  const world = await startWorld();
  try {
    for (
      const extra of [[], ["--catalog-mode", "inline"], ["--catalog-mode", "lazy", "--response-profile", "structured"]]
    ) {
      await t.step(extra.join(" ") || "defaults", async () => {
        const printed = await runPtc(["catalog", "--prompt", "--upstreams-config", world.configPath, ...extra]);
        assert.equal(printed.code, 0, printed.stderr);
        const client = await connectStdio("auto", ["--upstreams-config", world.configPath, ...extra]);
        try {
          // ptc mcp starts its upstreams in the background and keeps the description current; catalog --prompt waits
          // for each upstream's first attempt. Read the description once the server's upstreams have made theirs.
          const served = await settledDescription(client);
          assert.equal(printed.stdout.replace(/\n$/, ""), served);
        } finally {
          await client.close();
        }
      });
    }
    const bad = await runPtc(["catalog", "--catalog-mode", "lazy", "--upstreams-config", world.configPath]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--catalog-mode goes with --prompt/);
  } finally {
    await world.close();
  }
});
