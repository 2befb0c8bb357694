/**
 * `tool/pages` through the real runtime and OpenAPI transport against a loopback server: offset and cursor styles,
 * every stop (last page, :max-pages, :max-items, the tool-call budget, the response cap, a repeated cursor, a failed
 * page), the records of every page, and descriptor errors that fail the start with their key path.
 */
import assert from "node:assert/strict";
import { parseConfigText, type PtcConfig } from "../../src/upstream/config.ts";
import { type Runtime, startRuntime } from "../../src/upstream/runtime.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { parsePagination } from "../../src/upstream/pagination.ts";
import { renderDoc } from "../../src/upstream/signature.ts";
import { registerBuiltins } from "../../transports/mod.ts";

const ITEMS = Array.from({ length: 23 }, (_, i) => ({ n: i, label: `item-${i}` }));

function doc(): Record<string, unknown> {
  const json = (schema: unknown) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
  const q = (name: string, schema: unknown) => ({ name, in: "query", schema });
  return {
    openapi: "3.1.0",
    info: { title: "Pages", version: "1" },
    paths: {
      "/items": {
        get: {
          operationId: "list_items",
          parameters: [q("offset", { type: "integer", minimum: 0 }), q("limit", { type: "integer", default: 5 })],
          "x-ptc-pagination": { style: "offset", items: "data.items", offset_param: "offset", limit_param: "limit" },
          responses: json({ type: "object" }),
        },
      },
      "/cursor": {
        get: {
          operationId: "cursor_items",
          parameters: [q("cursor", { type: "string" })],
          responses: json({ type: "object" }),
        },
      },
      "/loop": {
        get: {
          operationId: "loop_items",
          parameters: [q("cursor", { type: "string" })],
          "x-ptc-pagination": { style: "cursor", items: "items", cursor_param: "cursor", next_cursor: "next" },
          responses: json({ type: "object" }),
        },
      },
      "/flaky": {
        get: {
          operationId: "flaky_items",
          parameters: [q("cursor", { type: "string" })],
          "x-ptc-pagination": { style: "cursor", items: "items", cursor_param: "cursor", next_cursor: "next" },
          responses: json({ type: "object" }),
        },
      },
      "/plain": { get: { operationId: "plain", responses: json({ type: "object" }) } },
      // Undeclared: a cursor argument and a result with one list and a next_cursor — inferred.
      ...Object.fromEntries(["inferred", "optout", "ambiguous"].map((name) => [`/${name}`, {
        get: {
          operationId: `${name}_items`,
          parameters: [q("cursor", { type: "string" })],
          responses: json({
            type: "object",
            properties: {
              items: { type: "array", items: { type: "object" } },
              next_cursor: { type: ["string", "null"] },
              ...(name === "ambiguous" ? { warnings: { type: "array", items: { type: "string" } } } : {}),
            },
          }),
        },
      }])),
    },
  };
}

function serve(): { url: string; hits: string[]; stop: () => Promise<void> } {
  const hits: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const u = new URL(req.url);
    hits.push(u.pathname + u.search);
    const cursor = u.searchParams.get("cursor");
    if (u.pathname === "/openapi.json") return Response.json(doc());
    if (u.pathname === "/items") {
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const limit = Number(u.searchParams.get("limit") ?? 5);
      return Response.json({ data: { items: ITEMS.slice(offset, offset + limit) } });
    }
    if (u.pathname === "/cursor" || u.pathname === "/flaky") {
      const at = Number(cursor ?? 0);
      if (u.pathname === "/flaky" && at >= 8) return new Response("down", { status: 503 });
      const next = at + 4 < ITEMS.length ? String(at + 4) : null;
      return Response.json({ items: ITEMS.slice(at, at + 4), next });
    }
    if (["/inferred", "/optout", "/ambiguous"].includes(u.pathname)) {
      const at = Number(cursor ?? 0);
      const next_cursor = at + 10 < ITEMS.length ? String(at + 10) : null;
      return Response.json({ items: ITEMS.slice(at, at + 10), next_cursor, warnings: [] });
    }
    if (u.pathname === "/loop") return Response.json({ items: [{ n: 1 }], next: "again" });
    return Response.json({ ok: true });
  });
  const addr = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${addr.port}`, hits, stop: () => server.shutdown() };
}

async function start(url: string, overrides: unknown = {}, limits: unknown = {}): Promise<Runtime> {
  const registry = registerBuiltins();
  const cfg = parseConfigText(
    JSON.stringify({
      upstreams: {
        pg: {
          transport: "openapi",
          base_url: url,
          schema_url: `${url}/openapi.json`,
          allow_insecure_http: true,
          include_operations: [
            "list_items",
            "cursor_items",
            "loop_items",
            "flaky_items",
            "plain",
            "inferred_items",
            "optout_items",
            "ambiguous_items",
          ],
          operation_overrides: {
            cursor_items: {
              pagination: { style: "cursor", items: "items", cursor_param: "cursor", next_cursor: "next" },
            },
            optout_items: { pagination: false },
            ...(overrides as object),
          },
        },
      },
      limits,
    }),
    "/cfg",
    { registry },
  );
  assert.ok(!Array.isArray(cfg), JSON.stringify(cfg));
  return await startRuntime(cfg as PtcConfig, { registry, log: () => {} });
}

const pages = (tool: string, args: unknown = {}, options: unknown = {}) => ({
  name: "pages",
  args: { server: "pg", tool, args, options } as never,
});

type Paged = {
  items: { n: number }[];
  complete: boolean;
  pages: number;
  stopped: string | null;
  message?: string;
  next: unknown;
};

function value(o: unknown): Paged {
  const out = o as { kind: string; value: Paged };
  assert.equal(out.kind, "value", JSON.stringify(o));
  return out.value;
}

Deno.test("tool/pages: offset and cursor styles, every cap, every page recorded and budgeted", async () => {
  const srv = serve();
  const rt = await start(srv.url, {}, { max_tool_calls: 12 });
  try {
    const r = await withRunContext(rt, async (ctx) => [
      value(await ctx.callTool(pages("list-items"))), // 5 pages of 5 … the 5th has 3 → complete: 5 calls
      value(await ctx.callTool(pages("cursor-items", {}, { max_pages: 2 }))), // 2 calls, stopped
      value(await ctx.callTool(pages("cursor-items", {}, { "max-items": 6 }))), // 2 calls, 6 items
      value(await ctx.callTool(pages("loop-items"))), // 2 calls: the second cursor repeats
      value(await ctx.callTool(pages("cursor-items"))), // budget: 1 call left of 12 → the 2nd page is refused
    ]);
    const [offset, maxPages, maxItems, loop, budget] = r.value;
    assert.deepEqual(offset.items.map((x) => x.n), ITEMS.map((x) => x.n));
    assert.deepEqual([offset.complete, offset.pages, offset.stopped], [true, 5, null]);
    assert.deepEqual([maxPages.complete, maxPages.pages, maxPages.stopped, maxPages.items.length], [
      false,
      2,
      "max_pages",
      8,
    ]);
    assert.match(maxPages.message!, /:max-pages 2/);
    // the page that reaches :max-items is kept whole, so :next resumes right after the last item
    assert.deepEqual([maxItems.items.length, maxItems.stopped, maxItems.next], [8, "max_items", "8"]);
    assert.deepEqual([loop.stopped, loop.pages, loop.items.length], ["repeated_cursor", 2, 2]);
    assert.deepEqual([budget.complete, budget.stopped, budget.items.length], [false, "cap_exhausted", 4]);
    assert.match(budget.message!, /tool call budget exhausted: at most 12 calls/);
    // every page is one record; the refused one is recorded as refused
    assert.equal(r.calls.length, 13);
    assert.equal(r.calls.filter((c) => c.reason === "cap_exhausted").length, 1);
    assert.ok(srv.hits.includes("/items?offset=20&limit=5") || srv.hits.some((h) => h.startsWith("/items?offset=20")));
  } finally {
    await rt.stop();
    await srv.stop();
  }
});

Deno.test("tool/pages: resuming from :next after :max-items repeats and skips nothing (cursor and offset)", async () => {
  const srv = serve();
  const rt = await start(srv.url);
  try {
    const { value: got } = await withRunContext(rt, async (ctx) => {
      const out: number[][] = [];
      for (const [tool, param, limit] of [["cursor-items", "cursor", {}], ["list-items", "offset", { limit: 5 }]]) {
        const seen: number[] = [];
        let args: Record<string, unknown> = { ...(limit as object) };
        for (let round = 0; round < 20; round++) {
          const r = value(await ctx.callTool(pages(tool as string, args, { max_items: 3 })));
          seen.push(...r.items.map((x) => x.n));
          if (r.complete) break;
          assert.equal(r.stopped, "max_items");
          args = { ...args, [param as string]: r.next };
        }
        out.push(seen);
      }
      return out;
    });
    for (const seen of got) assert.deepEqual(seen, ITEMS.map((x) => x.n));
  } finally {
    await rt.stop();
    await srv.stop();
  }
});

Deno.test("tool/pages: an undeclared cursor/next_cursor tool is followed (inferred, said in doc); false and ambiguity are not", async () => {
  const srv = serve();
  const rt = await start(srv.url);
  try {
    const inferred = rt.findTool("pg", "inferred-items")!;
    assert.deepEqual(inferred.pagination, {
      style: "cursor",
      items: ["items"],
      cursorParam: "cursor",
      nextCursor: ["next_cursor"],
      inferred: true,
    });
    assert.match(renderDoc("pg", inferred), /\nPages: inferred from cursor\/next_cursor \(the operator declared none/);
    assert.equal(rt.findTool("pg", "optout-items")!.pagination, false, "the operator's false wins");
    assert.equal(rt.findTool("pg", "ambiguous-items")!.pagination, undefined, "two lists: nothing inferred");
    assert.equal(rt.findTool("pg", "plain")!.pagination, undefined);
    const { value: out } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(pages("inferred-items")),
      await ctx.callTool(pages("optout-items")),
      await ctx.callTool(pages("ambiguous-items")),
    ]);
    const all = value(out[0]);
    assert.deepEqual([all.complete, all.pages, all.items.map((x) => x.n)], [true, 3, ITEMS.map((x) => x.n)]);
    assert.match((out[1] as { message: string }).message, /declared that it does not page \(pagination: false\)/);
    assert.match((out[2] as { message: string }).message, /none could be inferred from its schemas/);
  } finally {
    await rt.stop();
    await srv.stop();
  }
});

Deno.test("tool/pages: a failed page keeps the items so far and names the reason; the response cap bounds the items", async () => {
  const srv = serve();
  const rt = await start(srv.url, {}, { max_response_bytes: 300 });
  try {
    const r = await withRunContext(rt, async (ctx) => [
      value(await ctx.callTool(pages("flaky-items"))),
      value(await ctx.callTool(pages("list-items", { limit: 5 }))),
    ]);
    const [flaky, capped] = r.value;
    assert.deepEqual([flaky.stopped, flaky.pages, flaky.items.length], ["upstream_unavailable", 3, 8]);
    assert.match(flaky.message!, /^page 3: /);
    assert.equal(capped.stopped, "response_too_large");
    assert.ok(JSON.stringify(capped.items).length <= 300, JSON.stringify(capped.items).length.toString());
    assert.ok(capped.items.length > 0);
  } finally {
    await rt.stop();
    await srv.stop();
  }
});

Deno.test("tool/pages: a tool without pagination, unknown tools and bad options are programmer faults", async () => {
  const srv = serve();
  const rt = await start(srv.url);
  try {
    const { value: out, calls } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(pages("plain")),
      await ctx.callTool(pages("lst-items")),
      await ctx.callTool(pages("list-items", {}, { max_pages: 0 })),
      await ctx.callTool(pages("list-items", {}, { pages: 3 })),
    ]);
    const msgs = out.map((o) => (assert.equal(o.kind, "raise", JSON.stringify(o)), (o as { message: string }).message));
    assert.match(msgs[0], /'pg\/plain' cannot be followed by tool\/pages: it declares no pagination.*tool\/call/);
    assert.match(msgs[1], /no tool 'lst-items' in upstream 'pg' \(did you mean "list-items"\?\)/);
    assert.match(msgs[2], /:max-pages must be an integer 1\.\.1000, got 0/);
    assert.match(msgs[3], /unknown option :pages/);
    assert.equal(calls.length, 0, "no page was requested");
  } finally {
    await rt.stop();
    await srv.stop();
  }
});

Deno.test("pagination descriptors: each problem names its key; a parameter the tool lacks fails the start", async () => {
  const params = ["cursor", "limit", "offset"];
  assert.deepEqual(
    parsePagination({ style: "cursor", items: "a.b", cursor_param: "cursor", next_cursor: "n" }, "p", params),
    {
      style: "cursor",
      items: ["a", "b"],
      cursorParam: "cursor",
      nextCursor: ["n"],
    },
  );
  assert.deepEqual(parsePagination({ style: "pages" }, "p", params), [
    'p.style: must be "cursor" or "offset", got "pages"',
  ]);
  const bad = parsePagination({ style: "offset", items: "", offset_param: "skip", cursor_param: "c" }, "p", params);
  assert.ok(Array.isArray(bad));
  assert.match(bad.join("\n"), /p\.cursor_param: not a key of offset pagination/);
  assert.match(
    bad.join("\n"),
    /p\.offset_param: "skip" is not a parameter of this tool \(parameters: cursor, limit, offset\)/,
  );

  const srv = serve();
  try {
    await assert.rejects(
      () =>
        start(srv.url, { plain: { pagination: { style: "cursor", items: "x", cursor_param: "c", next_cursor: "n" } } }),
      /operation_overrides\.plain\.pagination\.cursor_param: "c" is not a parameter/,
    );
  } finally {
    await srv.stop();
  }
});
