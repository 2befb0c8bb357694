import assert from "node:assert/strict";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { UpstreamEvent } from "../../src/upstream/events.ts";
import { failingUpstreams, heldStarts, lifecycle } from "./fake_transport.ts";
import { config, memoryIo, registry, start, twoUpstreams } from "./helpers.ts";
import { type RuntimeOptions, startRuntime } from "../../src/upstream/runtime.ts";
import { ManualClock, settle } from "./manual_clock.ts";

const broken = () => ({
  upstreams: {
    good: { transport: "fake", base_url: "https://good.example.com", tools: [{ name: "t" }] },
    bad: {
      transport: "fake",
      base_url: "https://bad.example.com",
      tools: [{ name: "t" }],
      fail_start: "connection refused",
      reconnect_backoff_ms: 2_000,
    },
  },
  // shorter than the backoff: a call does not wait for the next attempt
  limits: { call_timeout_ms: 1_000 },
});

/** A runtime over the fake registry that starts nothing by itself, with a manual clock. */
async function lazy(doc: unknown, options: RuntimeOptions = {}) {
  const clock = new ManualClock();
  const logs: string[] = [];
  const rt = await startRuntime(config(doc), {
    registry,
    credentialIo: memoryIo({ OBS_TOKEN: "tok-123" }),
    log: (l) => logs.push(l),
    allowWrites: true,
    clock,
    ...options,
  });
  return { rt, clock, logs };
}

const callIn = (rt: Awaited<ReturnType<typeof lazy>>["rt"], server: string, tool: string) =>
  withRunContext(rt, (ctx) => ctx.callTool({ name: "call", args: { server, tool } }));

Deno.test("runtime: first_use starts nothing until a call needs it, and only that upstream", async () => {
  const before = lifecycle.started;
  const { rt } = await lazy(twoUpstreams());
  try {
    assert.equal(lifecycle.started, before, "no upstream started with the runtime");
    assert.deepEqual(rt.catalog().map((s) => [s.name, s.state, s.catalog_loaded]), [
      ["files", "idle", false],
      ["obs", "idle", false],
    ]);
    const { value } = await callIn(rt, "obs", "hello");
    assert.equal(value.kind === "tagged" && value.ok && value.value, "hello");
    assert.equal(lifecycle.started, before + 1);
    assert.deepEqual(rt.catalog().map((s) => s.state), ["idle", "ready"]);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: background starts every upstream without waiting for it", async () => {
  const held = Promise.withResolvers<void>();
  heldStarts.set("obs", held.promise);
  const { rt } = await lazy(twoUpstreams(), { start: "background" });
  try {
    await settle();
    assert.deepEqual(rt.catalog().map((s) => s.state), ["ready", "connecting"], "obs's start is not waited for");
    held.resolve();
    await settle();
    assert.deepEqual(rt.catalog().map((s) => s.state), ["ready", "ready"]);
  } finally {
    heldStarts.delete("obs");
    held.resolve();
    await rt.stop();
  }
});

Deno.test("runtime: a config's start (top level, then per upstream) wins over the face's default", async () => {
  const doc = twoUpstreams({ start: "background" }) as ReturnType<typeof twoUpstreams> & { upstreams: never };
  (doc.upstreams as Record<string, Record<string, unknown>>).files.start = "first_use";
  const { rt } = await lazy(doc, { start: "first_use" });
  try {
    await settle();
    assert.deepEqual(rt.catalog().map((s) => [s.name, s.state]), [["files", "idle"], ["obs", "ready"]]);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: an upstream that cannot start never stops the runtime; its calls say why and when ptc tries again", async () => {
  const { rt, logs } = await lazy(broken(), { start: "background" });
  try {
    await settle();
    const good = await callIn(rt, "good", "t");
    assert.equal(good.value.kind === "tagged" && good.value.ok, true, "the healthy upstream answers");
    const { value } = await callIn(rt, "bad", "t");
    assert.ok(value.kind === "tagged" && !value.ok);
    assert.equal(value.reason, "upstream_unavailable");
    assert.match(
      value.message,
      /^upstream bad is unavailable: connection refused \{\} \(check it\) \[connect_failed\]; ptc tries again in 2 s$/,
    );
    assert.equal(logs.length, 1, logs.join("\n"));
    assert.match(
      logs[0],
      /^upstream bad: connection refused \{\} \(check it\) \[connect_failed\]$/,
    );
    const [bad] = rt.catalog();
    assert.equal(bad.state, "failed");
    assert.equal(bad.cause?.code, "connect_failed");
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: a start error that already names the upstream (once or twice) names it once", async () => {
  for (const failStart of ["upstream bad: connection refused", "upstream bad: upstream bad: connection refused"]) {
    const doc = broken();
    doc.upstreams.bad.fail_start = failStart;
    const { rt } = await lazy(doc, { start: "background" });
    try {
      await settle();
      assert.equal(rt.catalog()[0].cause?.message, "upstream bad: connection refused {} (check it) [connect_failed]");
    } finally {
      await rt.stop();
    }
  }
});

Deno.test("runtime: a failed upstream is tried again after the backoff, not by each call, and then serves", async () => {
  failingUpstreams.add("later");
  const doc = {
    upstreams: {
      later: {
        transport: "fake",
        base_url: "https://l.example.com",
        tools: [{ name: "t" }],
        reconnect_backoff_ms: 1_000,
      },
    },
    limits: { call_timeout_ms: 500 },
  };
  const { rt, clock, logs } = await lazy(doc);
  try {
    const first = await callIn(rt, "later", "t");
    assert.equal(first.value.kind === "tagged" && !first.value.ok && first.value.reason, "upstream_unavailable");
    const again = await callIn(rt, "later", "t");
    assert.match(again.value.kind === "tagged" && !again.value.ok ? again.value.message : "", /tries again in 1 s/);
    assert.equal(logs.length, 1, "the same failure is reported once");
    failingUpstreams.delete("later");
    assert.equal(rt.catalog()[0].state, "failed", "no retry before the backoff");
    await clock.advance(1_000);
    assert.equal(rt.catalog()[0].state, "ready");
    assert.match(logs[1], /upstream later: ready again/);
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("servers", {}),
      await ctx.callTool({ name: "call", args: { server: "later", tool: "t" } }),
    ]);
    assert.deepEqual((value[0] as { result: unknown }).result, [
      { name: "later", description: "", tool_count: 1, catalog_loaded: true, state: "ready", status: "ready" },
    ]);
    assert.equal(value[1].kind === "tagged" && value[1].ok, true);
  } finally {
    failingUpstreams.delete("later");
    await rt.stop();
  }
});

Deno.test("runtime: an upstream that needs an OAuth login answers its calls auth_failed with the start message", async () => {
  const doc = broken();
  doc.upstreams.bad.fail_start = "login_required: not logged in; run `ptc auth login bad`";
  const { rt } = await lazy(doc, { start: "background" });
  try {
    await settle();
    const { value } = await callIn(rt, "bad", "t");
    assert.ok(value.kind === "tagged" && !value.ok);
    assert.equal(value.reason, "auth_failed");
    assert.match(String(value.message), /run `ptc auth login bad`/);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: reconnect_backoff_ms doubles up to reconnect_max_backoff_ms, and ptc keeps trying", async () => {
  failingUpstreams.add("flaky");
  const doc = {
    upstreams: {
      flaky: {
        transport: "fake",
        base_url: "https://f.example.com",
        tools: [{ name: "t" }],
        reconnect_backoff_ms: 100,
        reconnect_max_backoff_ms: 250,
      },
    },
  };
  const { rt, clock } = await lazy(doc, { start: "background" });
  try {
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await settle();
      const [s] = rt.catalog();
      assert.equal(s.state, "failed");
      waits.push(s.next_attempt_at! - clock.now());
      await clock.advance(s.next_attempt_at! - clock.now());
    }
    assert.deepEqual(waits, [100, 200, 250, 250, 250, 250]);
    failingUpstreams.delete("flaky");
    await clock.advance(250);
    assert.equal(rt.catalog()[0].state, "ready", "the eighth attempt works: no attempt limit");
  } finally {
    failingUpstreams.delete("flaky");
    await rt.stop();
  }
});

Deno.test("runtime: a missing credential is logged, never fatal; the upstream using it fails with it when it starts", async () => {
  const logs: string[] = [];
  const rt = await startRuntime(config(twoUpstreams()), {
    registry,
    credentialIo: memoryIo({}),
    log: (l) => logs.push(l),
  });
  try {
    assert.match(logs[0], /OBS_TOKEN is not set/);
    const { value } = await callIn(rt, "obs", "hello");
    assert.ok(value.kind === "tagged" && !value.ok);
    assert.equal(value.reason, "upstream_error");
    assert.match(value.message, /OBS_TOKEN/);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: every phase change and every call record is published as a typed event", async () => {
  const { rt } = await lazy(twoUpstreams());
  const events: UpstreamEvent[] = [];
  const stop = rt.events.subscribe((e) => events.push(e));
  try {
    await callIn(rt, "obs", "hello");
    await callIn(rt, "obs", "nope");
    stop();
    await callIn(rt, "obs", "hello");
    const phases = events.filter((e) => e.type === "phase").map((e) => e.type === "phase" && `${e.from}→${e.to}`);
    assert.deepEqual(phases, ["idle→connecting", "connecting→ready"]);
    const calls = events.filter((e) => e.type === "call");
    assert.equal(calls.length, 1, "the raise of an unknown tool is no call record; unsubscribed after");
    assert.ok(calls[0].type === "call" && calls[0].record.tool === "hello" && calls[0].record.status === "ok");
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: diagnostics are non-secret facts; stop is idempotent", async () => {
  const rt = await start(twoUpstreams());
  const d = rt.diagnostics();
  assert.deepEqual(Object.keys(d).sort(), [
    "catalog_exposure_mode",
    "limits",
    "process_allows_writes",
    "read_only",
    "upstreams",
  ]);
  assert.deepEqual((d.upstreams as Record<string, unknown>).obs, {
    transport: "fake",
    base_url: "https://obs.example.com/",
    tools: 9,
    state: "ready",
    start: "background",
    reconnects: 0,
    tool_count: 9,
    hidden_tools: 0,
    write_tools: 0,
    allow_writes: false,
    max_concurrent_requests: 8,
  });
  assert.equal((d.limits as Record<string, number>).max_tool_calls, 50);
  assert.ok(!JSON.stringify(d).includes("tok-123"));
  await rt.stop();
  await rt.stop();
  assert.equal((rt.diagnostics().upstreams as Record<string, { state: string }>).obs.state, "stopped");
});

Deno.test("runtime: outer abort signal aborts in-flight calls of the run", async () => {
  const rt = await start(twoUpstreams());
  try {
    const outer = new AbortController();
    const { value } = await withRunContext(rt, (ctx) => {
      const p = ctx.callTool({ name: "call", args: { server: "obs", tool: "slow" } });
      outer.abort();
      return p;
    }, { signal: outer.signal });
    assert.equal(value.kind === "tagged" && !value.ok, true);
  } finally {
    await rt.stop();
  }
});
