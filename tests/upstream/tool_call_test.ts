import assert from "node:assert/strict";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { matchArgNames } from "../../src/upstream/tool_call.ts";
import { seenCalls } from "./fake_transport.ts";
import { start, TRACES_INPUT, twoUpstreams } from "./helpers.ts";

const call = (server: unknown, tool: unknown, args?: unknown) => ({
  name: "call",
  args: { server, tool, ...(args === undefined ? {} : { args }) } as never,
});

Deno.test("tool/call: success is tagged ok with value and value kind; record has redacted args", async () => {
  const rt = await start(twoUpstreams());
  try {
    const report = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(call("obs", "list-traces", { org_id: "acme", limit: 5 })),
      await ctx.callTool(call("obs", "hello")),
      await ctx.callTool(call("obs", "empty")),
    ]);
    assert.deepEqual(report.value[0], {
      kind: "tagged",
      ok: true,
      value: { args: { org_id: "acme", limit: 5 } },
      valueKind: "json",
    });
    assert.deepEqual(report.value[1], { kind: "tagged", ok: true, value: "hello", valueKind: "text" });
    assert.deepEqual(report.value[2], { kind: "tagged", ok: true, value: null, valueKind: "none" });
    assert.equal(report.calls.length, 3);
    const r0 = report.calls[0];
    assert.equal(r0.server, "obs");
    assert.equal(r0.tool, "list-traces");
    assert.equal(r0.status, "ok");
    assert.deepEqual(r0.args, { org_id: "acme", limit: 5 });
    assert.ok(r0.bytes > 0 && r0.duration_ms >= 0);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: programmer faults raise with known names and did-you-mean", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(call("ob", "list-traces")),
      await ctx.callTool(call("obs", "list-trace", { org_id: "a" })),
      await ctx.callTool(call("", "x")),
      await ctx.callTool(call("obs", 3)),
      await ctx.callTool(call("obs", "list-traces", [1])),
      await ctx.callTool({ name: "call", args: { server: "obs", tool: "x", argz: {} } }),
      await ctx.callTool({ name: "fetch", args: {} }),
    ]);
    const msgs = value.map((o) => (assert.equal(o.kind, "raise"), (o as { message: string }).message));
    assert.match(msgs[0], /no upstream 'ob' configured \(did you mean "obs"\?\)\. Configured upstreams: files, obs/);
    assert.match(msgs[1], /no tool 'list-trace' in upstream 'obs' \(did you mean "list-traces"\?\)\. Known tools: /);
    assert.match(msgs[2], /requires :server \(string\)/);
    assert.match(msgs[3], /requires :tool \(string\), got 3/);
    assert.match(msgs[4], /:args must be a map, got a list/);
    assert.match(msgs[5], /unknown key "argz" \(did you mean "args"\?\)/);
    assert.match(msgs[6], /unknown host tool tool\/fetch/);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: arguments validated against the input schema, errors name the argument", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value, calls } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(call("obs", "list-traces", { limit: 500, environment: "prod" })),
      await ctx.callTool(call("obs", "list-traces", { org_id: 7 })),
    ]);
    assert.equal(value[0].kind, "raise");
    const m0 = (value[0] as { message: string }).message;
    assert.match(m0, /tool 'obs\/list-traces' rejected args: /);
    assert.match(m0, /org_id: is required/);
    assert.match(m0, /limit: must be at most 100, got 500/);
    assert.match(m0, /environment: must be one of "production", "staging", "development", got "prod"/);
    assert.match((value[1] as { message: string }).message, /org_id: must be a string, got 7/);
    assert.equal(calls.length, 0, "raised calls made no request and leave no record");
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: argument keys match declared names exactly, then the -/_ variant", () => {
  assert.deepEqual(matchArgNames({ org_id: "a", x_trace_filter: "f" }, TRACES_INPUT), {
    org_id: "a",
    "x-trace-filter": "f",
  });
  assert.deepEqual(matchArgNames({ unknown_key: 1 }, TRACES_INPUT), { unknown_key: 1 });
});

Deno.test("tool/call: the 51st call of a run is cap_exhausted; a new run has a fresh budget", async () => {
  const rt = await start(twoUpstreams());
  try {
    const { value, calls } = await withRunContext(rt, async (ctx) => {
      const out = [];
      for (let i = 0; i < 51; i++) out.push(await ctx.callTool(call("obs", "hello")));
      return out;
    });
    assert.equal(value.filter((o) => o.kind === "tagged" && o.ok).length, 50);
    assert.deepEqual(
      { ...value[50], message: "" },
      { kind: "tagged", ok: false, reason: "cap_exhausted", message: "" },
    );
    assert.equal(calls.length, 51);
    assert.equal(calls[50].reason, "cap_exhausted");
    const second = await withRunContext(rt, (ctx) => ctx.callTool(call("obs", "hello")));
    assert.equal(second.value.kind === "tagged" && second.value.ok, true);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: pmap branches share one context (records and budget), runs never do", async () => {
  const rt = await start(twoUpstreams({ limits: { max_tool_calls: 3 } }));
  try {
    const { value, calls } = await withRunContext(
      rt,
      (ctx) => Promise.all([1, 2, 3, 4].map((i) => ctx.callTool(call("obs", "get-trace", { trace_id: `t${i}` })))),
    );
    assert.equal(calls.length, 4);
    assert.equal(value.filter((o) => o.kind === "tagged" && !o.ok && o.reason === "cap_exhausted").length, 1);
    const other = await withRunContext(rt, (ctx) => ctx.callTool(call("obs", "get-trace", { trace_id: "x" })));
    assert.equal(other.calls.length, 1);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: call timeout → :timeout; run close aborts in-flight calls and later calls fail closed", async () => {
  const rt = await start(twoUpstreams({ limits: { call_timeout_ms: 20 } }));
  try {
    const { value } = await withRunContext(rt, (ctx) => ctx.callTool(call("obs", "slow")));
    assert.equal(value.kind === "tagged" && !value.ok && value.reason, "timeout");
    let stale: ((r: never) => Promise<unknown>) | undefined;
    await withRunContext(rt, (ctx) => {
      stale = (r) => ctx.callTool(r);
    });
    const after = await stale!(call("obs", "hello") as never);
    assert.deepEqual((after as { reason: string }).reason, "run_context_closed");
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: world faults are tagged data; transport exceptions become upstream_error; oversize caught", async () => {
  const rt = await start(twoUpstreams({ limits: { max_response_bytes: 100 } }));
  try {
    const { value, calls } = await withRunContext(rt, async (ctx) => [
      await ctx.callTool(call("obs", "fail")),
      await ctx.callTool(call("obs", "boom")),
      await ctx.callTool(call("obs", "big")),
    ]);
    assert.equal(value[0].kind === "tagged" && !value[0].ok && value[0].reason, "auth_failed");
    assert.equal(value[1].kind === "tagged" && !value[1].ok && value[1].reason, "upstream_error");
    assert.match((value[1] as { message: string }).message, /transport failed: exploded/);
    assert.equal(value[2].kind === "tagged" && !value[2].ok && value[2].reason, "response_too_large");
    assert.deepEqual(calls.map((c) => c.status), ["error", "error", "error"]);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: read-only mode hides and refuses tools not annotated read-only", async () => {
  const rt = await start(twoUpstreams({ read_only: true }));
  try {
    assert.deepEqual(rt.catalog().find((s) => s.name === "files")!.tools.map((t) => t.name), ["read-file"]);
    seenCalls.length = 0;
    const { value } = await withRunContext(rt, (ctx) => ctx.callTool(call("files", "delete-file")));
    assert.equal(value.kind, "raise");
    assert.match((value as { message: string }).message, /not annotated read-only.*read-only mode/);
    assert.equal(seenCalls.length, 0);
  } finally {
    await rt.stop();
  }
});

Deno.test("tool/call: an undeclared argument raises before any request, naming it with did-you-mean", async () => {
  const rt = await start(twoUpstreams());
  try {
    seenCalls.length = 0;
    const { value, calls } = await withRunContext(
      rt,
      (ctx) => ctx.callTool(call("obs", "list-traces", { org_id: "acme", limt: 5 })),
    );
    assert.equal(value.kind, "raise");
    const m = (value as { message: string }).message;
    assert.match(m, /rejected args: limt: unknown argument \(did you mean "limit"\?\)/);
    assert.match(m, /accepted arguments: org_id, environment, limit, x-trace-filter/);
    assert.equal(seenCalls.length, 0);
    assert.equal(calls.length, 0);
  } finally {
    await rt.stop();
  }
});
