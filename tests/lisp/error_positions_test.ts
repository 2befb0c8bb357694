/** Runtime errors name the line and column of the innermost call that raised them. */
import assert from "node:assert/strict";
import { createSession, err, evaluate } from "./helpers.ts";
import { FakeTools } from "./fake_tools.ts";

Deno.test("runtime error positions: the failing builtin call inside a function body", () => {
  const e = err('(def xs [1 2 3])\n\n(defn f [x]\n  (+ x "1"))\n\n(map f xs)');
  assert.equal(e.reason, "type_error");
  assert.equal(e.line, 4);
  assert.match(e.message, /^\+: expected a number as argument 2, got a string \("1"\) \(line 4, column 3\)$/);
});

Deno.test("runtime error positions: a higher-order builtin given bad data, a non-callable value", () => {
  const e = err('(let [rows [{:n 1} {:n "x"}]]\n  (->> rows\n       (map :n)\n       (reduce +)))');
  assert.deepEqual([e.reason, e.line], ["type_error", 4]);
  const call = err("(let [f 1]\n  (f 2))");
  assert.deepEqual([call.reason, call.line], ["not_callable", 2]);
  assert.match(call.message, /\(line 2, column 3\)$/);
});

Deno.test("runtime error positions: a tool/call programmer fault", () => {
  const tools = new FakeTools();
  const r = evaluate('(let [x 1]\n  (tool/call \'fs/read "notes.md"))', { tools });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.line, 2);
    assert.match(r.message, /\(line 2, column 3\)$/);
  }
});

Deno.test("runtime error positions: budget errors and analysis errors are not re-located", () => {
  const steps = evaluate("(loop [i 0]\n  (recur (inc i)))", { limits: { maxSteps: 1000 } });
  assert.equal(steps.ok, false);
  if (!steps.ok) {
    assert.equal(steps.reason, "step_limit_exceeded");
    assert.doesNotMatch(steps.message, /\(line \d+, column \d+\)/);
  }
  const unbound = err("(+ 1\n   nope)");
  assert.equal(unbound.reason, "unbound_var");
  assert.equal(unbound.message.match(/\(line/g)?.length, 1);
});

Deno.test("runtime error positions: a function defined by an earlier evaluation is located at its call", () => {
  const s = createSession();
  const def = s.eval('(defn f [x]\n  (+ x "1"))');
  assert.equal(def.ok, true);
  const r = s.eval("(let [xs [1]]\n  (map f xs))");
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.line, 2);
    assert.match(r.message, /\(line 2, column 3\)$/);
  }
});
