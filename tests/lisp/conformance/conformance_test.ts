/**
 * Differential conformance: every program of `programs/*.clj` is evaluated by PTC and its printed result compared
 * with the answer JVM Clojure 1.11 recorded in expected.json (re-record with `scripts/conformance/record.ts`), or
 * with the PTC answer listed in deviations.ts. (The wide generated corpus has its own test: corpus_test.ts.)
 *
 * Normalizer (normalize.ts, purely presentational, applied uniformly): lists and vectors are the same sequence,
 * commas are whitespace, map/set order is ignored, numbers compare by value (`/` gives PTC a float where Clojure
 * has a ratio or an integer; floats within a relative 1e-9 since PTC prints at most 10 decimals). When Clojure raised,
 * PTC must fail too. println output is
 * compared line by line. One Deno.test per area; a failure lists every mismatching program with expected vs actual.
 */
import assert from "node:assert/strict";
import { loadPrograms } from "./programs.ts";
import { DEVIATIONS } from "./deviations.ts";
import { checkProgram, loadExpected, programsByArea } from "./table.ts";

const expected = loadExpected();

Deno.test("conformance table: at least 400 programs, answers recorded, deviations pinned", () => {
  const programs = loadPrograms();
  assert.ok(programs.length >= 400, `only ${programs.length} programs`);
  const ids = new Set(programs.map((p) => p.id));
  const unknown = Object.keys(DEVIATIONS).filter((id) => !ids.has(id));
  assert.deepEqual(unknown, [], "deviation entries without a program");
  const stale = programs.filter((p) => expected[p.id]?.src !== p.src).map((p) => p.id);
  assert.deepEqual(stale, [], "expected.json is stale: run scripts/conformance/record.ts");
});

for (const [area, programs] of programsByArea()) {
  Deno.test(`conformance: ${area} (${programs.length} programs)`, () => {
    const failures = programs.map((p) => checkProgram(p, expected[p.id])).filter((f) => f !== null);
    assert.equal(failures.length, 0, `${failures.length}/${programs.length} mismatches:\n  ${failures.join("\n  ")}`);
  });
}
