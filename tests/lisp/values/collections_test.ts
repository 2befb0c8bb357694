/** Persistent vector, hash map and set (values/vector.ts, values/hashmap.ts). */
import assert from "node:assert/strict";
import {
  EMPTY_MAP,
  EMPTY_SET,
  EMPTY_VEC,
  kw,
  LFloat,
  MapBuilder,
  mapOf,
  NOT_FOUND,
  type PMap,
  SetBuilder,
  setOf,
  type Value,
  vecFrom,
  vecOf,
} from "../../../src/lisp/values/mod.ts";

Deno.test("vector: conj shares on the newest version and copies on older ones", () => {
  const v1 = vecOf(1, 2);
  const v2 = v1.conj(3);
  const v3 = v1.conj(4);
  assert.deepEqual(v1.toArray(), [1, 2]);
  assert.deepEqual(v2.toArray(), [1, 2, 3]);
  assert.deepEqual(v3.toArray(), [1, 2, 4]);
  assert.equal(v2.buf, v1.buf, "newest conj pushes in place");
  assert.notEqual(v3.buf, v1.buf, "older conj copies");
  let v = EMPTY_VEC;
  for (let i = 0; i < 1000; i++) v = v.conj(i);
  assert.equal(v.n, 1000);
  assert.equal(EMPTY_VEC.n, 0);
  assert.equal(EMPTY_VEC.buf.length, 0, "the shared empty vector is never written");
});

Deno.test("vector: assoc, slice, view, conjAll", () => {
  const v = vecFrom([1, 2, 3]);
  assert.deepEqual(v.assoc(0, 9).toArray(), [9, 2, 3]);
  assert.deepEqual(v.assoc(3, 4).toArray(), [1, 2, 3, 4]);
  assert.deepEqual(v.toArray(), [1, 2, 3]);
  assert.deepEqual(v.slice(1, 3).toArray(), [2, 3]);
  assert.equal(v.slice(0, 3), v);
  assert.deepEqual(v.conjAll([4, 5]).toArray(), [1, 2, 3, 4, 5]);
  assert.deepEqual(v.view(), [1, 2, 3]);
  assert.equal(v.get(5), undefined);
});

Deno.test("map: small and large maps agree with a JS model under random operations", () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  // "Aa" and "BB" have the same 31-polynomial hash: exercises collision nodes.
  const keyOf = (i: number): Value => (i % 3 === 0 ? `k${i}` : i % 3 === 1 ? i : i % 2 ? "Aa" + i : "BB" + i);
  for (const size of [10, 40, 3000]) {
    let m: PMap = EMPTY_MAP;
    const model = new Map<Value, Value>();
    for (let step = 0; step < size * 3; step++) {
      const k = keyOf(rnd(size));
      if (rnd(4) === 0) {
        m = m.dissoc(k);
        model.delete(k);
      } else {
        m = m.assoc(k, step);
        model.set(k, step);
      }
      assert.equal(m.size, model.size);
    }
    for (const [k, v] of model) assert.equal(m.get(k), v);
    let seen = 0;
    m.forEach((k, v) => {
      seen++;
      assert.equal(model.get(k), v);
    });
    assert.equal(seen, model.size);
    assert.equal(m.get("absent", NOT_FOUND), NOT_FOUND);
  }
});

Deno.test("map: colliding keys", () => {
  const m = mapOf("Aa", 1, "BB", 2);
  assert.equal(m.get("Aa"), 1);
  assert.equal(m.get("BB"), 2);
  let big = EMPTY_MAP;
  for (let i = 0; i < 100; i++) big = big.assoc(i, i);
  big = big.assoc("Aa", 1).assoc("BB", 2);
  assert.equal(big.get("Aa"), 1);
  assert.equal(big.get("BB"), 2);
  assert.equal(big.dissoc("Aa").get("BB"), 2);
  assert.equal(big.dissoc("Aa").size, 101);
});

Deno.test("map: structural keys, exact key equality", () => {
  const m = mapOf(vecOf(1, 2), "v", kw("a"), "kw", "a", "str", 1, "int", new LFloat(1), "float");
  assert.equal(m.size, 5);
  assert.equal(m.get(vecOf(1, 2)), "v");
  assert.equal(m.get(kw("a")), "kw");
  assert.equal(m.get("a"), "str");
  assert.equal(m.get(1), "int");
  assert.equal(m.get(new LFloat(1)), "float");
  assert.equal(m.assoc(vecOf(1, 2), "w").size, 5);
});

Deno.test("map builder: transient writes do not leak into built maps", () => {
  const b = new MapBuilder();
  for (let i = 0; i < 50; i++) b.set(i, i);
  const m1 = b.build();
  b.set(0, "changed").set(100, 100);
  const m2 = b.build();
  assert.equal(m1.get(0), 0);
  assert.equal(m1.size, 50);
  assert.equal(m2.get(0), "changed");
  assert.equal(m2.size, 51);
  const from = MapBuilder.from(m1).set(1, "x").build();
  assert.equal(m1.get(1), 1);
  assert.equal(from.get(1), "x");
  const small = new MapBuilder().set("a", 1);
  const s1 = small.build();
  small.set("a", 2);
  assert.equal(s1.get("a"), 1);
  assert.equal(new MapBuilder().set("a", 1).delete("a").build(), EMPTY_MAP);
});

Deno.test("set: add, delete, builder, members", () => {
  const s = setOf(1, 2, 2, 3);
  assert.equal(s.size, 3);
  assert.ok(s.has(2));
  assert.ok(!s.has(4));
  assert.equal(s.add(2), s);
  assert.equal(s.delete(2).size, 2);
  assert.equal(EMPTY_SET.size, 0);
  const b = new SetBuilder(s);
  b.add(9);
  assert.ok(b.has(9));
  assert.equal(b.build().size, 4);
  assert.equal(s.size, 3);
  assert.deepEqual(s.members().sort(), [1, 2, 3]);
});

Deno.test("building 100,000-entry collections is fast enough to be linear-ish", () => {
  const b = new MapBuilder();
  for (let i = 0; i < 100_000; i++) b.set(i, i);
  const m = b.build();
  assert.equal(m.size, 100_000);
  let p = EMPTY_MAP;
  for (let i = 0; i < 100_000; i++) p = p.assoc(`k${i}`, i);
  assert.equal(p.size, 100_000);
  assert.equal(p.get("k99999"), 99_999);
});
