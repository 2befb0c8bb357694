/** Builtins models reach for from Clojure: reduced, repeat, str/capitalize, str/reverse (issue 14). */
import assert from "node:assert/strict";
import { check } from "./helpers.ts";
import { evaluate } from "../../../src/lisp/mod.ts";

Deno.test("reduced ends reduce and reduce-kv early; reduced? / unreduced / ensure-reduced", () => {
  check([
    ["(reduce (fn [a x] (if (> a 5) (reduced a) (+ a x))) 0 (range 100))", "6"],
    ["(reduce (fn [a x] (if (= x 2) (reduced :hit) a)) [1 2 3])", ":hit"],
    ["(reduce (fn [a x] (if (= x 2) (reduced :hit) a)) [1 2 3])", ":hit"],
    ["(reduce-kv (fn [a k v] (if (= k :b) (reduced a) (+ a v))) 0 {:a 1 :b 2 :c 3})", "1"],
    ["(reduced? (reduced 1))", "true"],
    ["(reduced? 1)", "false"],
    ["(unreduced (reduced [1]))", "[1]"],
    ["(unreduced 4)", "4"],
    ["(reduced? (ensure-reduced 1))", "true"],
    ["(unreduced (ensure-reduced (reduced 2)))", "2"],
    ["(reduced 3)", "#reduced[3]"],
  ]);
});

Deno.test("reduced stops the fold: later items are never visited", () => {
  const r = evaluate("(reduce (fn [a x] (println x) (if (= x 2) (reduced a) (+ a x))) 0 [1 2 3 4])");
  assert.ok(r.ok);
  assert.deepEqual(r.prints, ["1", "2"]);
});

Deno.test("repeat is finite and charges memory; (repeat x) says to give a count", () => {
  check([
    ["(repeat 3 :x)", "[:x :x :x]"],
    ["(repeat 0 1)", "[]"],
    ["(repeat -1 1)", "[]"],
    ["(count (repeat 100000 nil))", "100000"],
    ["(repeat 1)", "ERR arity_error"],
    ['(repeat "3" 1)', "ERR type_error"],
  ]);
  const r = evaluate("(count (repeat 100000000 1))", { limits: { maxAllocBytes: 1_000_000 } });
  assert.ok(!r.ok && r.reason === "memory_limit");
});

Deno.test("str/capitalize and str/reverse work on characters; the unqualified reverse stays a sequence function", () => {
  check([
    ['(str/capitalize "hELLO wORLD")', '"Hello world"'],
    ['(str/capitalize "")', '""'],
    ['(capitalize "éclair")', '"Éclair"'],
    ['(str/capitalize "👍🏽ok")', '"👍🏽ok"'],
    ["(str/capitalize 1)", "ERR type_error"],
    ['(str/reverse "abc")', '"cba"'],
    ['(clojure.string/reverse "a😀b")', '"b😀a"'],
    ['(reverse "abc")', '["c" "b" "a"]'],
    ["(str/reverse nil)", "ERR type_error"],
  ]);
});
