import assert from "node:assert/strict";
import { inputStatus, oneLine, splitTopLevel } from "../../src/repl/balance.ts";

Deno.test("balanced input is complete; open brackets wait for more", () => {
  assert.equal(inputStatus("(+ 1 2)").kind, "complete");
  assert.equal(inputStatus("(let [x 1]").kind, "incomplete");
  assert.equal(inputStatus("{:a [1 2").kind, "incomplete");
  assert.equal(inputStatus("#{1 2").kind, "incomplete");
  assert.equal(inputStatus("").kind, "complete");
  assert.equal(inputStatus("   ; just a comment").kind, "complete");
});

Deno.test("strings, comments and char literals do not count brackets", () => {
  assert.equal(inputStatus('(str "(((")').kind, "complete");
  assert.equal(inputStatus('(str "a\\"(")').kind, "complete");
  assert.equal(inputStatus("(count [\\( \\[])").kind, "complete");
  assert.equal(inputStatus("(+ 1 ; (((\n 2)").kind, "complete");
  assert.equal(inputStatus('(re-find #"\\(x" "(x")').kind, "complete");
  assert.equal(inputStatus('(str "unterminated').kind, "incomplete");
});

Deno.test("a stray or mismatched closer is an error naming the line", () => {
  const s = inputStatus("(+ 1 2]");
  assert.equal(s.kind, "error");
  assert.match((s as { message: string }).message, /line 1: expected '\)' but found '\]'/);
  assert.equal(inputStatus("\n)").kind, "error");
});

Deno.test("split into top-level forms with their lines", () => {
  const { forms, status } = splitTopLevel('(def x 1)\n\n(inc x) :k "s"\n\'a/b #"r" 42');
  assert.equal(status.kind, "complete");
  assert.deepEqual(forms.map((f) => f.text), ["(def x 1)", "(inc x)", ":k", '"s"', "'a/b", '#"r"', "42"]);
  assert.deepEqual(forms.map((f) => f.line), [1, 3, 3, 3, 4, 4, 4]);
  const partial = splitTopLevel("(a) (b");
  assert.equal(partial.status.kind, "incomplete");
  assert.equal(partial.rest, "(b");
});

Deno.test("oneLine joins a multi-line entry for the history without its comments", () => {
  assert.equal(oneLine('(def total\n  (+ 1 2 ; a ) comment\n     (count "))")))'), '(def total (+ 1 2 (count "))")))');
  assert.equal(oneLine('(str "a;b" \\; 1) ; tail'), '(str "a;b" \\; 1)');
  assert.equal(oneLine('(str "line\\"; x")'), '(str "line\\"; x")');
});
