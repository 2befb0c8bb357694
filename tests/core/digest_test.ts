import assert from "node:assert/strict";
import { canonicalJson, sha256Hex } from "../../src/core/digest.ts";

Deno.test("canonicalJson: key order never matters, array order does", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }] } }), '{"a":{"d":[1,{"y":1,"z":0}]},"b":1}');
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
});

Deno.test("canonicalJson: a value nested too deep to serialize throws RangeError (callers bound or catch it)", () => {
  let deep: unknown = 0;
  for (let i = 0; i < 200_000; i++) deep = { d: deep };
  assert.throws(() => canonicalJson(deep), RangeError);
});

Deno.test("sha256Hex: the FIPS 180-2 test vector", async () => {
  assert.equal(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});
