/**
 * `ptc catalog --format json` lists the tools an upstream offers that are not installed — refused by the write gate
 * (name, effect, reason) or left out by the config's `tools` mapping — as the text output does, in the shape
 * `ptc doctor --connect --format json` uses for its `withheld` list. A real MCP server over stdio, real subprocesses.
 */
import assert from "node:assert/strict";
import { ROOT, STDIO_FIXTURE } from "../transports/mcp_common/helpers.ts";
import { runDeno } from "../cli/run_deno.ts";

async function ptc(file: string, args: string[]) {
  const out = await runDeno([`${ROOT}/main.ts`, ...args, "--upstreams-config", file], {
    permissions: ["--frozen", "--cached-only", "-A"],
    env: { PTC_ALLOW_WRITES: "" },
  });
  assert.equal(out.code, 0, out.stdout + out.stderr);
  return out.stdout;
}

interface Withheld {
  name: string;
  effect?: string;
  reason: string;
}

Deno.test("catalog --format json: withheld tools with effect and reason, as the text and doctor list them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-catalog-" });
  try {
    const file = `${dir}/upstreams.jsonc`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        allow_writes: true,
        upstreams: {
          fx: {
            transport: "mcp_stdio",
            command: Deno.execPath(),
            args: ["run", "--frozen", "--cached-only", "--allow-env", STDIO_FIXTURE],
            tools: { echo: { effect: "read" }, delete_item: { effect: "write" } },
          },
        },
      }),
    );
    const json = JSON.parse(await ptc(file, ["catalog", "--format", "json"]));
    const fx = json.servers.find((s: { name: string }) => s.name === "fx");
    assert.deepEqual(fx.tools.map((t: { name: string }) => t.name), ["echo"]);
    const withheld = fx.withheld as Withheld[];
    const why = "is a write tool and ptc was started without --allow-writes (or PTC_ALLOW_WRITES=1)";
    assert.deepEqual(withheld[0], { name: "delete-item", effect: "write", reason: why });
    const unmapped = withheld.slice(1);
    assert.ok(unmapped.length > 5, JSON.stringify(withheld));
    assert.ok(unmapped.some((w) => w.name === "purge_items"), "the server's own name");
    for (const w of unmapped) assert.deepEqual(w, { name: w.name, reason: "is not in the config's tools mapping" });

    // the text output lists exactly the same tools with the same reasons
    const text = await ptc(file, ["catalog"]);
    const lines = text.split("\n").filter((l) => l.includes(" — not installed: "));
    assert.deepEqual(lines, withheld.map((w) => `  fx/${w.name} — not installed: ${w.reason}`));

    // doctor --connect lists the write gate's refusals in the same shape
    const doctor = JSON.parse(await ptc(file, ["doctor", "--connect", "--format", "json"]));
    const report = doctor.upstreams.find((u: { name: string }) => u.name === "fx");
    assert.deepEqual(report.withheld, withheld.filter((w) => w.effect !== undefined));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
