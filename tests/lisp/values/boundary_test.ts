/** JSON boundary (values/json.ts) and the printer (printer.ts). */
import assert from "node:assert/strict";
import { fromJson, kw, LFloat, mapOf, setOf, toJson, toToolArgs, vecOf } from "../../../src/lisp/values/mod.ts";
import { fmtFloat, printLine, printTruncated, prStr, quoteString, strFloat, strOf } from "../../../src/lisp/printer.ts";
import { LispError } from "../../../src/lisp/errors.ts";
import { getBuiltin } from "../../../src/lisp/builtins/registry.ts";
import { EvalContext } from "../../../src/lisp/runtime.ts";

const ctx = new EvalContext();

Deno.test("fromJson / toJson round trip and projection rules", () => {
  const j = { a: [1, 2.5, null, true, "x"], b: { c: {} }, big: 12345678901234567890 };
  const v = fromJson(j);
  assert.equal(prStr(v), '{"a" [1 2.5 nil true "x"] "b" {"c" {}} "big" 12345678901234567168}');
  assert.deepEqual(toJson(fromJson({ a: [1, { b: 2 }] })), { a: [1, { b: 2 }] });
  assert.deepEqual(
    toJson(mapOf(kw("k"), kw("v"), 1, setOf(2, 1), "f", new LFloat(5), "big", 2n ** 70n, "inf", Infinity)),
    { k: "v", 1: [1, 2], f: 5, big: "1180591620717411303424", inf: "Infinity" },
  );
  assert.equal(toJson(ctx.builtinFn(getBuiltin("map")!)), "#<builtin>");
  assert.deepEqual(toJson(vecOf(kw("a"), null)), ["a", null]);
});

Deno.test("toToolArgs: keys stringified with - to _, keyword values to names", () => {
  assert.deepEqual(
    toToolArgs(mapOf(kw("max-rows"), 5, kw("filter"), mapOf(kw("user-id"), kw("abc")), "x-y", vecOf(kw("p")))),
    { max_rows: 5, filter: { user_id: "abc" }, x_y: ["p"] },
  );
  assert.deepEqual(toToolArgs(mapOf(vecOf(1), 2)), { "[1]": 2 });
  assert.throws(
    () => toToolArgs(mapOf(kw("f"), ctx.builtinFn(getBuiltin("inc")!))),
    (e: unknown) => e instanceof LispError && e.reason === "invalid_tool_args" && e.message.includes("args.f"),
  );
});

Deno.test("printer: floats, strings, collections", () => {
  assert.equal(fmtFloat(5), "5.0");
  assert.equal(fmtFloat(0.1 + 0.2), "0.3");
  assert.equal(fmtFloat(10 / 3), "3.3333333333");
  assert.equal(fmtFloat(1e20), "100000000000000000000.0");
  assert.equal(fmtFloat(1e22), "10000000000000000000000.0");
  assert.equal(fmtFloat(1e-12), "0.0");
  assert.equal(fmtFloat(-1.5), "-1.5");
  assert.equal(fmtFloat(NaN), "##NaN");
  assert.equal(fmtFloat(-Infinity), "##-Inf");
  assert.equal(strFloat(0.1 + 0.2), "0.30000000000000004");
  assert.equal(strFloat(5), "5.0");
  assert.equal(strFloat(1e20), "1.0E20");
  assert.equal(strFloat(1.5e-7), "1.5E-7");
  assert.equal(quoteString('a"b\\c\nd\te\u0001'), '"a\\"b\\\\c\\nd\\te\\u0001"');
  assert.equal(prStr(mapOf(kw("b"), 1, kw("a"), vecOf(2, "x"))), '{:a [2 "x"] :b 1}');
  assert.equal(prStr(setOf(3, 1, 2)), "#{1 2 3}");
  assert.equal(prStr(new LFloat(-0)), "-0.0");
  assert.equal(prStr(2n ** 64n), "18446744073709551616");
  assert.equal(strOf(null), "");
  assert.equal(strOf(kw("k")), ":k");
  assert.equal(printLine(["a", 1, vecOf("h", "i"), null]), "a 1 [h i] nil");
});

Deno.test("printTruncated budgets items, strings and total size", () => {
  const v = vecOf(1, 2, 3, 4, 5);
  assert.deepEqual(printTruncated(v, { maxItems: 2 }), { text: "[1 2 ...] (2/5)", truncated: true });
  assert.deepEqual(printTruncated(v), { text: "[1 2 3 4 5]", truncated: false });
  const m = mapOf(kw("a"), 1, kw("b"), 2, kw("c"), 3);
  assert.equal(printTruncated(m, { maxItems: 1 }).text, "{:a 1 ...} (1/3)");
  assert.equal(printTruncated("x".repeat(21), { maxStringChars: 10 }).text, '"xxxxxxxxxx ..." (10/21 chars)');
  const long = printTruncated(vecOf(..."y".repeat(500).split("")), { maxChars: 50, maxItems: 1000 });
  assert.ok(long.truncated && long.text.length <= 50 && long.text.endsWith("..."));
});
