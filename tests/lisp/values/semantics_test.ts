/** Equality, hashing, total order, numbers, flex lookup and grapheme helpers. */
import assert from "node:assert/strict";
import {
  add,
  compare,
  equals,
  flexGet,
  fromJson,
  gAt,
  gCount,
  getIn,
  gIndexOf,
  gLastIndexOf,
  graphemes,
  gSlice,
  hash,
  keyEquals,
  kw,
  LFloat,
  mapOf,
  mul,
  neg,
  numCompare,
  ordered,
  setOf,
  sub,
  truthy,
  typeName,
  vecOf,
} from "../../../src/lisp/values/mod.ts";

Deno.test("equals vs keyEquals, hash consistency", () => {
  assert.ok(equals(1, new LFloat(1)));
  assert.ok(!keyEquals(1, new LFloat(1)));
  assert.ok(equals(vecOf(1), vecOf(new LFloat(1))));
  assert.ok(!equals(NaN, NaN));
  assert.ok(!equals(kw("a"), "a"));
  assert.ok(equals(mapOf("a", vecOf(1, 2)), mapOf("a", vecOf(1, 2))));
  assert.ok(equals(setOf(1, 2), setOf(2, 1)));
  assert.ok(equals(9007199254740993n, 9007199254740993n));
  assert.ok(equals(2n ** 60n, 2 ** 60));
  assert.ok(!equals(null, false));
  const pairs = [[vecOf(1, 2), vecOf(1, 2)], [mapOf(kw("a"), 1), mapOf(kw("a"), 1)], [setOf("x"), setOf("x")], [
    new LFloat(0),
    new LFloat(-0),
  ]];
  for (const [a, b] of pairs) {
    assert.ok(keyEquals(a, b));
    assert.equal(hash(a), hash(b));
  }
});

Deno.test("total order across types", () => {
  const xs = ["b", vecOf(1), mapOf(1, 2), kw("a"), null, true, false, 2, 1.5, -Infinity];
  const sorted = [...xs].sort(compare);
  assert.deepEqual(sorted.map((x) => typeName(x) ?? "nil"), [
    "number",
    "number",
    "number",
    "keyword",
    "boolean",
    "nil",
    "boolean",
    "map",
    "vector",
    "string",
  ]);
  assert.equal(compare(1, 2), -1);
  assert.equal(compare(9007199254740993n, 9007199254740992), 1);
  assert.throws(() => compare(NaN, 1));
  assert.ok(!ordered(NaN, 1, -2));
  assert.ok(ordered(1, null, -2));
  assert.ok(ordered(1, 1, -1));
});

Deno.test("numbers: exact ints, bigint promotion and normalization, float boxing", () => {
  assert.equal(add(1, 2), 3);
  assert.equal(add(9007199254740991, 1), 9007199254740992n);
  assert.equal(sub(9007199254740992n, 1), 9007199254740991);
  assert.equal(mul(99999999999, 99999999999), 9999999999800000000001n);
  assert.ok(add(0.5, 0.5) instanceof LFloat);
  assert.equal(add(0.5, 0.25), 0.75);
  assert.ok(add(1, new LFloat(1)) instanceof LFloat);
  assert.equal(neg(5), -5);
  assert.equal(numCompare(2n ** 64n, Infinity), -1);
  assert.ok(Number.isNaN(numCompare(1, NaN)));
});

Deno.test("flex lookup: exact first, keyword <-> string, - to _", () => {
  const m = fromJson({ user_id: 7, a: 1, "b-c": 2 }) as ReturnType<typeof mapOf>;
  assert.equal(flexGet(m, kw("user-id"), null), 7);
  assert.equal(flexGet(m, "user-id", null), 7);
  assert.equal(flexGet(m, kw("a"), null), 1);
  assert.equal(flexGet(m, kw("b-c"), null), 2);
  assert.equal(flexGet(m, kw("zz"), 5), 5);
  const both = mapOf("a", 1, kw("a"), 2);
  assert.equal(flexGet(both, kw("a"), null), 2);
  assert.equal(flexGet(both, "a", null), 1);
  let big = mapOf();
  for (let i = 0; i < 40; i++) big = big.assoc(`k_${i}`, i);
  assert.equal(flexGet(big, kw("k-39"), null), 39);
  assert.equal(getIn(fromJson({ a: [{ b: 3 }] }), vecOf(kw("a"), 0, kw("b")), null), 3);
  assert.equal(flexGet(setOf(1), 1, null), null);
});

Deno.test("graphemes with an ASCII fast path", () => {
  assert.equal(gCount("abc"), 3);
  assert.equal(gCount("😀a👍🏽"), 3);
  assert.deepEqual(graphemes("e\u0301x"), ["e\u0301", "x"]);
  assert.equal(gAt("a😀b", 1), "😀");
  assert.equal(gSlice("a😀bc", 1, 3), "😀b");
  assert.equal(gIndexOf("😀abcb", "b"), 2);
  assert.equal(gIndexOf("😀abcb", "b", 3), 4);
  assert.equal(gLastIndexOf("😀abcb", "b"), 4);
  assert.equal(gIndexOf("abc", "z"), -1);
});

Deno.test("truthiness and type names", () => {
  assert.ok(truthy(0) && truthy("") && truthy(vecOf()));
  assert.ok(!truthy(null) && !truthy(false));
  assert.equal(typeName(null), null);
  assert.equal(typeName(5n), "number");
  assert.equal(typeName(new LFloat(1)), "number");
});
