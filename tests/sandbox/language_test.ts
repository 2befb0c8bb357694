/**
 * The sandbox with the real PTC-Lisp language: limits end runs with their own reason, the pool stays healthy
 * after each, tool calls cross the bridge (pmap concurrently), sessions keep and roll back their namespace.
 */
import assert from "node:assert/strict";
import type { ToolOutcome, ToolRequest } from "../../src/core/tool_seam.ts";
import type { JsonValue } from "../../src/core/json.ts";
import { SandboxPool } from "../../src/sandbox/pool.ts";
import type { SandboxResult } from "../../src/sandbox/protocol.ts";
import type { CallRecord } from "./helpers.ts";

function errorOf(r: SandboxResult): { reason: string; message: string } {
  assert.equal(r.ok, false, `expected a failure, got ${JSON.stringify(r)}`);
  return r as { reason: string; message: string };
}

function valueOf(r: SandboxResult): string {
  assert.equal(r.ok, true, `expected success, got ${JSON.stringify(r)}`);
  return r.ok ? r.printed : "";
}

/** A host whose aggregator `tool/call` sleeps `ms` then answers `{:echo args}` (or a big payload for `blob`). */
function aggregatorHost(ms = 50) {
  const calls: CallRecord[] = [];
  return {
    calls,
    toolNames: ["call"],
    async callTool(request: ToolRequest): Promise<ToolOutcome> {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, ms));
      const tool = String(request.args.tool);
      const value: JsonValue = tool === "blob"
        ? { rows: Array.from({ length: 50_000 }, (_, i) => ({ id: i, text: "t".repeat(80) })) }
        : { echo: request.args.args ?? null };
      calls.push({ request, start, end: performance.now() });
      return { kind: "tagged", ok: true, value, valueKind: "json" };
    },
  };
}

/** Run `body` with a one-worker pool and check after it that the pool still evaluates a program. */
async function withPool(body: (pool: SandboxPool) => Promise<void>, limits = {}): Promise<void> {
  const pool = new SandboxPool({ size: 1, limits });
  try {
    await body(pool);
    assert.equal(valueOf(await pool.evaluate("(+ 40 2)")), "42", "the pool must serve the next program");
  } finally {
    await pool.close();
  }
}

Deno.test("real language: a simple program", () =>
  withPool(async (pool) => {
    assert.equal(valueOf(await pool.evaluate("(reduce + (range 100000))")), "4999950000");
  }));

Deno.test("real language: (loop [] (recur)) times out", () =>
  withPool(async (pool) => {
    const e = errorOf(await pool.evaluate("(loop [] (recur))", { limits: { timeoutMs: 50, maxSteps: 1e12 } }));
    assert.equal(e.reason, "timeout");
    assert.equal(pool.stats().replaced, 0, "the interpreter stopped by itself; the worker is reused");
  }));

Deno.test("real language: step budget", () =>
  withPool(async (pool) => {
    const e = errorOf(await pool.evaluate("(loop [i 0] (recur (inc i)))", { limits: { maxSteps: 10_000 } }));
    assert.equal(e.reason, "step_limit_exceeded");
  }));

Deno.test("real language: allocation budget ends runaway growth with memory_limit", () =>
  withPool(async (pool) => {
    for (
      const src of [
        "(loop [v []] (recur (conj v (vec (range 1000)))))",
        "(reduce (fn [acc _] (into acc acc)) [1] (range 100))",
      ]
    ) {
      const e = errorOf(await pool.evaluate(src, { limits: { maxAllocBytes: 16 * 1024 * 1024 } }));
      assert.equal(e.reason, "memory_limit", src);
    }
  }));

Deno.test("real language: a parse error is reported with its position", () =>
  withPool(async (pool) => {
    const e = errorOf(await pool.evaluate("(+ 1 2"));
    assert.equal(e.reason, "parse_error");
  }));

Deno.test("real language: tool/call crosses the bridge with a multi-MB answer", () =>
  withPool(async (pool) => {
    const host = aggregatorHost(1);
    const r = await pool.evaluate(
      "(let [r (tool/call 'obs/blob {:limit 5})] [(:ok r) (count (get-in r [:value :rows]))])",
      { host },
    );
    assert.equal(valueOf(r), "[true 50000]");
    assert.deepEqual(host.calls[0].request.args, { server: "obs", tool: "blob", args: { limit: 5 } });
  }));

Deno.test("real language: pmap runs its tool calls concurrently, results in order", () =>
  withPool(async (pool) => {
    const host = aggregatorHost(50);
    const r = await pool.evaluate(
      "(pmap (fn [i] (get-in (tool/call 'obs/sleep {:i i}) [:value :echo :i])) (range 10))",
      { host },
    );
    assert.equal(valueOf(r), "[0 1 2 3 4 5 6 7 8 9]");
    assert.equal(host.calls.length, 10);
    const firstEnd = Math.min(...host.calls.map((c) => c.end));
    const lastStart = Math.max(...host.calls.map((c) => c.start));
    assert.ok(lastStart < firstEnd, "all ten calls were in flight at the same time");
  }));

Deno.test("real language: sessions keep defs, closures and *1; a failed evaluation rolls back its defs", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  try {
    assert.equal(valueOf(await session.eval("(def x 10) (defn twice [n] (* 2 n))")), "#'twice");
    assert.equal(valueOf(await session.eval("(twice x)")), "20");
    assert.equal(valueOf(await session.eval("(+ *1 1)")), "21");
    const e = errorOf(await session.eval("(def y 1) (def x 99) (nil-is-not-a-fn)"));
    assert.equal(e.reason, "unbound_var");
    errorOf(await session.eval("(def y 1) (def x 99) (/ 1 0)"));
    assert.equal(valueOf(await session.eval("x")), "10", "x rolled back");
    assert.deepEqual(await session.definedNames(), ["twice", "x"]);
    // a fresh pooled evaluation does not see the session's namespace
    assert.equal(errorOf(await pool.evaluate("x")).reason, "unbound_var");
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("real language: session history *1 *2 *3 and closures over earlier defs", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  try {
    await session.eval("1");
    await session.eval("2");
    await session.eval("3");
    assert.equal(valueOf(await session.eval("[*1 *2 *3]")), "[3 2 1]");
    await session.eval("(def rate 3) (def scale (fn [x] (* rate x)))");
    assert.equal(valueOf(await session.eval("(mapv scale [1 2])")), "[3 6]");
    errorOf(await session.eval("(/ 1 0)"));
    assert.equal(valueOf(await session.eval("*1")), "[3 6]", "a failed evaluation leaves the history alone");
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("real language: a session survives a timeout when the interpreter stops by itself", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  try {
    await session.eval("(def keep 1)");
    const r = await session.eval("(loop [] (recur))", { limits: { timeoutMs: 50, maxSteps: 1e12 } });
    assert.equal(errorOf(r).reason, "timeout");
    assert.equal(r.sessionLost, undefined);
    assert.equal(valueOf(await session.eval("keep")), "1");
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("real language: data and context bindings", () =>
  withPool(async (pool) => {
    const r = await pool.evaluate("[(count data) data/user]", {
      globals: { data: [1, 2, 3] },
      context: { user: "ann" },
    });
    assert.equal(valueOf(r), '[3 "ann"]');
  }));

Deno.test("real language: the production worker entry runs without permissions", async () => {
  const pool = new SandboxPool({ size: 1 });
  try {
    const probe = await pool.probe() as Record<string, unknown>;
    for (const action of ["readFile", "writeFile", "readEnv", "connect", "run"]) {
      assert.equal(probe[action], "NotCapable", action);
    }
  } finally {
    await pool.close();
  }
});

Deno.test("real language: cancelling through an AbortSignal ends a program waiting for a tool", () =>
  withPool(async (pool) => {
    const controller = new AbortController();
    const slow = aggregatorHost(300);
    // cancel once the host holds the first call (a timer raced the program's start under load)
    const host = { ...slow, callTool: (r: ToolRequest) => (setTimeout(() => controller.abort(), 0), slow.callTool(r)) };
    const pending = pool.evaluate("(tool/call 'obs/slow {}) (tool/call 'obs/slow {}) :done", {
      host,
      signal: controller.signal,
    });
    const e = errorOf(await pending);
    assert.equal(e.reason, "cancelled");
    assert.match(e.message, /cancelled by the host/);
    await new Promise((r) => setTimeout(r, 300)); // let the fake tool's timer finish
  }));
