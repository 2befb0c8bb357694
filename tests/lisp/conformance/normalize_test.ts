/** The conformance normalizer compares values, not presentation — and still tells different values apart. */
import assert from "node:assert/strict";
import { parsePrinted, printedEqual } from "./normalize.ts";

Deno.test("normalizer: presentational differences are ignored", () => {
  assert.ok(printedEqual("[1 2 3]", "(1 2 3)"));
  assert.ok(printedEqual("{:a 1 :b [2 3]}", "{:b (2 3), :a 1}"));
  assert.ok(printedEqual("#{1 2 3}", "#{3 1 2}"));
  assert.ok(printedEqual("5.0", "5"));
  assert.ok(printedEqual("3.3333333333", "3.3333333333333335"));
  assert.ok(printedEqual("##NaN", "##NaN"));
  assert.ok(printedEqual('{"a" [{:b nil}]}', '{"a" [{:b nil}]}'));
  assert.ok(printedEqual('"a\\"b\\n"', '"a\\"b\\n"'));
  assert.ok(printedEqual('#"\\d+"', '#"\\d+"'));
});

Deno.test("normalizer: different values never match", () => {
  assert.ok(!printedEqual("[1 2]", "[2 1]"));
  assert.ok(!printedEqual("{:a 1}", "{:a 2}"));
  assert.ok(!printedEqual("{:a 1}", '{"a" 1}'));
  assert.ok(!printedEqual("5", "5.5"));
  assert.ok(!printedEqual('"5"', "5"));
  assert.ok(!printedEqual("nil", "[]"));
  assert.ok(!printedEqual("#{1 2}", "[1 2]"));
  assert.ok(!printedEqual("9999999999800000000001", "9999999999800000000000"));
  assert.ok(!printedEqual("[1 2", "[1 2]"));
  assert.ok(!printedEqual(":a", '"a"'));
});

Deno.test("normalizer: parse errors are reported", () => {
  assert.throws(() => parsePrinted("{:a}"), /odd map/);
  assert.throws(() => parsePrinted('"abc'), /unterminated/);
  assert.throws(() => parsePrinted("1 2"), /trailing/);
});
