/** "Did you mean": one nearness policy, one phrasing, bounded cost on hostile words. */
import assert from "node:assert/strict";
import {
  didYouMean,
  editDistance,
  MAX_SUGGEST_CANDIDATES,
  MAX_SUGGEST_CHARS,
  phraseSuggestions,
  suggest,
} from "../../src/core/suggest.ts";

Deno.test("editDistance: Levenshtein plus adjacent swaps; stops past the cutoff", () => {
  assert.equal(editDistance("", ""), 0);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("nmae", "name"), 1);
  assert.equal(editDistance("fliter", "filter"), 1);
  assert.equal(editDistance("abc", ""), 3);
  assert.equal(editDistance("abcdef", "uvwxyz", 2), 3);
  assert.equal(editDistance("a", "abcdefgh", 2), 3);
});

Deno.test("suggest: near names only, nearest tier first", () => {
  assert.deepEqual(suggest("mapp", ["map", "mapv", "filter"]), ["map", "mapv"]);
  assert.deepEqual(suggest("fliter", ["filter", "first", "filterv", "flatten"]), ["filter"]);
  assert.deepEqual(suggest("nmae", ["name", "names", "path"]), ["name"]);
  assert.deepEqual(suggest("limit", ["limits", "catalog", "upstreams"]), ["limits"]);
  assert.deepEqual(suggest("argz", ["server", "tool", "args"]), ["args"]);
  assert.deepEqual(suggest("tk", ["tok", "other"]), ["tok"]);
  assert.deepEqual(suggest("Mth", ["Math", "String"]), ["Math"]);
});

Deno.test("suggest: a one-letter name is not 'near' an unrelated operator; short prefixes are", () => {
  assert.deepEqual(suggest("a", ["*", "+", "-"]), []);
  assert.deepEqual(suggest("x", ["*", "+", "-", "xs"]), ["xs"]);
  assert.deepEqual(suggest("ab", ["xy", "cd"]), []);
  assert.deepEqual(suggest("abc", ["xbz"]), []);
});

Deno.test("suggest: prefixes, contained names, reordered parts, case and -/_ do not hide a match", () => {
  assert.deepEqual(suggest("get-trac", ["get-trace", "list-traces"]), ["get-trace"]);
  assert.deepEqual(suggest("list-traces-by-org", ["list-traces", "get-trace"]), ["list-traces"]);
  assert.deepEqual(suggest("trace", ["get-trace", "hello"]), ["get-trace"]);
  assert.deepEqual(suggest("max_calls", ["max_tool_calls", "call_timeout_ms"]), ["max_tool_calls"]);
  assert.deepEqual(suggest("traces_list", ["list_traces", "get_trace"]), ["list_traces"]);
  assert.deepEqual(suggest("List_Traces", ["list-traces", "hello"]), ["list-traces"]);
  // a one-character candidate is not "contained" in a longer word
  assert.deepEqual(suggest("xyz_a", ["a"]), []);
});

Deno.test("suggest: the word itself and duplicates are not offered; at most three names", () => {
  assert.deepEqual(suggest("map", ["map", "mapv", "mapv"]), ["mapv"]);
  assert.deepEqual(suggest("m", ["map", "mapv", "max", "min", "mod"]).length, 3);
});

Deno.test("phrasing: one form for one, two and three names", () => {
  assert.equal(phraseSuggestions([]), "");
  assert.equal(phraseSuggestions(["a"]), ' (did you mean "a"?)');
  assert.equal(phraseSuggestions(["a", "b"]), ' (did you mean "a" or "b"?)');
  assert.equal(phraseSuggestions(["a", "b", "c"]), ' (did you mean "a", "b" or "c"?)');
  assert.equal(didYouMean("mapp", ["map", "mapv"]), ' (did you mean "map" or "mapv"?)');
  assert.equal(didYouMean("zzz", ["map", "mapv"]), "");
});

Deno.test("bounded cost: overlong words and candidates get no suggestion; the candidate count is capped", () => {
  const huge = "k".repeat(8_000_000);
  const started = performance.now();
  assert.deepEqual(suggest(huge, ["key", "kk", huge.slice(0, MAX_SUGGEST_CHARS + 1)]), []);
  assert.deepEqual(suggest("key", [huge, "k".repeat(MAX_SUGGEST_CHARS + 1)]), []);
  assert.deepEqual(suggest("x".repeat(MAX_SUGGEST_CHARS), ["x".repeat(MAX_SUGGEST_CHARS - 1)]), [
    "x".repeat(MAX_SUGGEST_CHARS - 1),
  ]);
  // many candidates of the longest length: the work stays capped (the unbounded version took seconds)
  const many = Array.from({ length: MAX_SUGGEST_CANDIDATES + 1_000 }, (_, i) => `${i}`.padEnd(MAX_SUGGEST_CHARS, "y"));
  suggest("y".repeat(MAX_SUGGEST_CHARS), many);
  // candidates past the cap are not examined
  const late = [...Array.from({ length: MAX_SUGGEST_CANDIDATES }, (_, i) => `zz${i}zz`), "filter"];
  assert.deepEqual(suggest("filtr", late), []);
  assert.ok(performance.now() - started < 2_000, "hostile suggestion lookups return promptly");
});
