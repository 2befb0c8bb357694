import assert from "node:assert/strict";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { start, twoUpstreams } from "./helpers.ts";
import { renderCatalog } from "../../src/upstream/catalog.ts";

Deno.test("discovery: servers lists name, description, tool_count, catalog_loaded (sorted)", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value, catalogOps } = await withRunContext(rt, (ctx) => ctx.discovery("servers", {}));
    assert.deepEqual(value, {
      kind: "ok",
      keywordKeys: true,
      result: [
        { name: "files", description: "", tool_count: 2, catalog_loaded: true },
        { name: "obs", description: "Observatory traces", tool_count: 9, catalog_loaded: true },
      ],
    });
    assert.deepEqual(catalogOps.map((o) => [o.operation, o.outcome]), [["servers", "ok"]]);
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: dir lists srv/tool - description sorted, with limit/offset; bad opts raise", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("dir", { ref: "obs", limit: 2, offset: 1 }),
      await ctx.discovery("dir", { ref: "files" }),
      await ctx.discovery("dir", { ref: "obs", limit: 0 }),
      await ctx.discovery("dir", { ref: "nope" }),
    ]);
    assert.deepEqual(value[0], { kind: "ok", result: ["obs/boom - ", "obs/empty - "] });
    assert.deepEqual(value[1], {
      kind: "ok",
      result: ["files/delete-file [write] - Delete a file", "files/read-file - "],
    });
    assert.equal(value[2].kind, "programmer_fault");
    assert.match((value[2] as { message: string }).message, /dir :limit must be an integer 1\.\.200, got 0/);
    assert.match((value[3] as { message: string }).message, /no upstream 'nope' configured/);
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: doc shows typed args (required first, ?, enums, defaults) and the result shape", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value } = await withRunContext(rt, (ctx) => ctx.discovery("doc", { ref: "obs/list-traces" }));
    assert.equal(value.kind, "ok");
    const text = (value as { result: string }).result;
    assert.equal(
      text,
      [
        "obs/list-traces",
        "List traces",
        'Args: {:org-id string :environment "production"|"staging"|"development"? :limit int? :x-trace-filter string?}',
        "  :org-id string — Organization id",
        '  :environment "production"|"staging"|"development"?',
        "  :limit int? — 1..100, default 20",
        "  :x-trace-filter string?",
        'Returns: Result<{traces [{id string, status "ok"|"error", cost_usd float}], next_cursor string?}>',
        `Call: (tool/call 'obs/list-traces {:org-id "…"})`,
        "Effect: read",
      ].join("\n"),
    );
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: meta carries schemas, annotations and _ptc provenance; bad refs raise", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("meta", { ref: "obs/get-trace" }),
      await ctx.discovery("meta", { ref: "obs" }),
      await ctx.discovery("doc", { ref: "obs/get-trac" }),
    ]);
    const meta = (value[0] as { result: Record<string, unknown> }).result;
    assert.equal(meta.server, "obs");
    assert.equal(meta.name, "get-trace");
    assert.deepEqual(meta._ptc, { transport: "fake", upstreamName: "get-trace", method: "GET", path: "/get-trace" });
    assert.deepEqual(meta.annotations, { readOnlyHint: true });
    assert.match((value[1] as { message: string }).message, /meta requires upstream\/tool ref, got "obs"/);
    assert.match(
      (value[2] as { message: string }).message,
      /no tool 'get-trac' in upstream 'obs' \(did you mean "get-trace"\?\)/,
    );
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: apropos ranks name matches over description matches and caps the result", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("apropos", { query: "trace" }),
      await ctx.discovery("apropos", { query: "trace", limit: 1 }),
      await ctx.discovery("apropos", { query: "  " }),
      await ctx.discovery("apropos", { query: "zzz" }),
    ]);
    assert.deepEqual((value[0] as { result: string[] }).result, [
      "obs/get-trace - Get one trace by id",
      "obs/list-traces - List traces",
    ]);
    assert.deepEqual((value[1] as { result: string[] }).result, ["obs/get-trace - Get one trace by id"]);
    assert.equal(value[2].kind, "programmer_fault");
    assert.deepEqual(value[3], { kind: "ok", result: [] });
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: budget and result size are world faults; closed context fails closed", async () => {
  const rt = await start(twoUpstreams({ limits: { max_catalog_ops: 1, max_catalog_result_bytes: 64 } }));
  try {
    const { value, catalogOps } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("dir", { ref: "obs" }),
      await ctx.discovery("servers", {}),
    ]);
    assert.equal(value[0].kind === "world_fault" && value[0].reason, "catalog_result_too_large");
    assert.equal(value[1].kind === "world_fault" && value[1].reason, "catalog_cap_exhausted");
    assert.deepEqual(catalogOps.map((o) => o.reason), ["catalog_result_too_large", "catalog_cap_exhausted"]);
    let stale: (() => Promise<unknown>) | undefined;
    await withRunContext(rt, (ctx) => {
      stale = () => ctx.discovery("servers", {});
    });
    assert.equal(((await stale!()) as { reason: string }).reason, "run_context_closed");
  } finally {
    await rt.stop();
  }
});

Deno.test("discovery: one tool count — hidden tools are counted and callable, left out of dir and apropos; (doc 'srv) says so", async () => {
  const long = "Runbooks of the platform team, one Markdown page per error class (symptoms, causes, checks, " +
    "mitigation). Read one with read-text-file and the page's name; the index lists every page there is.";
  const rt = await start({
    upstreams: {
      books: {
        transport: "fake",
        description: long,
        base_url: "https://books.example.com",
        tools: [
          { name: "read-text-file", description: "Read a page" },
          { name: "list-pages", description: "List the pages" },
          { name: "raw-dump", description: "Dump every page", hidden: true },
        ],
      },
    },
  });
  try {
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("servers", {}),
      await ctx.discovery("dir", { ref: "books" }),
      await ctx.discovery("apropos", { query: "page dump" }),
      await ctx.discovery("doc", { ref: "books" }),
      await ctx.discovery("doc", { ref: "books/raw-dump" }),
      await ctx.callTool({ name: "call", args: { server: "books", tool: "raw-dump", args: {} } }),
    ]);
    const result = (i: number) => (value[i] as { result: unknown }).result;
    assert.equal((result(0) as { tool_count: number }[])[0].tool_count, 3, "hidden tools are counted");
    assert.deepEqual(result(1), ["books/list-pages - List the pages", "books/read-text-file - Read a page"]);
    assert.ok(!(result(2) as string[]).some((l) => l.includes("raw-dump")), JSON.stringify(result(2)));
    assert.equal(
      result(3),
      `books (fake upstream)\n${long}\nTools: 3 installed and callable, 1 of them hidden (callable, left out of dir ` +
        "and apropos); (dir 'books) lists them, (doc 'books/tool) documents one.",
    );
    assert.match(String(result(4)), /^books\/raw-dump\nDump every page/);
    assert.equal((value[5] as { ok: boolean }).ok, true, "a hidden tool stays callable");
    // the prompt's server line: the same count, the description cut at a word with the rest one doc away
    const text = renderCatalog(rt, "inline", new Map([["books/read-text-file", "notes"]]));
    const header = text.split("\n")[0];
    assert.match(header, /^books \(3 tools; 1 hidden; 1 used through library notes: read-text-file\) - Runbooks/);
    assert.match(header, / page's name; the… \(doc 'books\) has the rest$/);
    assert.deepEqual(text.split("\n").slice(1), ["  books/list-pages {} - List the pages"]);
    assert.match(renderCatalog(rt, "lazy"), /^books \(3 tools; 1 hidden\) - /);
  } finally {
    await rt.stop();
  }
});
