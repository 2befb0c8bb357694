import assert from "node:assert/strict";
import { SandboxPool } from "../../src/sandbox/mod.ts";

Deno.test("cancel: a CPU-bound program stops promptly and the session keeps its namespace", async () => {
  const pool = new SandboxPool({ size: 1 });
  const session = pool.openSession();
  try {
    assert.equal((await session.eval("(def x 41)")).ok, true);
    const ac = new AbortController();
    const running = session.eval("(loop [] (recur))", { signal: ac.signal, limits: { timeoutMs: 60_000 } });
    setTimeout(() => ac.abort(), 100);
    const r = await running;
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, "cancelled");
    assert.equal(r.sessionLost, undefined, "the interpreter stopped by itself: the worker was kept");
    const next = await session.eval("(inc x)");
    assert.equal(next.ok && next.printed, "42");
    // a stateless pooled evaluation can be cancelled the same way
    const ac2 = new AbortController();
    ac2.abort();
    const r2 = await pool.evaluate("(loop [i 0] (recur (inc i)))", {
      signal: ac2.signal,
      limits: { timeoutMs: 60_000 },
    });
    assert.equal(!r2.ok && r2.reason, "cancelled");
    assert.equal((await pool.evaluate("(+ 1 2)")).ok, true);
  } finally {
    session.close();
    await pool.close();
  }
});
