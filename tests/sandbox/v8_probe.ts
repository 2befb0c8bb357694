/**
 * A stand-in sandbox entry for spawn_test.ts: makes short-lived garbage (so the young generation grows to what its
 * flags allow), then prints the new space's size and the heap limit as one JSON line. Needs no permission.
 * @module
 */
import v8 from "node:v8";

let keep: unknown[] = [];
for (let i = 0; i < 300_000; i++) {
  keep.push({ i, s: `x${i}` });
  if (keep.length > 1000) keep = [];
}
const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
console.log(JSON.stringify({ newSpace: space?.space_size ?? 0, heapLimit: v8.getHeapStatistics().heap_size_limit }));
