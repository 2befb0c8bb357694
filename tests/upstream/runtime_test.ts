import assert from "node:assert/strict";
import { RuntimeStartError } from "../../src/upstream/runtime.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { failingUpstreams, lifecycle } from "./fake_transport.ts";
import { config, memoryIo, registry, start, twoUpstreams } from "./helpers.ts";
import { startRuntime } from "../../src/upstream/runtime.ts";

const broken = (snapshot: "frozen" | "live") => ({
  upstreams: {
    good: { transport: "fake", base_url: "https://good.example.com", tools: [{ name: "t" }] },
    bad: {
      transport: "fake",
      base_url: "https://bad.example.com",
      tools: [{ name: "t" }],
      fail_start: "connection refused",
    },
  },
  catalog: { snapshot },
});

Deno.test("runtime: frozen start fails fast naming the upstream; started upstreams are stopped", async () => {
  const before = { ...lifecycle };
  await assert.rejects(() => start(broken("frozen")), (e: Error) => {
    assert.ok(e instanceof RuntimeStartError);
    assert.deepEqual(e.problems, ["upstream bad: connection refused {} (check it) [connect_failed]"]);
    return true;
  });
  assert.equal(lifecycle.started - before.started, lifecycle.stopped - before.stopped);
});

Deno.test("runtime: a start error that already names the upstream (once or twice) names it once", async () => {
  for (const failStart of ["upstream bad: connection refused", "upstream bad: upstream bad: connection refused"]) {
    const config = broken("frozen");
    config.upstreams.bad.fail_start = failStart;
    await assert.rejects(() => start(config), (e: Error) => {
      assert.ok(e instanceof RuntimeStartError);
      assert.deepEqual(e.problems, ["upstream bad: connection refused {} (check it) [connect_failed]"]);
      return true;
    });
  }
});

Deno.test("runtime: live start marks a failed upstream unavailable, logs once, calls get upstream_unavailable", async () => {
  const logs: string[] = [];
  const rt = await start(broken("live"), { log: (l) => logs.push(l), retryIntervalMs: 60_000 });
  try {
    assert.equal(logs.length, 1);
    assert.match(logs[0], /upstream bad: connection refused .*marked unavailable/);
    const servers = rt.catalog();
    assert.deepEqual(servers.map((s) => [s.name, s.catalog_loaded, s.tool_count]), [["bad", false, 0], [
      "good",
      true,
      1,
    ]]);
    const { value } = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "call", args: { server: "bad", tool: "t" } }),
    );
    assert.equal(value.kind === "tagged" && !value.ok && value.reason, "upstream_unavailable");
    assert.equal(logs.length, 1, "not retried inside the retry interval, nothing new logged");
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: an upstream that needs an OAuth login answers its calls auth_failed with the start message", async () => {
  const config = broken("live");
  config.upstreams.bad.fail_start = "login_required: not logged in; run `ptc auth login bad`";
  const rt = await start(config, { log: () => {}, retryIntervalMs: 60_000 });
  try {
    const { value } = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "call", args: { server: "bad", tool: "t" } }),
    );
    assert.ok(value.kind === "tagged" && !value.ok);
    assert.equal(value.reason, "auth_failed");
    assert.match(String(value.message), /run `ptc auth login bad`/);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: failurePolicy mark_unavailable keeps a frozen runtime up", async () => {
  const rt = await start(broken("frozen"), { failurePolicy: "mark_unavailable" });
  try {
    assert.equal(rt.diagnostics().catalog_snapshot_mode, "frozen");
    assert.equal((rt.diagnostics().upstreams as Record<string, { status: string }>).bad.status, "unavailable");
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: a missing credential is fatal for frozen start, a warning for live", async () => {
  await assert.rejects(
    () => start(twoUpstreams(), {}, {} as never),
    /credential "tok": environment variable OBS_TOKEN is not set or empty/,
  );
  const logs: string[] = [];
  const rt = await startRuntime(config({ ...twoUpstreams(), catalog: { snapshot: "live" } }), {
    registry,
    credentialIo: memoryIo({}),
    log: (l) => logs.push(l),
  });
  try {
    assert.match(logs[0], /OBS_TOKEN is not set/);
  } finally {
    await rt.stop();
  }
});

Deno.test("runtime: diagnostics are non-secret facts; stop is idempotent", async () => {
  const rt = await start(twoUpstreams());
  const d = rt.diagnostics();
  assert.deepEqual(Object.keys(d).sort(), [
    "catalog_exposure_mode",
    "catalog_snapshot_mode",
    "limits",
    "process_allows_writes",
    "read_only",
    "upstreams",
  ]);
  assert.deepEqual((d.upstreams as Record<string, unknown>).obs, {
    transport: "fake",
    status: "ready",
    tool_count: 9,
    hidden_tools: 0,
    write_tools: 0,
    allow_writes: false,
    base_url: "https://obs.example.com/",
    tools: 9,
  });
  assert.equal((d.limits as Record<string, number>).max_tool_calls, 50);
  assert.ok(!JSON.stringify(d).includes("tok-123"));
  await rt.stop();
  await rt.stop();
  assert.equal((rt.diagnostics().upstreams as Record<string, { status: string }>).obs.status, "stopped");
});

Deno.test("runtime: frozen snapshot is taken once at start", async () => {
  const rt = await start(twoUpstreams());
  try {
    const first = rt.catalog();
    assert.equal(rt.catalog(), first);
    await rt.refresh();
    assert.equal(rt.catalog(), first);
  } finally {
    await rt.stop();
  }
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

Deno.test("runtime: live mode retries an unavailable upstream on the next discovery or call", async () => {
  failingUpstreams.add("later");
  const logs: string[] = [];
  const doc = {
    upstreams: { later: { transport: "fake", base_url: "https://l.example.com", tools: [{ name: "t" }] } },
    catalog: { snapshot: "live" },
  };
  const rt = await start(doc, { log: (l) => logs.push(l), retryIntervalMs: 0 });
  try {
    assert.equal(rt.catalog()[0].catalog_loaded, false);
    const first = await withRunContext(
      rt,
      (ctx) => ctx.callTool({ name: "call", args: { server: "later", tool: "t" } }),
    );
    assert.equal(first.value.kind === "tagged" && !first.value.ok && first.value.reason, "upstream_unavailable");
    assert.equal(logs.length, 1, "the same failure is reported once");
    failingUpstreams.delete("later");
    const { value } = await withRunContext(rt, async (ctx) => [
      await ctx.discovery("servers", {}),
      await ctx.callTool({ name: "call", args: { server: "later", tool: "t" } }),
    ]);
    assert.deepEqual((value[0] as { result: unknown }).result, [
      { name: "later", description: "", tool_count: 1, catalog_loaded: true },
    ]);
    assert.equal(value[1].kind === "tagged" && value[1].ok, true);
  } finally {
    failingUpstreams.delete("later");
    await rt.stop();
  }
});
