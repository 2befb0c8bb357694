import assert from "node:assert/strict";
import { SandboxPool } from "../../src/sandbox/pool.ts";
import { FAKE_CHILD, fakeHost } from "./helpers.ts";

const fast = { timeoutMs: 400, graceMs: 300 };

Deno.test("pool: evaluates on a pre-warmed worker and reports elapsed time", async () => {
  const pool = new SandboxPool({ size: 2, entry: FAKE_CHILD });
  try {
    await pool.warm();
    const r = await pool.evaluate("echo hello");
    assert.equal(r.ok, true);
    if (r.ok) {
      assert.equal(r.printed, '"hello"');
      assert.ok(r.elapsedMs >= 0);
    }
    assert.equal(pool.stats().idle, 2);
  } finally {
    await pool.close();
  }
});

Deno.test("pool: more concurrent evaluations than workers queue and all complete", async () => {
  const pool = new SandboxPool({ size: 2, entry: FAKE_CHILD });
  try {
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => pool.evaluate(`echo ${i}`)));
    assert.deepEqual(results.map((r) => r.ok && r.json), ["0", "1", "2", "3", "4", "5", "6"]);
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: tool call round trip through the mailbox", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = fakeHost();
    const r = await pool.evaluate('call echo {"q":"ü✓","n":[1,2]}', { host });
    assert.equal(r.ok, true);
    assert.deepEqual(r.ok && r.json, { kind: "value", value: { q: "ü✓", n: [1, 2] } });
    assert.equal(host.calls.length, 1);
    assert.deepEqual(host.calls[0].request, { name: "echo", args: { q: "ü✓", n: [1, 2] } });
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: a multi-MB tool result crosses intact", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = fakeHost({ blobBytes: 8 * 1024 * 1024 });
    const expected = JSON.stringify(((await host.callTool({ name: "blob", args: {} })) as { value: unknown }).value)
      .length;
    const r = await pool.evaluate("size blob", { host });
    assert.equal(r.ok, true);
    assert.ok(expected > 8 * 1024 * 1024);
    assert.equal(r.ok && r.json, expected);
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: an answer above the bridge limit becomes response_too_large data", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { maxToolResultBytes: 1024 * 1024 } });
  try {
    const host = fakeHost({ blobBytes: 2 * 1024 * 1024 });
    const r = await pool.evaluate("call blob {}", { host });
    assert.equal(r.ok, true);
    const out = (r.ok ? r.json : null) as { kind: string; reason: string; message: string };
    assert.equal(out.reason, "response_too_large");
    assert.match(out.message, /at most 1048576 bytes/);
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: large tool arguments cross; oversized ones are refused as invalid_tool_args", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = fakeHost();
    const fine = await pool.evaluate("bigargs 3000000", { host });
    assert.equal(fine.ok && fine.json, 3_000_000);
    const tooBig = await pool.evaluate("bigargs 17000000", { host });
    const out = (tooBig.ok ? tooBig.json : null) as { kind: string; reason: string; message: string };
    assert.deepEqual([out.kind, out.reason], ["raise", "invalid_tool_args"]);
    assert.match(out.message, /exceed the bridge limit/);
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: a batch of 10 slow calls runs concurrently (calls overlap)", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = fakeHost({ sleepMs: 50 });
    const r = await pool.evaluate("batch 10", { host });
    assert.equal(r.ok, true);
    const outcomes = (r.ok ? r.json : []) as { value: { i: number } }[];
    assert.deepEqual(outcomes.map((o) => o.value.i), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(host.calls.length, 10);
    // Every call started before the first one finished: they were all in flight at once.
    const firstEnd = Math.min(...host.calls.map((c) => c.end));
    const lastStart = Math.max(...host.calls.map((c) => c.start));
    assert.ok(lastStart < firstEnd, `calls did not overlap: last start ${lastStart}, first end ${firstEnd}`);
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: discovery requests are routed to the host backend", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = {
      ...fakeHost(),
      discovery: (op: string, args: Record<string, unknown>) =>
        Promise.resolve({ kind: "ok" as const, result: { op, args } as never }),
    };
    const r = await pool.evaluate("discover traces", { host });
    assert.deepEqual(r.ok && r.json, { kind: "ok", result: { op: "apropos", args: { pattern: "traces" } } });
  } finally {
    await pool.close();
  }
});

Deno.test("bridge: a host callback that throws becomes a raise outcome, not a host crash", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const host = { toolNames: ["boom"], callTool: () => Promise.reject(new Error("socket closed")) };
    const r = await pool.evaluate("call boom {}", { host });
    assert.deepEqual(r.ok && r.json, {
      kind: "raise",
      reason: "internal_error",
      message: "tool/boom failed in the host: socket closed",
    });
  } finally {
    await pool.close();
  }
});

Deno.test("limits: program size is checked on the host", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { maxProgramBytes: 10 } });
  try {
    const r = await pool.evaluate("echo this is too long");
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, "program_too_large");
    assert.match(!r.ok ? r.message : "", /21 bytes; the limit is 10 bytes/);
  } finally {
    await pool.close();
  }
});

Deno.test("limits: result size", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { maxResultChars: 100 } });
  try {
    const r = await pool.evaluate("big 500");
    assert.equal(!r.ok && r.reason, "result_too_large");
    assert.equal((await pool.evaluate("big 10")).ok, true);
  } finally {
    await pool.close();
  }
});

Deno.test("limits: a cooperative timeout keeps the worker", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: fast });
  try {
    const r = await pool.evaluate("spin");
    assert.equal(!r.ok && r.reason, "timeout");
    assert.equal(pool.stats().replaced, 0);
    assert.equal((await pool.evaluate("echo next")).ok, true);
  } finally {
    await pool.close();
  }
});

Deno.test("limits: a timeout while waiting for a tool wakes the worker", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: fast });
  try {
    const r = await pool.evaluate("call sleep {}", { host: fakeHost({ sleepMs: 900 }) });
    assert.equal(r.ok, true);
    const out = (r.ok ? r.json : null) as { kind: string; reason: string };
    assert.deepEqual([out.kind, out.reason], ["raise", "timeout"]);
    assert.equal(pool.stats().replaced, 0);
    // the late answer of the slow tool must not leak into the next evaluation
    const next = await pool.evaluate('call echo {"n":2}', { host: fakeHost() });
    assert.deepEqual(next.ok && next.json, { kind: "value", value: { n: 2 } });
  } finally {
    await pool.close();
  }
  await new Promise((r) => setTimeout(r, 1_000)); // let the abandoned slow tool's timer finish (op sanitizer)
});

Deno.test("limits: a worker that ignores its deadline is abandoned and replaced", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { timeoutMs: 200, graceMs: 200 } });
  try {
    const r = await pool.evaluate("hang 1500");
    assert.equal(!r.ok && r.reason, "timeout");
    assert.match(!r.ok ? r.message : "", /did not finish within 200 ms/);
    assert.equal((await pool.evaluate("echo alive")).ok, true);
    assert.equal(pool.stats().replaced, 1);
  } finally {
    await pool.close();
  }
});

Deno.test("crash: an interpreter exception is an internal_error and the worker stays usable", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const r = await pool.evaluate("throw");
    assert.equal(!r.ok && r.reason, "internal_error");
    assert.match(!r.ok ? r.message : "", /the interpreter failed: TypeError: interpreter bug/);
    assert.equal((await pool.evaluate("echo ok")).ok, true);
    assert.equal(pool.stats().replaced, 0);
  } finally {
    await pool.close();
  }
});

Deno.test("crash: engine stack and size limits below the interpreter get actionable reasons", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const overflow = await pool.evaluate("overflow");
    assert.equal(!overflow.ok && overflow.reason, "stack_overflow");
    const huge = await pool.evaluate("hugestring");
    assert.equal(!huge.ok && huge.reason, "memory_limit");
    assert.equal((await pool.evaluate("echo ok")).ok, true);
    assert.equal(pool.stats().replaced, 0);
  } finally {
    await pool.close();
  }
});

Deno.test("crash: an uncaught error kills the worker; the pool replaces it", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const r = await pool.evaluate("corrupt");
    assert.equal(!r.ok && r.reason, "internal_error");
    assert.match(!r.ok ? r.message : "", /the sandbox process crashed: .*broken result/);
    assert.equal((await pool.evaluate("echo after crash")).ok, true);
    assert.equal(pool.stats().replaced, 1);
  } finally {
    await pool.close();
  }
});

Deno.test("prints stream to onPrint and come back in the result", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const seen: string[] = [];
    const r = await pool.evaluate("print a|b|c", { onPrint: (l) => seen.push(l) });
    assert.deepEqual(r.prints, ["a", "b", "c"]);
    assert.deepEqual(seen, ["a", "b", "c"]);
  } finally {
    await pool.close();
  }
});

Deno.test("globals and context are sent once per worker and reused", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const globals = { data: [1, 2, 3] };
    const context = { user: "ann" };
    const a = await pool.evaluate("data", { globals, context });
    const b = await pool.evaluate("data", { globals, context });
    const c = await pool.evaluate("data", { globals: { data: [9] } });
    assert.deepEqual(a.ok && a.json, { globals, context });
    assert.deepEqual(b.ok && b.json, { globals, context });
    assert.deepEqual(c.ok && c.json, { globals: { data: [9] }, context: null });
  } finally {
    await pool.close();
  }
});

Deno.test("sessions: defs persist, failures define nothing, reset clears", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  const session = pool.openSession();
  try {
    await session.eval("def a");
    await session.eval("def b");
    assert.equal((await session.eval("def-fail c")).ok, false);
    assert.deepEqual(await session.definedNames(), ["a", "b"]);
    await session.reset();
    assert.deepEqual(await session.definedNames(), []);
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("sessions: an abandoned worker is replaced and the loss is reported", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { timeoutMs: 200, graceMs: 200 } });
  const session = pool.openSession();
  try {
    await session.eval("def a");
    const r = await session.eval("hang 1500");
    assert.equal(!r.ok && r.reason, "timeout");
    assert.equal(r.sessionLost, true);
    assert.match(!r.ok ? r.message : "", /definitions were lost/);
    assert.deepEqual(await session.definedNames(), []);
    assert.equal((await session.eval("def z")).ok, true);
    assert.deepEqual(await session.definedNames(), ["z"]);
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("close: pending evaluations end as cancelled; the closed pool refuses work", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: fast });
  const pending = pool.evaluate("spin");
  await new Promise((r) => setTimeout(r, 50));
  await pool.close();
  const r = await pending;
  assert.equal(!r.ok && r.reason, "cancelled");
  await assert.rejects(() => pool.evaluate("echo x"), /closed/);
});

Deno.test("close: evaluations still queued for a worker end as cancelled", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: fast });
  const running = pool.evaluate("spin");
  const queued = pool.evaluate("echo never");
  await new Promise((r) => setTimeout(r, 50));
  await pool.close();
  assert.equal((await running).ok, false);
  const r = await queued;
  assert.equal(!r.ok && r.reason, "cancelled");
});

Deno.test("workers run with no permissions: no files, no env, no net", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const probe = await pool.probe() as Record<string, unknown> & { permissions: Record<string, string> };
    for (const name of ["read", "write", "net", "env", "run", "ffi", "sys"]) {
      assert.notEqual(probe.permissions[name], "granted", `permission ${name}`);
    }
    for (const action of ["readFile", "writeFile", "readEnv", "connect", "run"]) {
      assert.equal(probe[action], "NotCapable", action);
    }
  } finally {
    await pool.close();
  }
});

Deno.test("poisoning: a request that cannot be handed over discards its process; later programs are served", async () => {
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD });
  try {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const r = await pool.evaluate("data", { context: cyclic as never });
    assert.equal(!r.ok && r.reason, "internal_error");
    assert.match(!r.ok ? r.message : "", /could not be handed to the sandbox .*its process was discarded/s);
    const next = await Promise.all(Array.from({ length: 5 }, (_, i) => pool.evaluate(`echo ${i}`)));
    assert.deepEqual(next.map((n) => n.ok && n.json), ["0", "1", "2", "3", "4"]);
    assert.equal(pool.stats().replaced, 1);
  } finally {
    await pool.close();
  }
});
