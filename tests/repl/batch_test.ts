import assert from "node:assert/strict";
import { batchSteps } from "../../src/repl/batch.ts";

Deno.test("batch input splits into forms and command lines with their line numbers", () => {
  const { steps, problem } = batchSteps("(def x 1) (inc x)\n:doc map\n(let [a 1\n      b 2]\n  (+ a b))\n; done\n");
  assert.equal(problem, undefined);
  assert.deepEqual(steps, [
    { text: "(def x 1)", line: 1 },
    { text: "(inc x)", line: 1 },
    { text: ":doc map", line: 2 },
    { text: "(let [a 1\n      b 2]\n  (+ a b))", line: 3 },
  ]);
});

Deno.test("a line starting with ':' inside a form is part of the form", () => {
  const { steps } = batchSteps("{:a 1\n :b 2}");
  assert.deepEqual(steps, [{ text: "{:a 1\n :b 2}", line: 1 }]);
});

Deno.test("unbalanced or stray input is a problem naming the line; earlier forms still run", () => {
  const open = batchSteps("(inc 1)\n(map inc\n[1 2]");
  assert.deepEqual(open.steps, [{ text: "(inc 1)", line: 1 }]);
  assert.match(open.problem!, /unbalanced input at end of input, starting with: \(map inc/);
  const stray = batchSteps("(inc 1)\n\n(+ 1 2))");
  assert.deepEqual(stray.steps.map((s) => s.text), ["(inc 1)", "(+ 1 2)"]);
  assert.match(stray.problem!, /^line 3: unexpected '\)'/);
});
