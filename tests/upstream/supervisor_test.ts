/**
 * The upstream supervisor's lifecycle with a manual clock: phases and their events, the one capped backoff with no
 * attempt limit, `whenReady` joining at most one attempt within a deadline, a lost connection, and stop.
 */
import assert from "node:assert/strict";
import { UpstreamSupervisor } from "../../src/upstream/supervisor.ts";
import { type PhaseEvent, UpstreamEvents } from "../../src/upstream/events.ts";
import { backoffDelay } from "../../src/upstream/backoff.ts";
import type { ToolResult, Upstream } from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { ManualClock, settle } from "./manual_clock.ts";

/** A connection whose end the test controls. */
function connection(): Upstream & { end(why: string): void; stops: number } {
  const ended = Promise.withResolvers<string>();
  const c = {
    stops: 0,
    closed: ended.promise,
    end: (why: string) => ended.resolve(why),
    listTools: () => [],
    call: (): Promise<ToolResult> => Promise.resolve({ ok: true, value: 1, valueKind: "json" }),
    diagnostics: () => ({}),
    stop: () => {
      c.stops++;
      return Promise.resolve();
    },
  };
  return c;
}

/** A supervisor whose attempts follow `script` (true: connect, a string: fail with that code); the rest connect. */
function harness(script: (boolean | string)[], backoff = { initialMs: 100, maxMs: 1_000 }) {
  const clock = new ManualClock();
  const events = new UpstreamEvents();
  const phases: PhaseEvent[] = [];
  events.subscribe((e) => e.type === "phase" && phases.push(e));
  const made: ReturnType<typeof connection>[] = [];
  let attempts = 0;
  let gate: PromiseWithResolvers<void> | undefined;
  const sup = new UpstreamSupervisor({
    name: "srv",
    connect: async () => {
      const step = script[attempts++] ?? true;
      if (gate) await gate.promise;
      if (step !== true) throw new UpstreamStartError(String(step), `upstream srv: it said ${step}`);
      const c = connection();
      made.push(c);
      return c;
    },
    describe: (e) => ({ code: (e as UpstreamStartError).code, message: (e as Error).message }),
    backoff,
    clock,
    events,
    log: () => {},
  });
  return {
    sup,
    clock,
    phases,
    made,
    get attempts() {
      return attempts;
    },
    /** Hold the next attempts until `release()`. */
    hold() {
      gate = Promise.withResolvers<void>();
      return () => {
        gate!.resolve();
        gate = undefined;
      };
    },
  };
}

const path = (phases: PhaseEvent[]) => phases.map((p) => p.to);

Deno.test("backoff: capped exponential, no wait before the first failure", () => {
  const p = { initialMs: 500, maxMs: 30_000 };
  assert.deepEqual([0, 1, 2, 3, 7, 8, 1000].map((n) => backoffDelay(p, n)), [
    0,
    500,
    1000,
    2000,
    30_000,
    30_000,
    30_000,
  ]);
});

Deno.test("supervisor: idle until started; start() does not wait; events say idle → connecting → ready", async () => {
  const h = harness([true]);
  assert.equal(String(h.sup.phase), "idle");
  assert.equal(h.attempts, 0, "nothing starts by itself");
  h.sup.start();
  assert.equal(String(h.sup.phase), "connecting");
  await settle();
  assert.equal(String(h.sup.phase), "ready");
  assert.ok(h.sup.connection);
  assert.deepEqual(path(h.phases), ["connecting", "ready"]);
  assert.equal(h.phases[0].from, "idle");
});

Deno.test("supervisor: a failing upstream is retried with capped backoff for as long as it runs, then comes up", async () => {
  const h = harness(["connection_refused", "connection_refused", "connection_refused", "connection_refused", true]);
  h.sup.start();
  await settle();
  assert.equal(String(h.sup.phase), "failed");
  assert.equal(h.sup.cause?.code, "connection_refused");
  const waits: number[] = [];
  while (String(h.sup.phase) !== "ready") {
    const next = h.sup.nextAttemptAt!;
    waits.push(next - h.clock.now());
    await h.clock.advance(next - h.clock.now());
  }
  // 100, 200, 400, 800 (the cap is 1000): no attempt limit stops it
  assert.deepEqual(waits, [100, 200, 400, 800]);
  assert.equal(h.attempts, 5);
  assert.deepEqual(path(h.phases), [
    "connecting",
    "failed",
    "connecting",
    "failed",
    "connecting",
    "failed",
    "connecting",
    "failed",
    "connecting",
    "ready",
  ]);
  const failed = h.phases.find((p) => p.to === "failed")!;
  assert.equal(failed.cause?.code, "connection_refused");
  assert.equal(failed.nextAttemptAt, failed.at + 100);
});

Deno.test("supervisor: the wait is capped at maxMs however many attempts failed", async () => {
  const h = harness(Array(12).fill("tls_failed"));
  h.sup.start();
  await settle();
  for (let i = 0; i < 11; i++) await h.clock.advance(h.sup.nextAttemptAt! - h.clock.now());
  assert.equal(String(h.sup.phase), "failed");
  assert.equal(h.sup.nextAttemptAt! - h.clock.now(), 1_000);
  await h.clock.advance(1_000);
  assert.equal(String(h.sup.phase), "ready", "the 13th attempt succeeds: still trying after 12 failures");
});

Deno.test("supervisor: whenReady starts an idle upstream and joins one attempt; a failure answers at once", async () => {
  const h = harness(["auth_failed"]);
  const got = await h.sup.whenReady(h.clock.now() + 5_000);
  assert.equal(got, undefined);
  assert.equal(String(h.sup.phase), "failed");
  assert.equal(h.attempts, 1, "one attempt, not a retry loop inside the call");
  // the next attempt is 100 ms away, inside a 5 s deadline: a call waits for it and gets the connection
  const waiting = h.sup.whenReady(h.clock.now() + 5_000);
  await h.clock.advance(100);
  assert.ok(await waiting);
  assert.equal(h.attempts, 2);
});

Deno.test("supervisor: whenReady does not wait for an attempt scheduled after its deadline", async () => {
  const h = harness(["connection_refused", "connection_refused"]);
  await h.sup.whenReady(h.clock.now() + 1_000);
  await h.clock.advance(100);
  assert.equal(String(h.sup.phase), "failed");
  const next = h.sup.nextAttemptAt!;
  assert.equal(await h.sup.whenReady(next - 1), undefined);
  assert.equal(h.attempts, 2, "no extra attempt for an impatient caller");
});

Deno.test("supervisor: whenReady gives up at its deadline while an attempt hangs", async () => {
  const h = harness([true]);
  const release = h.hold();
  const waiting = h.sup.whenReady(h.clock.now() + 300);
  await h.clock.advance(300);
  assert.equal(await waiting, undefined);
  assert.equal(String(h.sup.phase), "connecting");
  release();
  await settle();
  assert.equal(String(h.sup.phase), "ready");
});

Deno.test("supervisor: whenReady answers undefined when its signal aborts", async () => {
  const h = harness([true]);
  h.hold();
  const ac = new AbortController();
  const waiting = h.sup.whenReady(h.clock.now() + 10_000, ac.signal);
  ac.abort();
  assert.equal(await waiting, undefined);
});

Deno.test("supervisor: a lost connection → reconnecting (at once), then ready on a new connection", async () => {
  const h = harness([true, true]);
  h.sup.start();
  await settle();
  const first = h.made[0];
  first.end("its server process exited (exit status 3)");
  await settle();
  assert.equal(String(h.sup.phase), "ready");
  assert.equal(h.made.length, 2);
  assert.notEqual(h.sup.connection, first);
  assert.equal(first.stops, 1, "the dead connection is closed");
  assert.equal(h.sup.reconnects, 1);
  const lost = h.phases.find((p) => p.to === "reconnecting")!;
  assert.equal(lost.cause?.code, "connection_lost");
  assert.match(lost.cause!.message, /exit status 3/);
});

Deno.test("supervisor: a connection that keeps dying right after it came up backs off", async () => {
  const h = harness([true, true, true]);
  h.sup.start();
  await settle();
  h.made[0].end("crashed");
  await settle(); // first loss: reconnect at once
  h.made[1].end("crashed");
  await settle();
  assert.equal(String(h.sup.phase), "reconnecting");
  assert.equal(h.sup.nextAttemptAt! - h.clock.now(), 100, "second loss in a row waits");
  await h.clock.advance(100);
  assert.equal(String(h.sup.phase), "ready");
});

Deno.test("supervisor: stop cancels the schedule, closes the connection, and a late attempt closes its own", async () => {
  const h = harness(["connection_refused"]);
  h.sup.start();
  await settle();
  assert.equal(h.clock.pending, 1);
  await h.sup.stop();
  assert.equal(String(h.sup.phase), "stopped");
  assert.equal(h.clock.pending, 0);
  await h.clock.advance(10_000);
  assert.equal(h.attempts, 1, "no attempt after stop");
  assert.equal(await h.sup.whenReady(h.clock.now() + 1_000), undefined);

  const late = harness([true]);
  const release = late.hold();
  late.sup.start();
  const stopping = late.sup.stop();
  release();
  await stopping;
  await settle();
  assert.equal(late.made[0].stops, 1, "a connection that arrived after stop is closed");
  assert.equal(String(late.sup.phase), "stopped");
});

Deno.test("supervisor: a throwing event listener never breaks the lifecycle", async () => {
  const h = harness([true]);
  const events = new UpstreamEvents();
  events.subscribe(() => {
    throw new Error("broken subscriber");
  });
  const seen: string[] = [];
  events.subscribe((e) => seen.push(e.type));
  events.publish({ type: "phase", upstream: "x", from: "idle", to: "connecting", at: 0 });
  assert.deepEqual(seen, ["phase"]);
  h.sup.start();
  await settle();
  assert.equal(String(h.sup.phase), "ready");
});
