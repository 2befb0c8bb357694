/**
 * MCP tool mappings through a real stdio MCP server and the runtime: only mapped tools exist, `as` renames,
 * `hidden` keeps a tool callable but out of the prompt catalog, the operator's effect beats the server's annotations
 * (a mislabelled delete), `error_feedback` closed vs bounded, and the fixture's own call counts prove that unmapped,
 * gated and read-only-hidden tools never reach the server.
 */
import assert from "node:assert/strict";
import { parseConfigText, type PtcConfig } from "../../../src/upstream/config.ts";
import { renderInline } from "../../../src/upstream/catalog.ts";
import { withRunContext } from "../../../src/upstream/run_context.ts";
import { type Runtime, startRuntime } from "../../../src/upstream/runtime.ts";
import type { ConfigError } from "../../../src/upstream/types.ts";
import { registerBuiltins } from "../../../transports/mod.ts";
import { errorFeedbackText, parseToolMap } from "../../../transports/mcp_common/tool_map.ts";
import { effectDisagreements } from "../../../src/upstream/install.ts";
import { stdioFixture } from "./helpers.ts";

const registry = registerBuiltins();

const MAPPING = {
  echo: { effect: "read", as: "say" },
  get_user: { effect: "read", description: "One user by id", error_feedback: "closed" },
  fail: { effect: "read" },
  calls_seen: { effect: "read", hidden: true },
  purge_items: { effect: "write" },
  delete_item: { effect: "write", as: "remove-item" },
};

async function startFixture(top: Record<string, unknown>, allowWrites: boolean): Promise<Runtime> {
  const doc = { ...top, upstreams: { fx: { ...stdioFixture(), tools: MAPPING, ...(top.fx as object ?? {}) } } };
  delete (doc as Record<string, unknown>).fx;
  const config = parseConfigText(JSON.stringify(doc), Deno.cwd(), { registry });
  assert.ok(!Array.isArray(config), JSON.stringify(config));
  return await startRuntime(config as PtcConfig, { registry, log: () => {}, allowWrites });
}

async function call(rt: Runtime, tool: string, args: Record<string, unknown> = {}) {
  const { value } = await withRunContext(
    rt,
    (ctx) => ctx.callTool({ name: "call", args: { server: "fx", tool, args } as never }),
  );
  return value as { kind: string; ok?: boolean; value?: unknown; message?: string; reason?: string };
}

async function seen(rt: Runtime): Promise<Record<string, number>> {
  const r = await call(rt, "calls-seen");
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.value as Record<string, number>;
}

Deno.test("tool mapping: only mapped tools, renamed and hidden as the operator says; the gate on writes", async () => {
  const rt = await startFixture({ fx: { allow_writes: true } }, true);
  try {
    const server = rt.catalog()[0];
    assert.deepEqual(
      server.tools.map((t) => [t.name, t.effect]).sort(),
      [
        ["calls-seen", "read"],
        ["fail", "read"],
        ["get-user", "read"],
        ["purge-items", "write"],
        ["remove-item", "write"],
        ["say", "read"],
      ],
    );
    assert.equal(server.tools.find((t) => t.name === "get-user")!.description, "One user by id");
    const prompt = renderInline(rt.catalog());
    assert.ok(!prompt.includes("calls-seen"), "hidden tools stay out of the prompt catalog");
    assert.match(prompt, /fx\/remove-item \[write\]/);
    assert.match((await call(rt, "echo")).message ?? "", /no tool 'echo' in upstream 'fx'/);
    assert.match((await call(rt, "list-items")).message ?? "", /no tool 'list-items'/);
    assert.deepEqual((await call(rt, "say", { a: 1 })).value, { a: 1 });
    assert.deepEqual((await call(rt, "remove-item", { id: "7" })).value, { deleted: "7" });
    const counts = await seen(rt);
    assert.equal(counts.echo, 1);
    assert.equal(counts.delete_item, 1);
    assert.equal(counts.list_items, undefined, "an unmapped tool never reaches the server");
    assert.equal(counts.listItems, undefined);
    assert.deepEqual((rt.diagnostics().upstreams as Record<string, Record<string, unknown>>).fx.unmapped_tools, [
      "listItems",
      "list_items",
      "big",
      "rpc_error",
      "list_records",
      "plain_text",
      "no_content",
      "sleep",
      "env",
      "crash",
    ]);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool mapping: a mislabelled delete declared a write is hidden in read-only mode and never called", async () => {
  for (
    const [top, allowWrites, why] of [
      [{ read_only: true, allow_writes: true }, true, /read-only mode/],
      [{ allow_writes: true }, false, /started without --allow-writes/],
      [{}, true, /config does not allow writes/],
    ] as const
  ) {
    const rt = await startFixture(top, allowWrites);
    try {
      const names = rt.catalog()[0].tools.map((t) => t.name);
      assert.ok(!names.includes("purge-items") && !names.includes("remove-item"), names.join());
      const r = await call(rt, "purge-items");
      assert.equal(r.kind, "raise");
      assert.match(r.message ?? "", /^tool 'fx\/purge-items' is a write tool and /);
      assert.match(r.message ?? "", why);
      const counts = await seen(rt);
      assert.equal(counts.purge_items, undefined, "a gated tool never reaches the server");
      assert.equal(effectDisagreements(rt.upstreams.get("fx")!.upstream!.listTools()).length, 1);
    } finally {
      await rt.stop();
    }
  }
});

Deno.test("tool mapping: error_feedback closed returns only the reason; bounded marks the server text untrusted", async () => {
  const rt = await startFixture({}, false);
  try {
    const closed = await call(rt, "get-user", { user_id: "nobody" });
    assert.equal(closed.ok, false);
    assert.equal(closed.reason, "tool_error");
    assert.ok(!(closed.message ?? "").includes("nobody"), closed.message);
    assert.match(closed.message ?? "", /withheld: error_feedback closed/);
    const bounded = await call(rt, "fail", { reason: "disk full" });
    assert.match(bounded.message ?? "", /untrusted server text follows: "fixture failure: disk full"$/);
  } finally {
    await rt.stop();
  }
  // A JSON-RPC error answering tools/call follows the same rule as an isError result ("mapped": error_feedback left
  // out, so the default, bounded; undefined: no mapping at all, which is bounded and marked untrusted too).
  for (
    const [feedback, expected] of [
      [
        "closed",
        /^upstream fx, tool rpc-error: the server answered with JSON-RPC error -32603 \(its text is withheld: error_feedback closed\)$/,
      ],
      [
        "mapped",
        /^upstream fx, tool rpc-error: the server answered with JSON-RPC error -32603; untrusted server text follows: ".*disk on fire"$/,
      ],
      [
        undefined,
        /^upstream fx, tool rpc-error: the server answered with JSON-RPC error -32603; untrusted server text follows: ".*disk on fire"$/,
      ],
    ] as const
  ) {
    const tools = {
      calls_seen: { effect: "read" },
      rpc_error: feedback === "closed" ? { effect: "read", error_feedback: "closed" } : { effect: "read" },
    };
    const rt2 = await startFixture({ fx: feedback ? { tools } : { tools: undefined } }, false);
    try {
      const r = await call(rt2, "rpc-error", { message: "disk on fire" });
      assert.equal(r.ok, false);
      assert.equal(r.reason, "upstream_error");
      assert.match(r.message ?? "", expected);
      if (feedback === "closed") assert.ok(!(r.message ?? "").includes("fire"), r.message);
    } finally {
      await rt2.stop();
    }
  }
  const long = errorFeedbackText("t", "é".repeat(2000), "bounded");
  const quoted = JSON.parse(long.slice(long.indexOf('"'))) as string;
  assert.ok(new TextEncoder().encode(quoted).length <= 1024 + 3, "at most 1,024 bytes of server text and the ellipsis");
});

Deno.test("write outcomes: applied, not_applied, indeterminate after the server received it; write budget", async () => {
  const config = parseConfigText(
    JSON.stringify({
      allow_writes: true,
      limits: { call_timeout_ms: 300, max_write_calls: 3 },
      upstreams: {
        fx: {
          ...stdioFixture(),
          tools: {
            sleep: { effect: "write" },
            delete_item: { effect: "write" },
            fail: { effect: "write" },
            rpc_error: { effect: "write" },
            calls_seen: { effect: "read" },
          },
        },
      },
    }),
    Deno.cwd(),
    { registry },
  );
  assert.ok(!Array.isArray(config), JSON.stringify(config));
  const rt = await startRuntime(config as PtcConfig, { registry, log: () => {}, allowWrites: true });
  try {
    const applied = await call(rt, "delete-item", { id: "1" });
    assert.equal(applied.ok, true);
    assert.equal((applied as { mutationState?: string }).mutationState, "applied");
    const refused = await call(rt, "fail", { reason: "no" });
    assert.equal((refused as { mutationState?: string }).mutationState, "not_applied");
    // A JSON-RPC error is a complete refusal too (not "may have been applied").
    const rpc = await call(rt, "rpc-error", { message: "no such row" });
    assert.equal(rpc.reason, "upstream_error");
    assert.equal((rpc as { mutationState?: string }).mutationState, "not_applied");
    assert.ok(!(rpc.message ?? "").includes("check the service"), rpc.message);
    const { value, calls } = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "call", args: { server: "fx", tool: "sleep", args: { ms: 1500 } } as never }),
    );
    const late = value as { ok: boolean; reason: string; message: string; mutationState?: string };
    assert.equal(late.reason, "timeout");
    assert.equal(late.mutationState, "indeterminate");
    assert.match(late.message, /may or may not have been applied; check the service before repeating it/);
    assert.equal(calls[0].mutation_state, "indeterminate");
    // The fixture received it, exactly once (no retry).
    assert.equal((await seen(rt)).sleep, 1);
    // max_write_calls: the fourth write of one run is never sent.
    const { value: fourth } = await withRunContext(rt, async (ctx) => {
      for (let i = 0; i < 3; i++) {
        await ctx.callTool({ name: "call", args: { server: "fx", tool: "delete-item", args: { id: "x" } } as never });
      }
      return await ctx.callTool({
        name: "call",
        args: { server: "fx", tool: "delete-item", args: { id: "y" } } as never,
      });
    });
    const capped = fourth as { reason: string; mutationState?: string; message: string };
    assert.equal(capped.reason, "cap_exhausted");
    assert.equal(capped.mutationState, "not_applied");
    assert.match(capped.message, /max_write_calls/);
    assert.equal((await seen(rt)).delete_item, 4, "1 + 3 sent; the capped one never reached the server");
  } finally {
    await rt.stop();
  }
});

Deno.test("tool mapping: config errors name the key", () => {
  const errors: ConfigError[] = [];
  parseToolMap(
    {
      a: { as: "Bad_Name", effect: "read" },
      b: {},
      c: { effect: "read", as: "x" },
      d: { effect: "write", as: "x", colour: 1 },
    },
    "upstreams.fx",
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "upstreams.fx.tools.a.as",
    "upstreams.fx.tools.b.effect",
    "upstreams.fx.tools.d.colour",
    "upstreams.fx.tools.d.as",
  ]);
  assert.match(errors[3].message, /already the name of mapped tool "c"/);
});
