/** Builtins: equality, ordering and logic (builtins/compare.ts). */
import { check } from "./helpers.ts";

Deno.test("= / not= / ==", () => {
  check([
    ["(= 1 1.0)", "true"],
    ["(= 1 1 1)", "true"],
    ["(= 1 2)", "false"],
    ['(= :a "a")', "false"],
    ['(= \\a "a")', "true"],
    ["(= [1 2] [1 2])", "true"],
    ["(= [1] [1.0])", "true"],
    ["(= {:a 1} {:a 1})", "true"],
    ["(= {:a [1]} {:a [1 2]})", "false"],
    ["(= #{1 2} #{2 1})", "true"],
    ["(= ##NaN ##NaN)", "false"],
    ["(= nil nil)", "true"],
    ["(= nil false)", "false"],
    ["(= 9007199254740993 9007199254740993)", "true"],
    ["(not= 1 2)", "true"],
    ["(== 1 1.0)", "true"],
    ["(= 1)", "true"],
  ]);
});

Deno.test("< > <= >= take numbers; compare orders one kind at a time, like Clojure", () => {
  check([
    ["(< 1 2 3)", "true"],
    ["(< 1 3 2)", "false"],
    ["(<= 1 1 2)", "true"],
    ["(> 3 2 1)", "true"],
    ["(>= 3 3 1)", "true"],
    ["(< 1 nil)", "ERR type_error"],
    ["(> 5 nil)", "ERR type_error"],
    ['(< "a" "b")', "ERR type_error"],
    ["(< :a :b)", "ERR type_error"],
    ['(< "a")', "true"],
    ["(< 1 ##NaN)", "false"],
    ["(> 1 ##NaN)", "false"],
    ["(< 9007199254740993 9007199254740994)", "true"],
    ["(< 1 1.5 9007199254740993)", "true"],
    ["(compare 1 2)", "-1"],
    ["(compare 2 2.0)", "0"],
    ['(compare "b" "a")', "1"],
    ['(compare "a" "c")', "-2"],
    ['(compare "ab" "a")', "1"],
    ["(compare :a :c)", "-2"],
    ['(compare "a" 1)', "ERR type_error"],
    ["(compare [1 2] [1 3])", "-1"],
    ["(compare [1] [0 5])", "-1"],
    ["(compare {:a 1} {:a 1 :b 2})", "ERR type_error"],
    ["(compare false nil)", "1"],
    ["(compare nil 1)", "-1"],
    ["(compare false true)", "-1"],
    ["(compare ##NaN 1)", "0"],
  ]);
});

Deno.test("not / boolean", () => {
  check([
    ["(not nil)", "true"],
    ["(not 0)", "false"],
    ["(boolean [])", "true"],
    ["(boolean false)", "false"],
  ]);
});
