import assert from "node:assert/strict";
import type { ToolOutcome } from "../../src/core/tool_seam.ts";
import { SandboxPool } from "../../src/sandbox/mod.ts";

Deno.test("cancel: a CPU-bound program stops promptly; its process is replaced and the session continues", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  try {
    assert.equal((await session.eval("(def x 41)")).ok, true);
    const ac = new AbortController();
    const running = session.eval("(loop [] (recur))", {
      signal: ac.signal,
      // no step budget in the way: on a quiet machine the default one runs out before the cancel arrives
      limits: { timeoutMs: 60_000, maxSteps: Number.MAX_SAFE_INTEGER },
    });
    setTimeout(() => ac.abort(), 100);
    const r = await running;
    assert.equal(!r.ok && r.reason, "cancelled");
    // A busy process cannot read the cancel: it is killed and the session moves to a fresh one (the REPL replays).
    assert.equal(r.sessionLost, true);
    const next = await session.eval("(def x 1) (inc x)");
    assert.equal(next.ok && next.printed, "2");
    // a pooled evaluation cancelled before it starts never runs (an already-aborted signal fires no abort event, so
    // it used to run until a budget ended it), and the pool keeps serving
    const ac2 = new AbortController();
    ac2.abort();
    const r2 = await pool.evaluate("(loop [i 0] (recur (inc i)))", {
      signal: ac2.signal,
      limits: { timeoutMs: 60_000 },
    });
    assert.equal(!r2.ok && r2.reason, "cancelled");
    assert.equal(!r2.ok && r2.message, "the evaluation was cancelled before it started");
    assert.equal((await pool.evaluate("(+ 1 2)")).ok, true);
  } finally {
    session.close();
    await pool.close();
  }
});

Deno.test("cancel: a session program waiting for a tool stops at once and keeps its process and namespace", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  const ac = new AbortController();
  // The cancel is sent once the host holds the call, so the program is provably waiting for the tool (a timer
  // raced the program's start under load); the tool answers only after the test is over.
  let release = () => {};
  const answered = new Promise<ToolOutcome>((r) => release = () => r({ kind: "value", value: 1 }));
  const noCancel = setTimeout(() => release(), 20_000); // a cancel that never lands fails the test instead of hanging
  const host = {
    toolNames: ["call"],
    callTool: () => {
      setTimeout(() => ac.abort(), 0);
      return answered;
    },
  };
  try {
    assert.equal((await session.eval("(def x 41)")).ok, true);
    const pid = session.pid;
    const r = await session.eval("(tool/call 'obs/slow {}) :never", { host, signal: ac.signal });
    assert.equal(!r.ok && r.reason, "cancelled");
    assert.equal(r.sessionLost, undefined);
    assert.equal(session.pid, pid, "the same process serves the session");
    const next = await session.eval("(inc x)");
    assert.equal(next.ok && next.printed, "42");
  } finally {
    clearTimeout(noCancel);
    release();
    session.close();
    await pool.close();
  }
});
