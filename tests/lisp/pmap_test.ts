import assert from "node:assert/strict";
import { createSession, err, ev, evaluate } from "./helpers.ts";
import { FakeTools } from "./fake_tools.ts";

Deno.test("pmap: pure branches behave like map", () => {
  assert.equal(ev("(pmap inc [1 2 3])"), "[2 3 4]");
  assert.equal(ev("(pmap + [1 2] [10 20 30])"), "[11 22]");
  assert.equal(ev("(pmap inc nil)"), "[]");
  assert.equal(ev("(pcalls (fn [] 1) (fn [] 2))"), "[1 2]");
  assert.equal(ev("(pcalls)"), "[]");
});

Deno.test("pmap: 20 tool calls go out as ONE batch of 20, results in input order", () => {
  const tools = new FakeTools();
  const out = ev("(mapv #(get-in % [:value :name]) (pmap #(tool/call 'db/get {:id %}) (range 20)))", { tools });
  assert.equal(out, `[${Array.from({ length: 20 }, (_, i) => `"item-${i}"`).join(" ")}]`);
  assert.equal(tools.batches.length, 1);
  assert.equal(tools.batches[0].length, 20);
  assert.deepEqual(tools.batches[0].map((r) => (r.args.args as { id: number }).id), [...Array(20).keys()]);
});

Deno.test("pmap: branches with several sequential calls batch per round", () => {
  const tools = new FakeTools();
  const out = ev(
    "(pmap (fn [i] (let [a (tool/call 'db/get {:id i}) b (tool/call 'db/get {:id (* 10 i)})] [(:id (:value a)) (:id (:value b))])) [1 2 3])",
    { tools },
  );
  assert.equal(out, "[[1 10] [2 20] [3 30]]");
  assert.equal(tools.batches.length, 2);
  assert.deepEqual(tools.batches.map((b) => b.length), [3, 3]);
  assert.equal(tools.calls.length, 6);
});

Deno.test("pmap: pcalls batches too; plain host tools work in branches", () => {
  const tools = new FakeTools();
  assert.equal(ev("(pcalls #(count (tool/get-orders)) #(:ok (tool/call 'fs/read)))", { tools }), "[2 true]");
  assert.equal(tools.batches.length, 1);
  assert.equal(tools.batches[0].length, 2);
});

Deno.test("pmap: prints kept once per branch, defs rolled back, failures wrapped", () => {
  const r = evaluate('(pmap (fn [x] (println "i" x) (* x x)) [1 2 3])');
  assert.ok(r.ok);
  assert.equal(r.printed, "[1 4 9]");
  assert.deepEqual(r.prints, ["i 1", "i 2", "i 3"]);
  const s = createSession();
  const r2 = s.eval("(pmap (fn [x] (def leaked x)) [1 2]) (or leaked :none)");
  assert.ok(r2.ok);
  assert.equal(r2.printed, ":none");
  const e = err("(pmap (fn [x] (/ 1 x)) [1 0])");
  assert.equal(e.reason, "pmap_error");
  assert.match(e.message, /branch 1/);
  assert.equal(err("(pcalls #(return 1))").reason, "pcalls_error");
  const tools = new FakeTools();
  assert.equal(err("(pmap #(tool/boom {:x %}) [1])", { tools }).reason, "pmap_error");
});

Deno.test("pmap: nested pmap inside a branch still completes", () => {
  const tools = new FakeTools();
  const out = ev("(pmap (fn [i] (pmap #(:id (:value (tool/call 'db/get {:id (+ i %)}))) [0 1])) [10 20])", { tools });
  assert.equal(out, "[[10 11] [20 21]]");
});

Deno.test("pmap: a branch's prints appear once, together, in order of completion, despite replays", () => {
  const tools = new FakeTools();
  // Branch 0 needs two rounds of calls, branch 1 one, branch 2 none: they complete in the order 2, 1, 0.
  const r = evaluate(
    `(pmap (fn [n] (println "start" n)
                   (doseq [i (range n)] (tool/call 'db/get {:id i}) (println "got" n i))
                   (println "end" n) n)
           [2 1 0])`,
    { tools },
  );
  assert.ok(r.ok, r.ok ? "" : r.message);
  assert.deepEqual(r.prints, [
    "start 0",
    "end 0",
    "start 1",
    "got 1 0",
    "end 1",
    "start 2",
    "got 2 0",
    "got 2 1",
    "end 2",
  ]);
  const budget = evaluate(
    `(pmap (fn [n] (doseq [i (range 3)] (println "0123456789") (tool/call 'db/get {:id i})) n) [1 2])`,
    { tools, limits: { maxPrintChars: 70 } },
  );
  assert.ok(budget.ok, "replays give their print budget back: 6 lines of 10 fit in 70 characters");
  assert.equal(budget.prints.length, 6);
  const failing = evaluate('(pmap (fn [x] (println "before" x) (/ 1 x)) [0])');
  assert.ok(!failing.ok);
  assert.deepEqual(failing.prints, ["before 0"], "a failing branch's lines are kept for debugging");
});
