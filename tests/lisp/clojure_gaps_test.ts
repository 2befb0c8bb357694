import assert from "node:assert/strict";
import { evaluate } from "../../src/lisp/mod.ts";

function failure(program: string): { reason: string; message: string } {
  const r = evaluate(program);
  assert.equal(r.ok, false, `${program} should fail`);
  return r as { reason: string; message: string };
}

Deno.test("Clojure names PTC-Lisp omits get the alternative, not a list of bogus undefined bindings", () => {
  const dotimes = failure("(dotimes [i 3] (println i))");
  assert.equal(dotimes.reason, "unbound_var");
  assert.match(dotimes.message, /dotimes \(not in PTC-Lisp: use \(doseq \[i \(range n\)\] …\)\)/);
  assert.ok(!/\bi \(did you mean/.test(dotimes.message), "the loop variable is not reported as undefined");

  const tried = failure("(try (tool/call 'x/y {}) (catch Exception e nil))");
  assert.match(tried.message, /^Undefined variables: try, catch \(not in PTC-Lisp: no exceptions/);
  assert.ok(!tried.message.includes("Exception"), "only the omitted forms are named");

  assert.match(failure("(swap! a inc)").message, /swap! \(not in PTC-Lisp: no mutable state/);
  assert.match(failure("(take 3 (cycle [1]))").message, /cycle \(not in PTC-Lisp: no lazy or infinite sequences/);
  assert.match(failure("(take 3 (repeat 1))").message, /\(repeat x\) would be an infinite sequence.*\(repeat n x\)/);
  assert.match(failure("(prn {:a 1})").message, /use \(println \(pr-str x\)\)/);
});

Deno.test("ordinary undefined names still get suggestions; a def named like a gap is just a def", () => {
  assert.match(failure("(mapp inc [1])").message, /mapp \(did you mean "map", "map\?" or "mapv"\?\)/);
  const r = evaluate('(defn print [x] (str "<" x ">")) (print 1)');
  assert.equal(r.ok && r.printed, '"<1>"');
});
