/**
 * The default call-depth limit is the one that triggers: recursion shapes that go deeper than it end with
 * "Call depth exceeded (1000 nested calls)", not with the engine's stack running out first.
 */
import assert from "node:assert/strict";
import { assertReadable, evaluate } from "./helpers.ts";

const DEPTH_MESSAGE = "Call depth exceeded (1000 nested calls)";

const SHAPES: Record<string, string> = {
  "plain recursion": "(defn f [n] (if (= n 0) 0 (+ 1 (f (dec n))))) (f 5000)",
  "cond and let": "(defn f [n] (cond (<= n 0) 0 :else (let [r (f (dec n))] (+ r 1)))) (f 5000)",
  "nested map walk": "(defn walk [t] (if (map? t) (+ 1 (walk (:c t))) 0)) " +
    "(walk (reduce (fn [acc _] {:c acc}) nil (range 5000)))",
  "fn value": "(def f (fn [n] (when (pos? n) (let [r (f (dec n))] (if (nil? r) 1 (inc r)))))) (f 5000)",
  "vector rebuilt per level": "(defn g [n] (if (= n 0) [] (conj (vec (map identity (g (dec n)))) n))) (count (g 5000))",
  "destructured parameter": "(defn f [[x & xs]] (if (nil? x) 0 (+ x (f xs)))) (f (vec (range 5000)))",
};

Deno.test("call depth: every recursion shape stops at the documented default limit", () => {
  for (const [name, src] of Object.entries(SHAPES)) {
    const r = evaluate(src);
    assert.ok(!r.ok, name);
    assert.equal(r.reason, "stack_overflow", `${name}: ${r.message}`);
    assert.ok(r.message.startsWith(DEPTH_MESSAGE), `${name}: ${r.message}`);
  }
});

Deno.test("call depth: 1,000 nested calls of each shape fit", () => {
  for (const [name, src] of Object.entries(SHAPES)) {
    const r = evaluate(src.replaceAll("5000", "990"));
    assert.ok(r.ok, `${name}: ${r.ok ? "" : r.message}`);
  }
});

Deno.test("call depth: recursion through higher-order builtins ends cleanly at about the same depth", () => {
  // Each level here also runs map and reduce frames, so cold code may exhaust the engine's stack just before the
  // limit: the reason is the same either way and the message says how deep the program got.
  const walk = "(defn walk [t] (if (map? t) (+ 1 (reduce + 0 (map walk (:kids t)))) 0)) ";
  const r = evaluate(walk + "(walk (reduce (fn [acc _] {:kids [acc]}) nil (range 5000)))");
  assert.ok(!r.ok);
  assert.equal(r.reason, "stack_overflow");
  assert.match(r.message, /^(Call depth exceeded \(1000 nested calls\)|Call stack exhausted after 9\d\d nested calls)/);
  const ok = evaluate(walk + "(walk (reduce (fn [acc _] {:kids [acc]}) nil (range 800)))");
  assert.ok(ok.ok && ok.printed === "800");
});

Deno.test("call depth: when the engine's stack runs out first, the message says how deep the program got", () => {
  const r = evaluate("(defn f [n] (if (= n 0) 0 (+ 1 (f (dec n))))) (f 1000000)", {
    limits: { maxCallDepth: 10_000_000 },
  });
  assert.ok(!r.ok);
  assert.equal(r.reason, "stack_overflow");
  assert.match(r.message, /^Call stack exhausted after \d+ nested calls/);
  assertReadable(r.message);
});
