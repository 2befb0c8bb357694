/**
 * The install policy: the one place that decides which listed tools are installed (catalog) and callable. Transports
 * list every tool; read-only mode withholds the ones not annotated read-only — silently for server-chosen tools
 * (MCP), as a start failure for operator-chosen ones (OpenAPI `include_operations`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { installable, installTools } from "../../src/upstream/install.ts";
import { loadConfigFile, type PtcConfig } from "../../src/upstream/config.ts";
import { RuntimeStartError, startRuntime } from "../../src/upstream/runtime.ts";
import type { ToolEntry } from "../../src/upstream/types.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { sampleDoc } from "../transports/openapi/helpers.ts";
import { start, twoUpstreams } from "./helpers.ts";

const tool = (name: string, readOnlyHint?: boolean): ToolEntry => ({
  name,
  description: "",
  inputSchema: { type: "object" },
  annotations: readOnlyHint === undefined ? {} : { readOnlyHint },
  _ptc: { transport: "test", upstreamName: name.replaceAll("-", "_") },
});

Deno.test("installable: read-only mode admits only tools annotated read-only", () => {
  const open = { readOnly: false };
  const ro = { readOnly: true };
  for (const hint of [true, false, undefined]) assert.deepEqual(installable(tool("t", hint), open), { install: true });
  assert.deepEqual(installable(tool("t", true), ro), { install: true });
  for (const hint of [false, undefined]) {
    assert.deepEqual(installable(tool("t", hint), ro), {
      install: false,
      why: "is not annotated read-only and ptc runs in read-only mode",
    });
  }
});

Deno.test("installTools: keeps the upstream's order; withheld tools say why; conflicts only for operator choices", () => {
  const tools = [tool("get-a", true), tool("drop-b", false), tool("c"), tool("get-d", true)];
  const all = installTools(tools, { readOnly: false });
  assert.deepEqual(all.installed, tools);
  assert.equal(all.withheld.size, 0);
  const server = installTools(tools, { readOnly: true });
  assert.deepEqual(server.installed.map((t) => t.name), ["get-a", "get-d"]);
  assert.deepEqual([...server.withheld.keys()], ["drop-b", "c"]);
  assert.deepEqual(server.conflicts, []);
  const operator = installTools(tools, { readOnly: true }, "operator");
  assert.deepEqual(operator.installed, server.installed);
  assert.deepEqual(operator.conflicts, [
    "tool 'drop-b' (drop_b) is not annotated read-only and ptc runs in read-only mode",
    "tool 'c' is not annotated read-only and ptc runs in read-only mode",
  ]);
});

Deno.test("runtime: a withheld tool is out of the catalog, counted in diagnostics, and refused before any request", async () => {
  const rt = await start(twoUpstreams({ read_only: true }));
  try {
    assert.deepEqual(rt.catalog().find((s) => s.name === "files")!.tools.map((t) => t.name), ["read-file"]);
    const files = (rt.diagnostics().upstreams as Record<string, Record<string, unknown>>).files;
    assert.equal(files.tool_count, 1);
    assert.equal(files.hidden_tools, 1);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: an included OpenAPI operation read-only mode refuses fails the start, naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-install-" });
  try {
    const doc = sampleDoc();
    (doc.paths as Record<string, { get: Record<string, unknown> }>)["/api/v1/ping"].get["x-ptc-read-only"] = false;
    await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(doc));
    const file = join(dir, "ptc.json");
    const write = (readOnly: boolean) =>
      Deno.writeTextFile(
        file,
        JSON.stringify({
          read_only: readOnly,
          upstreams: {
            obs: {
              transport: "openapi",
              base_url: "https://api.example.com",
              schema_file: "doc.json",
              include_operations: ["list_traces", "ping"],
            },
          },
        }),
      );
    const registry = registerBuiltins();
    const run = async () => {
      const config = await loadConfigFile(file, { registry });
      assert.ok(!Array.isArray(config), JSON.stringify(config));
      return await startRuntime(config as PtcConfig, { registry, log: () => {} });
    };
    await write(false);
    const rt = await run();
    assert.deepEqual(rt.catalog()[0].tools.map((t) => t.name), ["list-traces", "ping"]);
    await rt.stop();

    await write(true);
    const failed = await run().catch((e) => e);
    assert.ok(failed instanceof RuntimeStartError, String(failed));
    assert.equal(failed.problems.length, 1);
    assert.match(
      failed.problems[0],
      /^upstream obs: tool 'ping' is not annotated read-only and ptc runs in read-only mode \(.*\) \[tool_not_installable\]$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
