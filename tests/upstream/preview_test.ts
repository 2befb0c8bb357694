import assert from "node:assert/strict";
import { previewJson } from "../../src/upstream/preview.ts";

Deno.test("previewJson equals JSON.stringify for small values", () => {
  for (const v of [null, 1, 'a"b', [1, [2, {}]], { a: { b: [true, null] }, "k y": "v" }]) {
    assert.equal(previewJson(v), JSON.stringify(v));
  }
});

Deno.test("previewJson cuts long values at max characters and marks the cut", () => {
  const big = { items: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `item ${i}` })) };
  const p = previewJson(big, 40);
  assert.equal(p, `${JSON.stringify(big).slice(0, 40)}…`);
  assert.equal(previewJson("x".repeat(500), 10), `"xxxxxxxxx…`);
  assert.equal(previewJson({ a: 1 }, 7), '{"a":1}');
});
