/** `(take n (range a b 0))` is n copies of a (docs/language.md §5); a zero step elsewhere stays an error. */
import { check } from "./helpers.ts";

Deno.test("take of a zero-step range: the literal pattern", () => {
  check([
    ["(take 3 (range 1 5 0))", "[1 1 1]"],
    ["(take 2 (range 1.5 5 0))", "[1.5 1.5]"],
    ["(take 3 (range 1 5 0.0))", "[1 1 1]"],
    ["(take 3 (range 1 1 0))", "[]"],
    ["(take 0 (range 1 5 0))", "[]"],
    ["(take -2 (range 1 5 0))", "[]"],
    ["(->> (range 2 5 0) (take 2))", "[2 2]"],
    ["(let [n 2 a 7] (take n (range a 9 0)))", "[7 7]"],
    ["(take 2 (range :a 5 0))", "ERR type_error"],
    ["(take :x (range 1 5 0))", "ERR type_error"],
    ["(take 1000000000 (range 1 5 0))", "ERR memory_limit"],
  ]);
});

Deno.test("take of a zero-step range: anything but the literal pattern still raises", () => {
  check([
    ["(range 1 5 0)", "ERR type_error"],
    ["(let [z 0] (take 3 (range 1 5 z)))", "ERR type_error"],
    ["(take 3 (vec (range 1 5 0)))", "ERR type_error"],
    ["(let [take (fn [n xs] :mine)] (take 3 (range 1 5 0)))", "ERR type_error"],
    ["(let [range (fn [a b c] [a b c])] (take 2 (range 1 5 0)))", "[1 5]"],
  ]);
});
