/**
 * Names a program controls (argument keys, tool and upstream names) can be megabytes long: the did-you-mean lookup
 * behind their error stays bounded, so the error comes back promptly instead of stalling the host.
 */
import assert from "node:assert/strict";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { seenCalls } from "./fake_transport.ts";
import { start, twoUpstreams } from "./helpers.ts";

const HUGE = "k".repeat(8_000_000);

Deno.test("tool/call: a multi-MB unknown key, tool or upstream name gets its error promptly", async () => {
  const rt = await start(twoUpstreams());
  try {
    seenCalls.length = 0;
    const { value, calls } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool({ name: "call", args: { server: "obs", tool: "list-traces", args: { [HUGE]: 1 } } }),
      await ctx.callTool({ name: "call", args: { server: "obs", tool: HUGE } }),
      await ctx.callTool({ name: "call", args: { server: HUGE, tool: "list-traces" } }),
      await ctx.callTool({ name: "call", args: { server: "obs", tool: "list-traces", [HUGE]: {} } }),
    ]);
    const messages = value.map((o) => (assert.equal(o.kind, "raise"), (o as { message: string }).message));
    assert.match(messages[0], /^tool 'obs\/list-traces' rejected args: k{100}/);
    assert.match(messages[1], /^no tool 'k{100}/);
    assert.match(messages[2], /^no upstream 'k{100}/);
    assert.match(messages[3], /^tool\/call got unknown key "k{100}/);
    for (const m of messages) assert.doesNotMatch(m, /did you mean/);
    assert.equal(seenCalls.length, 0);
    assert.equal(calls.length, 0);
    // No timing assertion here (timings belong in benchmarks): the caps that keep the lookup bounded are tested in
    // tests/core/suggest_test.ts; before them, this test took ~17 s.
  } finally {
    await rt.stop();
  }
});
