import assert from "node:assert/strict";
import { catalogJson, catalogText, chooseExposure, diffCatalogs, renderCatalog } from "../../src/upstream/catalog.ts";
import { apropos, tokenize } from "../../src/upstream/apropos.ts";
import { typeOf } from "../../src/upstream/signature.ts";
import { start, twoUpstreams } from "./helpers.ts";

Deno.test("catalog: inline text has every tool with its argument signature; lazy has servers only", async () => {
  const rt = await start(twoUpstreams());
  try {
    const inline = renderCatalog(rt, "inline");
    assert.match(inline, /^files \(2 tools\)\n {2}files\/delete-file \[write\] \{\} - Delete a file\n/);
    assert.match(inline, /obs \(9 tools\) - Observatory traces/);
    assert.match(
      inline,
      / {2}obs\/list-traces \{:org-id string :environment "production"\|"staging"\|"development"\? /,
    );
    const lazy = renderCatalog(rt, "lazy");
    assert.equal(lazy.split("\n")[0], "files (2 tools)");
    assert.equal(lazy.split("\n")[1], "obs (9 tools) - Observatory traces");
    assert.match(lazy, /\(dir 'srv\)/);
    assert.equal(renderCatalog(rt, "auto"), lazy, "11 tools > 8 → lazy");
  } finally {
    await rt.stop();
  }
});

Deno.test("catalog: auto picks inline when small", async () => {
  const rt = await start({ upstreams: { one: { transport: "fake", base_url: "https://h", tools: [{ name: "t" }] } } });
  try {
    assert.equal(chooseExposure(rt.catalog(), 8, 800), "inline");
    assert.equal(chooseExposure(rt.catalog(), 8, 5), "lazy");
    assert.equal(renderCatalog(rt), "one (1 tool)\n  one/t {}");
  } finally {
    await rt.stop();
  }
});

Deno.test("catalog: json form round-trips through --diff: added, removed, changed", async () => {
  const rt = await start(twoUpstreams());
  try {
    const now = catalogJson(rt);
    assert.deepEqual(diffCatalogs(now, now), []);
    const old = structuredClone(now) as { servers: { name: string; tools: Record<string, unknown>[] }[] };
    const obs = old.servers.find((s) => s.name === "obs")!;
    obs.tools = obs.tools.filter((t) => t.name !== "hello");
    obs.tools.push({ name: "gone", description: "", inputSchema: {}, annotations: {} });
    obs.tools.find((t) => t.name === "get-trace")!.description = "old text";
    assert.deepEqual(diffCatalogs(old, now), [
      { kind: "removed", ref: "obs/gone" },
      { kind: "added", ref: "obs/hello" },
      { kind: "changed", ref: "obs/get-trace", parts: ["description"] },
    ]);
    assert.throws(() => diffCatalogs({ tools: [] }, now), /not a catalog/);
    assert.match(catalogText(rt), /obs\/list-traces .* -> Result<\{traces \[/);
  } finally {
    await rt.stop();
  }
});

Deno.test("signature: types of schemas", () => {
  assert.equal(typeOf({ type: "integer" }), "int");
  assert.equal(typeOf({ type: ["string", "null"] }), "string|nil");
  assert.equal(typeOf({ anyOf: [{ type: "string" }, { type: "number" }] }), "string|float");
  assert.equal(typeOf({ type: "object" }), "map");
  assert.equal(typeOf({ const: "x" }), '"x"');
  assert.equal(typeOf({ type: "array", items: { type: "boolean" } }), "[bool]");
  assert.equal(typeOf(undefined), "any");
  const deep = {
    type: "array",
    items: { type: "array", items: { type: "array", items: { type: "array", items: {} } } },
  };
  assert.equal(typeOf(deep), "[[[[…]]]]");
  const wide = {
    type: "object",
    properties: Object.fromEntries([..."abcdefghij"].map((k) => [k, { type: "string" }])),
  };
  assert.match(typeOf(wide), /h string\? …\}$/);
});

Deno.test("apropos tokenizer splits camelCase, separators, lower-cases", () => {
  assert.deepEqual(tokenize("getTraceSteps list_traces HTTPServer a.b/c(d),e:f"), [
    "get",
    "trace",
    "steps",
    "list",
    "traces",
    "http",
    "server",
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
  ]);
});

Deno.test("apropos scores: exact 10 / prefix 5 / substring 2, +2 on name tokens, name and description summed", () => {
  const tool = (name: string, description: string) => ({
    name,
    description,
    inputSchema: {},
    annotations: {},
    _ptc: { transport: "t", upstreamName: name },
  });
  const catalog = [{
    name: "obs",
    transport: "t",
    description: "",
    tool_count: 3,
    catalog_loaded: true,
    tools: [
      tool("search-traces", "Find traces by text"),
      tool("get-trace", "Get a trace"),
      tool("other", "untraceable"),
    ],
  }];
  assert.deepEqual(apropos(catalog, "search trace", 8).map((h) => [h.tool, h.score]), [
    ["search-traces", 24],
    ["get-trace", 22],
    ["other", 2],
  ]);
  assert.deepEqual(apropos(catalog, "obs", 2).map((h) => h.score), [12, 12]);
});
