import assert from "node:assert/strict";
import { SandboxPool } from "../../src/sandbox/pool.ts";
import { prestartedPid, prestartSandbox } from "../../src/sandbox/prestart.ts";

/** Whether process `pid` still runs (not gone, not a zombie). */
function running(pid: number): boolean {
  try {
    return !/^\S+ \S+ Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`).replace(/\(.*\)/, "x"));
  } catch {
    return false;
  }
}

Deno.test("prestart: the pool's first process is the one started ahead, with the same command line", async () => {
  prestartSandbox();
  const pid = prestartedPid();
  assert.ok(pid !== undefined && pid > 0, "a process was started (the test runs with the run permission)");
  const pool = new SandboxPool({ size: 1 });
  try {
    assert.equal(prestartedPid(), undefined, "taken by the pool");
    assert.deepEqual(pool.pids(), [pid]);
    const r = await pool.evaluate("(+ 1 2)");
    assert.equal(r.ok && r.json, 3);
  } finally {
    await pool.close();
  }
  assert.equal(running(pid), false, "closing the pool ends it like any other");
});

Deno.test("prestart: a pool with another command line kills the process started ahead and starts its own", async () => {
  prestartSandbox();
  const pid = prestartedPid()!;
  assert.ok(running(pid));
  const pool = new SandboxPool({ size: 1, heapMb: 64 });
  try {
    assert.equal(prestartedPid(), undefined);
    assert.notDeepEqual(pool.pids(), [pid]);
    const r = await pool.evaluate("(+ 1 2)");
    assert.equal(r.ok && r.json, 3);
    for (let i = 0; i < 100 && running(pid); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(running(pid), false, "the unmatched process is gone");
  } finally {
    await pool.close();
  }
});
