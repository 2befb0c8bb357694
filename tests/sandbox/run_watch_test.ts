import assert from "node:assert/strict";
import { watchRun } from "../../src/sandbox/run_watch.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("run watch: a held clock neither aborts nor kills; on release the deadline moves by the time held", async () => {
  const events: string[] = [];
  const watch = watchRun({ timeoutMs: 30, graceMs: 30 }, Date.now(), undefined, {
    abort: (why) => events.push(`abort:${why}`),
    finish: (r) => events.push(`finish:${r.ok ? "ok" : r.reason}`),
    kill: () => events.push("kill"),
  });
  try {
    const release = watch.hold();
    const inner = watch.hold(); // holds nest: only the last release restarts the clock
    await sleep(100);
    assert.deepEqual(events, [], "nothing fires while held, though the deadline passed");
    assert.equal(inner(), 0);
    assert.equal(inner(), 0, "a second release of one hold changes nothing");
    const held = release();
    assert.ok(held >= 100, `held ${held} ms`);
    assert.deepEqual(events, [], "the program keeps the 30 ms it had left");
    await sleep(200);
    assert.deepEqual(events, ["abort:timeout", "finish:timeout", "kill"]);
  } finally {
    watch();
  }
});
