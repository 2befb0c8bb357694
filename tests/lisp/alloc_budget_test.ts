/**
 * The allocation budget charges what growing data really costs: map and set entries and built strings, so a runaway
 * map stops near `maxAllocBytes` instead of long after it.
 */
import assert from "node:assert/strict";
import { evaluate } from "./helpers.ts";

const MiB = 1024 * 1024;

function reason(src: string, maxAllocBytes: number): string {
  const r = evaluate(src, { limits: { maxAllocBytes } });
  return r.ok ? "ok" : r.reason;
}

Deno.test("alloc budget: a map growing by assoc is charged per entry and per string", () => {
  // 100,000 entries with ~20-character string values keep ~15 MB alive; an 8 MiB budget must stop them.
  const grow = (n: number) => `(count (loop [m {} i 0] (if (< i ${n}) (recur (assoc m i (str i i i i)) (inc i)) m)))`;
  assert.equal(reason(grow(100_000), 8 * MiB), "memory_limit");
  assert.equal(reason(grow(20_000), 8 * MiB), "ok");
  assert.equal(reason("(loop [m {} i 0] (recur (assoc m i (str i i i i)) (inc i)))", 8 * MiB), "memory_limit");
});

Deno.test("alloc budget: sets, conj, into, update and assoc-in growth are charged", () => {
  const n = 100_000;
  const cases = [
    `(count (loop [s #{} i 0] (if (< i ${n}) (recur (conj s i) (inc i)) s)))`,
    `(count (loop [m {} i 0] (if (< i ${n}) (recur (conj m [i i]) (inc i)) m)))`,
    `(count (reduce (fn [m i] (update m i (fnil inc 0))) {} (range ${n})))`,
    `(count (reduce (fn [m i] (assoc-in m [:a i] i)) {} (range ${n})))`,
    `(count (into #{} (range ${n})))`,
    `(count (into {} (map (fn [i] [i i]) (range ${n}))))`,
  ];
  for (const src of cases) {
    assert.equal(reason(src, 4 * MiB), "memory_limit", src);
    assert.equal(reason(src.replaceAll(`${n}`, "10000"), 4 * MiB), "ok", src);
  }
});

Deno.test("alloc budget: replacing existing keys is not growth", () => {
  const src = "(count (loop [m {:a 0} i 0] (if (< i 200000) (recur (assoc m :a i) (inc i)) m)))";
  assert.equal(reason(src, 1 * MiB), "ok");
});
