/**
 * An MCP tool mapping's `pagination` key: parsed with the config (errors name the key), checked against the tool's
 * `inputSchema` when the server lists it (a wrong parameter fails the start), put on the ToolEntry, and followed by
 * `tool/pages` against the real stdio fixture's `list_records` — every page a recorded call the server received.
 */
import assert from "node:assert/strict";
import { parseConfigText, type PtcConfig } from "../../../src/upstream/config.ts";
import { withRunContext } from "../../../src/upstream/run_context.ts";
import { RuntimeStartError, startRuntime } from "../../../src/upstream/runtime.ts";
import type { ConfigError } from "../../../src/upstream/types.ts";
import { registerBuiltins } from "../../../transports/mod.ts";
import { parseToolMap } from "../../../transports/mcp_common/tool_map.ts";
import { toolMapSchema } from "../../../transports/mcp_common/tool_map.ts";
import { stdioFixture } from "./helpers.ts";

const registry = registerBuiltins();

const CURSOR = { style: "cursor", items: "items", cursor_param: "cursor", next_cursor: "next_cursor" };

function configOf(pagination: unknown): PtcConfig {
  const doc = {
    upstreams: {
      fx: {
        ...stdioFixture(),
        tools: { list_records: { effect: "read", as: "records", pagination }, calls_seen: { effect: "read" } },
      },
    },
  };
  const config = parseConfigText(JSON.stringify(doc), Deno.cwd(), { registry });
  assert.ok(!Array.isArray(config), JSON.stringify(config));
  return config as PtcConfig;
}

Deno.test("MCP pagination: tool/pages follows a mapped tool's cursor, one recorded call per page", async () => {
  const rt = await startRuntime(configOf(CURSOR), { registry, log: () => {} });
  try {
    assert.deepEqual(rt.findTool("fx", "records")?.pagination, {
      style: "cursor",
      items: ["items"],
      cursorParam: "cursor",
      nextCursor: ["next_cursor"],
    });
    const { value, calls } = await withRunContext(rt, (ctx) =>
      ctx.callTool({
        name: "pages",
        args: { server: "fx", tool: "records", args: { limit: 3 }, options: {} },
      }));
    const paged = (value as { value: Record<string, unknown> }).value;
    assert.deepEqual(paged.items, ["r01", "r02", "r03", "r04", "r05", "r06", "r07"]);
    assert.equal(paged.complete, true);
    assert.equal(paged.pages, 3);
    assert.deepEqual(calls.map((c) => [c.tool, c.args]), [
      ["records", { limit: 3 }],
      ["records", { limit: 3, cursor: "3" }],
      ["records", { limit: 3, cursor: "6" }],
    ]);
    const { value: seen } = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "call", args: { server: "fx", tool: "calls-seen", args: {} } }),
    );
    assert.equal((seen as { value: Record<string, number> }).value.list_records, 3, "the server received each page");
  } finally {
    await rt.stop();
  }
});

Deno.test("MCP pagination: a parameter the server's tool does not declare fails the start, naming the key", async () => {
  await assert.rejects(
    () => startRuntime(configOf({ ...CURSOR, cursor_param: "page_token" }), { registry, log: () => {} }),
    (e: unknown) => {
      assert.ok(e instanceof RuntimeStartError, String(e));
      assert.match(
        e.message,
        /upstream fx: tools\.list_records\.pagination\.cursor_param: "page_token" is not a parameter of this tool \(parameters: cursor, limit\).*\[tool_mapping_invalid\]/,
      );
      return true;
    },
  );
});

Deno.test("MCP pagination: config errors name the key path; the schema declares the key", () => {
  const errors: ConfigError[] = [];
  parseToolMap(
    {
      a: { effect: "read", pagination: { style: "pages" } },
      b: { effect: "read", pagination: { style: "cursor", items: "items", cursor_param: "c" } },
      c: { effect: "read", pagination: { style: "offset", items: "xs", offset_param: "o", colour: 1 } },
    },
    "upstreams.fx",
    errors,
  );
  assert.deepEqual(errors.map((e) => `${e.path}: ${e.message}`), [
    'upstreams.fx.tools.a.pagination.style: must be "cursor" or "offset", got "pages"',
    'upstreams.fx.tools.b.pagination.next_cursor: must be a key path like "data.items"',
    "upstreams.fx.tools.c.pagination.colour: not a key of offset pagination (style, items, offset_param, limit_param)",
  ]);
  const entry = (toolMapSchema.additionalProperties as { properties: Record<string, unknown> }).properties;
  assert.ok(entry.pagination, "the JSON Schema of a mapping entry declares pagination");
});

Deno.test("MCP pagination: false declares that a mapped tool does not page; tool/pages refuses it and says so", async () => {
  const rt = await startRuntime(configOf(false), { registry, log: () => {} });
  try {
    assert.equal(rt.findTool("fx", "records")?.pagination, false);
    const { value, calls } = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "pages", args: { server: "fx", tool: "records", args: {}, options: {} } }),
    );
    assert.equal(value.kind, "raise");
    assert.match((value as { message: string }).message, /declared that it does not page \(pagination: false\)/);
    assert.equal(calls.length, 0, "nothing was sent");
  } finally {
    await rt.stop();
  }
});
