/**
 * The write gate: the one place that decides which listed tools are installed (catalog) and callable. A tool's effect
 * is the operator's declaration, else its annotations (only `readOnlyHint: true` reads). A write tool is installed
 * only when the config allows writes (per upstream or globally) AND the process was started with --allow-writes, and
 * never in read-only mode; a refused tool is withheld (never a start failure), and a call to it never reaches the
 * upstream.
 */
import assert from "node:assert/strict";
import { startSettled } from "./settled.ts";
import { join } from "node:path";
import { effectDisagreements, effectOf, installable, installTools } from "../../src/upstream/install.ts";
import { loadConfigFile, processAllowsWrites, type PtcConfig } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { ToolEntry } from "../../src/upstream/types.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { sampleDoc } from "../transports/openapi/helpers.ts";
import { seenCalls } from "./fake_transport.ts";
import { start, twoUpstreams } from "./helpers.ts";

const tool = (name: string, readOnlyHint?: boolean, effect?: "read" | "write"): ToolEntry => ({
  name,
  description: "",
  inputSchema: { type: "object" },
  annotations: readOnlyHint === undefined ? {} : { readOnlyHint },
  ...(effect ? { effect } : {}),
  _ptc: { transport: "test", upstreamName: name.replaceAll("-", "_") },
});

const OPEN = { readOnly: false, configAllowsWrites: true, processAllowsWrites: true };

Deno.test("effectOf: the operator's effect wins; else only readOnlyHint true reads", () => {
  assert.equal(effectOf(tool("t", true)), "read");
  for (const hint of [false, undefined]) assert.equal(effectOf(tool("t", hint)), "write");
  assert.equal(effectOf(tool("t", true, "write")), "write");
  assert.equal(effectOf(tool("t", false, "read")), "read");
});

Deno.test("installable: a write tool needs both switches and no read-only mode; reads always install", () => {
  for (const policy of [OPEN, { readOnly: true }, { readOnly: false }]) {
    assert.deepEqual(installable(tool("t", true), policy), { install: true });
  }
  assert.deepEqual(installable(tool("t", false), OPEN), { install: true });
  const why = (policy: Parameters<typeof installable>[1], t = tool("t", undefined, "write")) => {
    const v = installable(t, policy);
    assert.equal(v.install, false);
    return (v as { why: string }).why;
  };
  // read-only mode comes from the flag or the config key: both are named
  assert.equal(
    why({ ...OPEN, readOnly: true }),
    "is a write tool and ptc runs in read-only mode (--read-only or read_only: true)",
  );
  assert.equal(
    why({ ...OPEN, configAllowsWrites: false }),
    "is a write tool and the config does not allow writes (set allow_writes: true, or allow_writes: true at the top level)",
  );
  // with the upstream known, the refusal names the exact key path to set
  assert.equal(
    why({ ...OPEN, configAllowsWrites: false, upstream: "desk" }),
    "is a write tool and the config does not allow writes (set upstreams.desk.allow_writes: true, or allow_writes: " +
      "true at the top level)",
  );
  assert.equal(
    why({ ...OPEN, processAllowsWrites: false }),
    "is a write tool and ptc was started without --allow-writes (or PTC_ALLOW_WRITES=1)",
  );
  assert.match(why({ readOnly: false }), /does not allow writes .* and ptc was started without --allow-writes/);
  assert.match(why({ readOnly: false }, tool("t")), /^is a write tool \(it is not annotated read-only\) and /);
});

Deno.test("installTools: keeps the upstream's order; installed entries carry their effect; withheld say why", () => {
  const tools = [tool("get-a", true), tool("drop-b", false), tool("c"), tool("get-d", true), tool("e", true, "write")];
  const all = installTools(tools, OPEN);
  assert.deepEqual(all.installed.map((t) => [t.name, t.effect]), [
    ["get-a", "read"],
    ["drop-b", "write"],
    ["c", "write"],
    ["get-d", "read"],
    ["e", "write"],
  ]);
  assert.equal(all.withheld.size, 0);
  const ro = installTools(tools, { readOnly: true, configAllowsWrites: true, processAllowsWrites: true });
  assert.deepEqual(ro.installed.map((t) => t.name), ["get-a", "get-d"]);
  assert.deepEqual([...ro.withheld.keys()], ["drop-b", "c", "e"]);
});

Deno.test("effectDisagreements: only a declared effect the annotations contradict is reported", () => {
  const lines = effectDisagreements([
    tool("delete-all", true, "write"),
    tool("query", false, "read"),
    tool("agree", true, "read"),
    tool("silent", undefined, "write"),
    tool("undeclared", true),
  ]);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^tool 'delete-all' \(delete_all\): the config declares effect "write" but .* claim "read"/);
  assert.match(lines[1], /^tool 'query' \(query\): the config declares effect "read" but .* claim "write"/);
});

Deno.test("runtime: the gate per upstream — config (upstream or global) AND process switch", async () => {
  const names = async (doc: unknown, allowWrites?: boolean) => {
    const rt = await start(doc, { allowWrites });
    try {
      return rt.catalog().find((s) => s.name === "files")!.tools.map((t) => t.name);
    } finally {
      await rt.stop();
    }
  };
  const perUpstream = twoUpstreams();
  const noWrites = twoUpstreams();
  delete (noWrites.upstreams.files as Record<string, unknown>).allow_writes;
  assert.deepEqual(await names(noWrites, true), ["read-file"]);
  assert.deepEqual(await names(perUpstream, false), ["read-file"]);
  assert.deepEqual(await names(perUpstream, true), ["delete-file", "read-file"]);
  const global = { ...noWrites, allow_writes: true };
  assert.deepEqual(await names(global, true), ["delete-file", "read-file"]);
  assert.deepEqual(await names({ ...global, read_only: true }, true), ["read-file"]);
});

Deno.test("runtime: a withheld tool is out of the catalog, counted in diagnostics, and never reaches the upstream", async () => {
  const noWrites = twoUpstreams();
  delete (noWrites.upstreams.files as Record<string, unknown>).allow_writes;
  for (
    const [doc, allowWrites, pattern] of [
      // the config key read_only: the refusal names it, not only the flag
      [twoUpstreams({ read_only: true }), true, /read-only mode \(--read-only or read_only: true\)/],
      [twoUpstreams(), false, /started without --allow-writes/],
      // the upstream's own key path, then the global one
      [noWrites, true, /config does not allow writes \(set upstreams\.files\.allow_writes: true, or allow_writes/],
    ] as const
  ) {
    const rt = await start(doc, { allowWrites });
    try {
      assert.deepEqual(rt.catalog().find((s) => s.name === "files")!.tools.map((t) => t.name), ["read-file"]);
      const files = (rt.diagnostics().upstreams as Record<string, Record<string, unknown>>).files;
      assert.equal(files.tool_count, 1);
      assert.equal(files.hidden_tools, 1);
      seenCalls.length = 0;
      const { value } = await withRunContext(
        rt,
        (ctx) => ctx.callTool({ name: "call", args: { server: "files", tool: "delete-file" } as never }),
      );
      assert.equal(value.kind, "raise");
      assert.match((value as { message: string }).message, /^tool 'files\/delete-file' is a write tool/);
      assert.match((value as { message: string }).message, pattern);
      assert.equal(seenCalls.length, 0, "a withheld tool never reaches the upstream");
      // doc and meta say why it is withheld, like tool/call (not "no tool …, did you mean" another one)
      for (const op of ["doc", "meta"] as const) {
        const { value: d } = await withRunContext(rt, (ctx) => ctx.discovery(op, { ref: "files/delete-file" }));
        assert.equal(d.kind, "programmer_fault");
        assert.match((d as { message: string }).message, /^tool 'files\/delete-file' is a write tool/);
        assert.match((d as { message: string }).message, pattern);
      }
    } finally {
      await rt.stop();
    }
  }
});

Deno.test("processAllowsWrites: the flag, else PTC_ALLOW_WRITES", () => {
  const before = Deno.env.get("PTC_ALLOW_WRITES");
  try {
    Deno.env.delete("PTC_ALLOW_WRITES");
    assert.equal(processAllowsWrites(undefined), false);
    assert.equal(processAllowsWrites(true), true);
    Deno.env.set("PTC_ALLOW_WRITES", "1");
    assert.equal(processAllowsWrites(undefined), true);
    Deno.env.set("PTC_ALLOW_WRITES", "no");
    assert.equal(processAllowsWrites(false), false);
  } finally {
    if (before === undefined) Deno.env.delete("PTC_ALLOW_WRITES");
    else Deno.env.set("PTC_ALLOW_WRITES", before);
  }
});

Deno.test("runtime: read-only mode withholds an included OpenAPI write operation and still starts", async () => {
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
          allow_writes: true,
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
      return await startSettled(config as PtcConfig, { registry, log: () => {}, allowWrites: true });
    };
    await write(false);
    const rt = await run();
    assert.deepEqual(rt.catalog()[0].tools.map((t) => [t.name, t.effect]), [["list-traces", "read"], [
      "ping",
      "write",
    ]]);
    await rt.stop();

    await write(true);
    const ro = await run();
    try {
      assert.deepEqual(ro.catalog()[0].tools.map((t) => t.name), ["list-traces"]);
      assert.match(ro.upstreams.get("obs")!.withheld.get("ping")!, /read-only mode/);
    } finally {
      await ro.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("(budget/remaining) counts down the write budget (max_write_calls) with the tool-call budget", async () => {
  const rt = await start(twoUpstreams({ limits: { max_write_calls: 2 } }), { allowWrites: true });
  try {
    const { value } = await withRunContext(rt, async (ctx) => {
      const before = ctx.remaining();
      await ctx.callTool({ name: "call", args: { server: "files", tool: "delete-file" } as never });
      await ctx.callTool({ name: "call", args: { server: "files", tool: "read-file" } as never });
      return { before, after: ctx.remaining() } as Record<string, Record<string, number>>;
    });
    const { before, after } = value;
    assert.equal(before.write_calls, 2);
    assert.equal(after.write_calls, 1, "the write counted; the read did not");
    assert.equal(before.tool_calls - after.tool_calls, 2);
  } finally {
    await rt.stop();
  }
});
