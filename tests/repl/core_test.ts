import assert from "node:assert/strict";
import { createEngine } from "../../src/engine/engine.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import type { Engine, EngineSession } from "../../src/engine/types.ts";
import { ReplCore } from "../../src/repl/core.ts";
import { definedNames, DefinitionLog } from "../../src/repl/defs.ts";
import { makeStyle } from "../../src/repl/style.ts";
import { LOSE_WORKER, losingSession } from "./lost_session.ts";

interface Harness {
  core: ReplCore;
  out: string[];
  err: string[];
  engine: Engine;
  close(): Promise<void>;
}

async function harness(
  timeoutMs = 30_000,
  maxSteps?: number,
  wrap: (s: EngineSession) => EngineSession = (s) => s,
): Promise<Harness> {
  const engine = await createEngine({
    registry: registerBuiltins(),
    poolSize: 1,
    limits: maxSteps ? { maxSteps } : {},
  });
  const session = wrap(await engine.openSession());
  const out: string[] = [];
  const err: string[] = [];
  const core = new ReplCore(engine, session, { out: (s) => out.push(s), err: (s) => err.push(s) }, makeStyle(false), {
    timeoutMs,
  });
  return {
    core,
    out,
    err,
    engine,
    close: async () => {
      await core.session.close();
      await engine.close();
    },
  };
}

Deno.test("defs, *1 *2 *3 persist across submissions; values are printed, not envelopes", async () => {
  const h = await harness();
  try {
    assert.equal((await h.core.submit("(def x 41)")).ok, true);
    await h.core.submit("(inc x)");
    await h.core.submit('{:a 1 :b "two"}');
    await h.core.submit("[*1 *2 *3]");
    assert.deepEqual(h.out, ["#'x", "42", '{:a 1 :b "two"}', '[{:a 1 :b "two"} 42 #\'x]']);
    assert.deepEqual(h.err, []);
  } finally {
    await h.close();
  }
});

Deno.test("a typed (doc …) shows its text; doc inside a program is a string value like any other", async () => {
  const h = await harness();
  try {
    await h.core.submit("(doc inc)");
    await h.core.submit("(count (doc inc))");
    await h.core.submit(":doc inc");
    assert.deepEqual(h.out, ["inc\n  [x]\n  x + 1.", String("inc\n  [x]\n  x + 1.".length), "inc\n  [x]\n  x + 1."]);
    assert.deepEqual(h.err, []);
  } finally {
    await h.close();
  }
});

Deno.test("*e is nil, then the last error as {:reason :message}; :reset clears it and the defs", async () => {
  const h = await harness();
  try {
    await h.core.submit("*e");
    assert.equal((await h.core.submit("(/ 1 0)")).ok, false);
    assert.match(h.err[0], /^arithmetic_error: /);
    await h.core.submit("(:reason *e)");
    await h.core.submit("(def y 1)");
    await h.core.submit(":reset");
    await h.core.submit("*e");
    assert.deepEqual(h.out, ["nil", '"arithmetic_error"', "#'y", "namespace cleared", "nil"]);
    assert.equal((await h.core.submit("y")).ok, false);
    assert.match(h.err.at(-2)!, /^unbound_var: Undefined variable: y \(line 1, column 1\)$/);
    assert.match(h.err.at(-1)!, /^hint: :find TEXT/);
  } finally {
    await h.close();
  }
});

Deno.test("Ctrl-C stops an endless loop: `cancelled`, the namespace and *e survive", async () => {
  // No step budget the loop could reach, and a deadline far past the abort: only the abort ends it.
  const h = await harness(20_000, 1e15);
  try {
    await h.core.submit("(def base 10)");
    await h.core.submit("(defn add-base [n] (+ n base))");
    await h.core.submit("(add-base 1)");
    const ctl = new AbortController();
    const pending = h.core.submit("(loop [] (recur))", ctl.signal);
    setTimeout(() => ctl.abort(), 200);
    const r = await pending;
    assert.equal(r.ok, false);
    assert.match(h.err[0], /^cancelled: /);
    // a busy sandbox process cannot hear the cancel: it is killed and the defs are re-run on a fresh one
    assert.match(h.err.join("\n"), /re-ran 2 definition\(s\) from source.*base, add-base/s);
    h.out.length = 0;
    await h.core.submit("[(add-base 1) *1 (:reason *e)]");
    assert.deepEqual(h.out, ['[11 nil "cancelled"]']);
  } finally {
    await h.close();
  }
});

Deno.test("a lost worker: the defs are re-run on the fresh one, *1 *2 *3 read nil", async () => {
  const h = await harness(30_000, undefined, losingSession);
  try {
    await h.core.submit("(def base 10)");
    await h.core.submit("(defn add-base [n] (+ n base))");
    await h.core.submit("(def later (add-base 5))");
    await h.core.submit("(def base 20)");
    assert.equal((await h.core.submit(LOSE_WORKER)).ok, false);
    assert.equal(h.err[0], "cancelled: the sandbox was shut down during the evaluation");
    assert.match(
      h.err.join("\n"),
      /re-ran 3 definition\(s\) from source \(tool answers replayed, not re-fetched\): base, add-base, later$/,
    );
    h.out.length = 0;
    await h.core.submit("[(add-base 1) later base *1]");
    assert.deepEqual(h.out, ["[21 15 20 nil]"]);
  } finally {
    await h.close();
  }
});

Deno.test("replay runs every definition in the order it first ran; a failed latest one is reported and dropped", async () => {
  const log = new DefinitionLog();
  const answers = [{ request: { name: "call" }, outcome: { kind: "value", value: 1 } }];
  log.record("(def a 1) (+ 1 2) (defn f [x] x)\n(def b (tool/call 'srv/t {}))", answers);
  log.record("(def a (f 2))");
  log.record("(def c (tool/call 'srv/u {}))", []);
  assert.deepEqual(log.names(), ["a", "f", "b", "c"]);
  assert.equal(log.source("a"), "(def a (f 2))");
  const seen: [string, number][] = [];
  const report = await log.replay((src, calls) => {
    seen.push([src, calls.length]);
    // a stand-in evaluator: a tool call succeeds only with a recorded answer
    const ok = !src.includes("tool/call") || calls.length > 0;
    return Promise.resolve(ok ? { ok: true } : { ok: false, reason: "replay_mismatch", message: "not recorded" });
  });
  assert.deepEqual(seen, [
    ["(def a 1)", 1],
    ["(defn f [x] x)", 1],
    ["(def b (tool/call 'srv/t {}))", 1],
    ["(def a (f 2))", 0],
    ["(def c (tool/call 'srv/u {}))", 0],
  ]);
  assert.deepEqual(report.restored, ["a", "f", "b"]);
  assert.deepEqual(report.failed.map((f) => [f.name, f.reason]), [["c", "replay_mismatch"]]);
  assert.deepEqual(log.names(), ["a", "f", "b"]);
  assert.deepEqual(definedNames("(defn- helper [] 1) (inc 1) (defonce ^:private cfg {}) (define x 1)"), [
    "helper",
    "cfg",
  ]);
});

Deno.test("commands: :help, unknown command, :doc builtin, :find, :tools/:servers without upstreams", async () => {
  const h = await harness();
  try {
    await h.core.submit(":help");
    assert.match(h.out[0], /:doc SYM/);
    assert.equal((await h.core.submit(":nope")).ok, false);
    assert.match(h.err[0], /unknown command :nope; :help lists the commands/);
    h.out.length = 0;
    assert.equal((await h.core.submit(":doc map")).ok, true);
    assert.match(h.out.join("\n"), /map/);
    h.out.length = 0;
    assert.equal((await h.core.submit(":find filter")).ok, true);
    assert.ok(h.out.some((l) => /filter/.test(l)), h.out.join("\n"));
    h.out.length = 0;
    await h.core.submit(":servers");
    await h.core.submit(":tools");
    assert.deepEqual(h.out, [
      "no upstreams configured (start with --upstreams-config FILE)",
      "no upstreams configured (start with --upstreams-config FILE)",
    ]);
    h.out.length = 0;
    await h.core.submit(":limits");
    assert.deepEqual(h.out, ["timeoutMs: 30000"], "the harness's limits; no upstream limits without upstreams");
    assert.equal((await h.core.submit(":doc")).ok, false);
    assert.match(h.err.at(-1)!, /^usage: :doc SYM/);
  } finally {
    await h.close();
  }
});
