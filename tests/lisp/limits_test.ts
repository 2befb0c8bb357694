import assert from "node:assert/strict";
import { assertReadable, evaluate } from "./helpers.ts";
import type { EvalLimits } from "../../src/lisp/api.ts";

function fails(src: string, reason: string, limits?: EvalLimits): string {
  const r = evaluate(src, { limits });
  assert.ok(!r.ok, `${src}: expected ${reason}, got ${r.ok ? r.printed : ""}`);
  assert.equal(r.reason, reason, `${src}: ${r.message}`);
  assertReadable(r.message);
  return r.message;
}

Deno.test("limits: step budget stops endless loops", () => {
  assert.match(fails("(loop [i 0] (recur (inc i)))", "step_limit_exceeded", { maxSteps: 100_000 }), /100000 steps/);
  fails("(defn f [] (f)) 1 (loop [] (recur))", "step_limit_exceeded", { maxSteps: 10_000 });
  fails("(count (for [x (range 1000) y (range 1000)] 1))", "step_limit_exceeded", { maxSteps: 50_000 });
  const ok = evaluate("(loop [i 0] (if (< i 1000) (recur (inc i)) i))", { limits: { maxSteps: 100_000 } });
  assert.ok(ok.ok);
  assert.ok(ok.steps > 1000 && ok.steps < 100_000);
});

Deno.test("limits: deadline is checked cooperatively", () => {
  fails("(loop [i 0] (recur (inc i)))", "timeout", { deadline: Date.now() + 50 });
});

Deno.test("limits: allocation budget stops runaway growth", () => {
  fails("(loop [v [1]] (recur (into v v)))", "memory_limit", { maxAllocBytes: 8 * 1024 * 1024 });
  fails('(loop [s "ab"] (recur (str s s)))', "memory_limit", { maxAllocBytes: 8 * 1024 * 1024 });
  fails("(count (for [i (range 200000)] [i i]))", "memory_limit", { maxAllocBytes: 1024 * 1024 });
});

Deno.test("limits: deep recursion is a stack_overflow", () => {
  fails("(defn f [n] (+ 1 (f n))) (f 1)", "stack_overflow");
  fails("(defn f [n] (if (= n 0) 0 (+ 1 (f (dec n))))) (f 500)", "stack_overflow", { maxCallDepth: 100 });
  const ok = evaluate("(defn f [n] (if (= n 0) 0 (+ 1 (f (dec n))))) (f 999)");
  assert.ok(ok.ok && ok.printed === "999", "1,000 nested calls fit the default depth");
});

Deno.test("limits: print budget", () => {
  fails('(doseq [i (range 1000)] (println "0123456789"))', "print_limit_exceeded", { maxPrintChars: 500 });
});

Deno.test("limits: program size and reader depth", () => {
  fails("(+ 1 2)", "program_too_large", { maxProgramBytes: 3 });
  fails("[".repeat(40) + "]".repeat(40), "parse_error", { maxDepth: 32 });
});

Deno.test("limits: a session keeps working after a limit error", () => {
  const r = evaluate("(loop [i 0] (recur (inc i)))", { limits: { maxSteps: 1000 } });
  assert.ok(!r.ok);
  const ok = evaluate("(+ 1 2)");
  assert.ok(ok.ok && ok.printed === "3");
});

Deno.test("limits: big iterations are normal work", () => {
  const r = evaluate("(count (for [i (range 100000) :when (even? i)] i))");
  assert.ok(r.ok && r.printed === "50000");
  const r2 = evaluate("(loop [i 0 acc 0] (if (< i 1000000) (recur (inc i) (+ acc i)) acc))");
  assert.ok(r2.ok && r2.printed === "499999500000");
});
