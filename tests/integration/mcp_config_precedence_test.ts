/**
 * `ptc mcp` honours the config's limits and catalog exposure unless a flag is given (flag given > config > flag
 * default): with `limits.max_tool_calls: 7`, `limits.max_catalog_ops: 3` and `catalog.exposure: "lazy"` in the config,
 * the `lisp_eval` description, `(budget/remaining)` and a 10-call `pmap` all show the config's numbers; an explicit
 * `--max-tool-calls 9` beats the config. Driven through the official MCP SDK client over stdio.
 */
import assert from "node:assert/strict";
import { applyEdits, modify } from "jsonc-parser";
import { connectStdio, evalLisp, startWorld, textOf } from "./mcp_server_helpers.ts";

async function setKey(path: string, key: (string | number)[], value: unknown) {
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, applyEdits(text, modify(text, key, value, {})));
}

async function description(c: Awaited<ReturnType<typeof connectStdio>>): Promise<string> {
  const { tools } = await c.listTools();
  return tools.find((t) => t.name === "lisp_eval")?.description ?? "";
}

Deno.test("ptc mcp: config limits and catalog.exposure apply unless a flag overrides them", async (t) => {
  const world = await startWorld({ mcp: false });
  try {
    await setKey(world.configPath, ["limits", "max_tool_calls"], 7);
    await setKey(world.configPath, ["limits", "max_catalog_ops"], 3);
    await setKey(world.configPath, ["catalog", "exposure"], "lazy");

    await t.step("the config's numbers, without flags", async () => {
      const c = await connectStdio("auto", ["--upstreams-config", world.configPath]);
      try {
        const d = await description(c);
        assert.match(d, /7 tool calls/);
        assert.match(d, /3 discovery operations/);
        // lazy exposure lists servers only: no tool signature of the Observatory appears.
        assert.doesNotMatch(d, /observatory\/list-traces \{/);
        const remaining = textOf(await evalLisp(c, "(select-keys (budget/remaining) [:tool_calls :discovery_ops])"));
        assert.equal(remaining, "{:discovery_ops 3 :tool_calls 7}");
        const r = textOf(
          await evalLisp(
            c,
            `(count (filter :ok (pmap (fn [i] (tool/call 'observatory/list-traces {:org_id "acme" :limit 1}))
                                      (range 10))))`,
          ),
        );
        assert.match(r, /budget_exhausted|tool call budget|tool_calls/i, r);
      } finally {
        await c.close();
      }
    });

    await t.step("a flag given beats the config", async () => {
      const c = await connectStdio("auto", [
        "--upstreams-config",
        world.configPath,
        "--max-tool-calls",
        "9",
        "--catalog-mode",
        "inline",
      ]);
      try {
        const d = await description(c);
        assert.match(d, /9 tool calls/);
        assert.match(d, /3 discovery operations/);
        assert.match(d, /observatory\/list-traces \{/);
        assert.equal(textOf(await evalLisp(c, "(:tool_calls (budget/remaining))")), "9");
      } finally {
        await c.close();
      }
    });
  } finally {
    await world.close();
  }
});
