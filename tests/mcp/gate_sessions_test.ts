import assert from "node:assert/strict";
import { ConcurrencyGate } from "../../src/mcp/gate.ts";
import { SessionError, SessionManager } from "../../src/mcp/sessions.ts";
import type { Engine, EngineEvalRequest, EngineSession } from "../../src/engine/types.ts";

function take(gate: ConcurrencyGate, owner?: string): () => void {
  const p = gate.tryAcquire(owner);
  assert.ok(p.ok, "expected a permit");
  return p.ok ? p.release : () => {};
}

Deno.test("gate refuses beyond its limit instead of queueing, and drains", async () => {
  const gate = new ConcurrencyGate(2, 2);
  const a = take(gate);
  const b = take(gate);
  const refused = gate.tryAcquire();
  assert.equal(refused.ok, false);
  assert.match(!refused.ok ? refused.message : "", /^the server runs 2 calls at once \(max 2\)/);
  let drained = false;
  const waiting = gate.drained().then(() => (drained = true));
  a();
  a(); // idempotent
  assert.equal(gate.inFlight, 1);
  const c = take(gate);
  assert.equal(drained, false);
  b();
  c();
  assert.equal(gate.inFlight, 0);
  assert.throws(() => new ConcurrencyGate(0));
  await waiting;
  assert.equal(drained, true);
});

Deno.test("gate: one owner holds at most its share; the others still get permits", () => {
  const gate = new ConcurrencyGate(4);
  assert.equal(gate.perOwner, 2);
  const long1 = take(gate, "greedy");
  const long2 = take(gate, "greedy");
  const third = gate.tryAcquire("greedy");
  assert.equal(third.ok, false);
  assert.match(!third.ok ? third.message : "", /this client already runs 2 programs \(at most 2 of the server's 4/);
  const other = take(gate, "polite");
  const another = take(gate, "someone-else");
  assert.equal(gate.inFlight, 4);
  for (const release of [long1, long2, other, another]) release();
  assert.equal(gate.heldBy("greedy"), 0);
  assert.equal(take(gate, "greedy") !== undefined, true);
});

/** An engine whose sessions only count evaluations: the manager's bookkeeping is what is under test. */
function countingEngine() {
  const closed: string[] = [];
  let n = 0;
  const engine = {
    openSession(): Promise<EngineSession> {
      const id = `s${++n}`;
      let isClosed = false;
      return Promise.resolve({
        id,
        get closed() {
          return isClosed;
        },
        eval: (r: EngineEvalRequest) =>
          Promise.resolve({
            ok: true as const,
            status: "ok" as const,
            printed: r.program,
            json: r.program,
            prints: [],
            calls: [],
            elapsedMs: 0,
          }),
        reset: () => Promise.resolve(),
        close: () => {
          isClosed = true;
          closed.push(id);
          return Promise.resolve();
        },
      });
    },
  } as unknown as Engine;
  return { engine, closed };
}

Deno.test("sessions: caps per owner and in total, foreign ids refused", async () => {
  const { engine } = countingEngine();
  const m = new SessionManager(engine, { maxSessions: 3, maxPerOwner: 2, ttlMs: 1000, idleMs: 1000 });
  const a1 = await m.start("alice");
  await m.start("alice");
  await assert.rejects(() => m.start("alice"), (e) => e instanceof SessionError && e.reason === "session_limit");
  await m.start("bob");
  await assert.rejects(() => m.start("carol"), /session limit reached/);
  await assert.rejects(
    () => m.use("bob", a1.session_id, (s) => s.eval({ program: "1" })),
    (e) => e instanceof SessionError && e.reason === "unknown_session",
  );
  const r = await m.use("alice", a1.session_id, (s) => s.eval({ program: "(+ 1 2)" }));
  assert.equal(r.ok && r.printed, "(+ 1 2)");
  assert.equal(m.list("alice").length, 2);
  assert.equal(m.list("alice")[0].evals + m.list("alice")[1].evals, 1);
  await m.closeAll();
});

Deno.test("sessions expire by TTL and idleness and free their worker", async () => {
  const { engine, closed } = countingEngine();
  let now = 0;
  const m = new SessionManager(engine, { maxSessions: 10, maxPerOwner: 10, ttlMs: 100, idleMs: 50 }, () => now);
  const s1 = await m.start("o");
  const s2 = await m.start("o");
  now = 40;
  await m.use("o", s2.session_id, () => Promise.resolve());
  now = 60; // s1 idle for 60 ≥ 50; s2 used at 40
  await m.sweep();
  assert.deepEqual(closed, [s1.session_id]);
  now = 100; // s2 reaches its TTL
  await m.sweep();
  assert.deepEqual(closed, [s1.session_id, s2.session_id]);
  assert.equal(m.size, 0);
  assert.equal(await m.close("o", s1.session_id), false);
});

Deno.test("sessions: concurrent starts never pass a cap, whatever the engine's start takes", async () => {
  // Each engine start resolves only after every start was issued: a count taken before the await would let all pass.
  const { engine } = countingEngine();
  const opened: (() => void)[] = [];
  const slow = {
    openSession: () => new Promise<EngineSession>((resolve) => opened.push(() => resolve(engine.openSession()))),
  } as unknown as Engine;
  const m = new SessionManager(slow, { maxSessions: 5, maxPerOwner: 3, ttlMs: 10_000, idleMs: 10_000 });
  const starts = [
    ...Array.from({ length: 10 }, () => m.start("alice")),
    ...Array.from({ length: 10 }, () => m.start("bob")),
  ];
  for (const open of opened.splice(0)) open();
  const settled = await Promise.allSettled(starts);
  const ok = settled.filter((s) => s.status === "fulfilled").length;
  assert.equal(ok, 5, "the total cap holds");
  assert.equal(m.list("alice").length, 3, "the per-owner cap holds");
  assert.equal(m.list("bob").length, 2);
  for (const s of settled) {
    if (s.status === "rejected") assert.equal((s.reason as SessionError).reason, "session_limit");
  }
  // A start that failed gives its slot back.
  await m.closeAll();
  const failing = new SessionManager(
    { openSession: () => Promise.reject(new Error("spawn failed")) } as unknown as Engine,
    { maxSessions: 1, maxPerOwner: 1, ttlMs: 10, idleMs: 10 },
  );
  await assert.rejects(() => failing.start("o"), (e) => e instanceof SessionError && e.reason === "internal_error");
  await assert.rejects(() => failing.start("o"), /spawn failed/);
});

Deno.test("parked sessions: at most maxLive idle ones keep a process; the least recently used park at once", async () => {
  const { engine, closed } = countingEngine();
  let now = 0;
  const m = new SessionManager(engine, {
    maxSessions: 10,
    maxPerOwner: 10,
    ttlMs: 60_000,
    idleMs: 60_000,
    parking: { parkAfterMs: 60_000, maxLogChars: 1 << 20, replayTimeoutMs: 1000, maxLive: 2 },
  }, () => now);
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push((await m.start("o")).session_id);
  assert.equal(m.holdingProcess, 0, "a started session holds no process");
  for (const id of ids) {
    now++;
    const r = await m.use("o", id, (s) => s.eval({ program: `(def x ${now})` }));
    assert.equal(r.ok, true);
  }
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(m.holdingProcess, 2, "only the two most recently used keep theirs");
  assert.equal(closed.length, 3);
  await m.closeAll();
});
