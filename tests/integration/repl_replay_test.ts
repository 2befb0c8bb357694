/**
 * When a session's worker has to be replaced (a cancel it did not honour in time, an abandoned evaluation), the REPL
 * re-creates its definitions: a def that fetched data from the Observatory gets the same value back from the recorded
 * answer, without a second request to the service. Also: the engine's record/replay and cancellation, directly.
 */
import assert from "node:assert/strict";
import { createEngine } from "../../src/engine/engine.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { ReplCore } from "../../src/repl/core.ts";
import { makeStyle } from "../../src/repl/style.ts";
import type { AuditEntry } from "../../fixtures/observatory/mod.ts";
import { startReplWorld } from "./repl_fixture.ts";
import { LOSE_WORKER, losingSession } from "../repl/lost_session.ts";

Deno.test("replay: defs holding tool results survive a lost worker without re-fetching", async () => {
  const requests: AuditEntry[] = [];
  const world = await startReplWorld({ onRequest: (e) => requests.push(e) });
  const engine = await createEngine({
    registry: registerBuiltins(),
    upstreamsConfig: world.configPath,
    upstreamStart: "background",
    poolSize: 1,
  });
  const session = losingSession(await engine.openSession());
  const out: string[] = [];
  const err: string[] = [];
  const core = new ReplCore(engine, session, { out: (s) => out.push(s), err: (s) => err.push(s) }, makeStyle(false), {
    timeoutMs: 5_000,
  });
  try {
    const fetched = '(def errors (tool/call \'observatory/list-traces {:org_id "acme" :status "error" :limit 7}))';
    assert.equal((await core.submit(fetched)).ok, true, err.join("\n"));
    assert.equal((await core.submit("(def ids (mapv :id (get-in errors [:value :traces])))")).ok, true);
    await core.submit('(defn fresh-page [] (tool/call \'observatory/list-traces {:org_id "acme" :limit 1}))');
    await core.submit("ids");
    const before = out.at(-1)!;
    const listCalls = () => requests.filter((r) => r.operation === "list_traces").length;
    assert.equal(listCalls(), 1);

    assert.equal((await core.submit(LOSE_WORKER)).ok, false);
    assert.match(err.join("\n"), /cancelled: the sandbox was shut down during the evaluation/);
    assert.match(
      err.join("\n"),
      /re-ran 3 definition\(s\) from source \(tool answers replayed, not re-fetched\): errors, ids, fresh-page/,
    );
    assert.equal(listCalls(), 1, "the replay did not contact the service");

    out.length = 0;
    await core.submit("ids");
    assert.deepEqual(out, [before], "the data came back identical");
    await core.submit("(count (get-in (fresh-page) [:value :traces]))");
    assert.deepEqual(out, [before, "1"], "a live call after the replay reaches the service again");
    assert.equal(listCalls(), 2);
  } finally {
    await core.session.close();
    await engine.close();
    await world.close();
  }
});

Deno.test("engine: record, replay (a different call is refused), and a cancelled pooled evaluation", async () => {
  const requests: AuditEntry[] = [];
  const world = await startReplWorld({ onRequest: (e) => requests.push(e) });
  const engine = await createEngine({
    registry: registerBuiltins(),
    upstreamsConfig: world.configPath,
    poolSize: 1,
    limits: { maxSteps: 1e15 },
  });
  try {
    const program = '(count (get-in (tool/call \'observatory/list-traces {:org_id "acme" :limit 2}) [:value :traces]))';
    const live = await engine.evaluate({ program, record: true });
    assert.ok(live.ok && live.printed === "2", JSON.stringify(live));
    assert.equal(live.recorded?.length, 1);
    assert.equal(requests.length, 1);

    const again = await engine.evaluate({ program, replay: live.recorded });
    assert.ok(again.ok && again.printed === "2", JSON.stringify(again));
    const other = await engine.evaluate({
      program: '(tool/call \'observatory/list-traces {:org_id "globex"})',
      replay: live.recorded,
    });
    assert.ok(!other.ok && other.reason === "replay_mismatch", JSON.stringify(other));
    assert.equal(requests.length, 1, "replays never reach the service");

    // cancelling: a pooled evaluation and a session evaluation stop; a session busy computing loses its process
    const ctl = new AbortController();
    const pending = engine.evaluate({ program: "(loop [] (recur))", signal: ctl.signal, timeoutMs: 60_000 });
    setTimeout(() => ctl.abort(), 200);
    const cancelled = await pending;
    assert.ok(!cancelled.ok && cancelled.reason === "cancelled", JSON.stringify(cancelled));
    const session = await engine.openSession();
    try {
      await session.eval({ program: "(def kept 1)" });
      const ctl2 = new AbortController();
      const running = session.eval({ program: "(loop [] (recur))", signal: ctl2.signal, timeoutMs: 60_000 });
      setTimeout(() => ctl2.abort(), 200);
      const r = await running;
      assert.ok(!r.ok && r.reason === "cancelled" && r.sessionLost, JSON.stringify(r));
      // (the REPL re-runs its recorded defs at this point; the engine's session simply continues)
      const after = await session.eval({ program: "(def kept 1) (inc kept)" });
      assert.ok(after.ok && after.printed === "2", JSON.stringify(after));
    } finally {
      await session.close();
    }
  } finally {
    await engine.close();
    await world.close();
  }
});
