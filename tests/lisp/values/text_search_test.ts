/** The substring search behind `includes?` (values/text_search.ts) answers exactly as `String.prototype.includes`. */
import assert from "node:assert/strict";
import { textIncludes, textSearchStats } from "../../../src/lisp/values/text_search.ts";
import { check } from "../builtins/helpers.ts";
// The bench dataset's seedable generator: a failure names a reproducible case.
import { prng as rng } from "../../../bench/lisp/dataset.ts";

function randomText(next: () => number, alphabet: string[], n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

Deno.test("textIncludes agrees with includes on random texts over small and large alphabets", () => {
  const alphabets = [
    ["a", "b"],
    ["a", "b", "c", "d"],
    "abcdefghijklmnopqrstuvwxyz ".split(""),
    // Two-byte units, a surrogate pair's halves and characters whose pair hashes collide with ASCII ones.
    ["a", "é", "\u0161", "\ud83d", "\ude00", "\u1061", "A"],
  ];
  const next = rng(21);
  let found = 0;
  for (let round = 0; round < 3000; round++) {
    const alphabet = alphabets[round % alphabets.length];
    const text = randomText(next, alphabet, 100 + Math.floor(next() * 400));
    const m = 1 + Math.floor(next() * 70);
    // Half the needles are cut from the text (a match exists), half are random (mostly none).
    const at = Math.floor(next() * Math.max(1, text.length - m));
    const needle = round % 2 === 0 ? text.slice(at, at + m) : randomText(next, alphabet, m);
    const want = text.includes(needle);
    if (want) found++;
    assert.equal(
      textIncludes(text, needle),
      want,
      `round ${round}: ${JSON.stringify(needle)} in a ${text.length}-unit text`,
    );
  }
  assert.ok(found > 1000 && found < 3000, `both outcomes are exercised (${found} matches)`);
});

Deno.test("textIncludes: matches at the very start and end, needle as long as the text, empty needle", () => {
  const text = "x".repeat(200) + "deadline exceeded";
  assert.equal(textIncludes(text, "deadline exceeded"), true);
  assert.equal(textIncludes("deadline exceeded" + "x".repeat(200), "deadline exceeded"), true);
  assert.equal(textIncludes(text, text), true);
  assert.equal(textIncludes(text, text + "x"), false);
  assert.equal(textIncludes(text, ""), true);
  assert.equal(textIncludes(text, "deadline exceedeD"), false);
  // Many needles in turn (the kept skip tables are dropped and rebuilt): answers do not change.
  for (let i = 0; i < 40; i++) {
    const needle = `key-${i}-value`;
    const t = "y".repeat(150) + (i % 3 === 0 ? needle : "");
    assert.equal(textIncludes(t, needle), i % 3 === 0, needle);
  }
});

Deno.test("textIncludes: a needle made to verify at every position stays linear and still answers right (hostile)", () => {
  const before = textSearchStats.fallbacks;
  const text = "a".repeat(1_000_000);
  const needle = "b" + "a".repeat(63);
  assert.equal(textIncludes(text, needle), false);
  assert.equal(textIncludes(text + needle, needle), true);
  // Both searches handed the rest of the text to the engine's search after the work cap.
  assert.equal(textSearchStats.fallbacks - before, 2);
});

Deno.test("includes? keeps its answers (nil text, non-string needle, long texts)", () => {
  const long = "lorem ipsum ".repeat(20);
  check([
    [`(includes? "${long}deadline exceeded" "deadline exceeded")`, "true"],
    [`(includes? "${long}" "deadline exceeded")`, "false"],
    [`(includes? nil "abcd")`, "false"],
    [`(includes? "${long}" 5)`, "ERR type_error"],
  ]);
});
