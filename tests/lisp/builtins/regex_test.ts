/** Builtins: regular expressions (builtins/regex.ts). */
import { check } from "./helpers.ts";

Deno.test("re-pattern / re-find / re-matches / re-seq", () => {
  check([
    ['(re-find #"\\d+" "ab 123 45")', '"123"'],
    ['(re-find #"(\\d+)-(\\d+)" "id 10-20")', '["10-20" "10" "20"]'],
    ['(re-find #"(a)|(b)" "b")', '["b" nil "b"]'],
    ['(re-find #"z" "abc")', "nil"],
    ['(re-find (re-pattern "a.c") "xabcx")', '"abc"'],
    ['(re-find "b+" "abbc")', "ERR type_error"],
    ['(re-find (re-pattern "b+") "abbc")', '"bb"'],
    ['(re-matches #"\\s" "\u00A0")', "nil"],
    ['(re-find #"\\Qa.b\\E" "a.b")', '"a.b"'],
    ['(re-matches #"\\d+" "123")', '"123"'],
    ['(re-matches #"\\d+" "123a")', "nil"],
    ['(re-matches #"(\\w+)@(\\w+)" "me@host")', '["me@host" "me" "host"]'],
    ['(re-seq #"\\d" "a1b2c3")', '["1" "2" "3"]'],
    ['(re-seq #"(\\w)=(\\d)" "a=1 b=2")', '[["a=1" "a" "1"] ["b=2" "b" "2"]]'],
    ['(re-seq #"z" "abc")', "nil"],
    ['(re-seq #"" "ab")', '["" "" ""]'],
    ['(re-find #"(?i)HELLO" "say hello")', '"hello"'],
    ['(re-find #"é" "café")', '"é"'],
    ['(pr-str #"\\d+")', '"#\\"\\\\d+\\""'],
    ['(re-pattern "(a+)+b")', "ERR type_error"],
    ['(re-pattern "(x*)*")', "ERR type_error"],
    ['(re-pattern "[")', "ERR type_error"],
    ['(re-find 5 "a")', "ERR type_error"],
  ]);
});

Deno.test("re-split / extract / extract-int / regex/ alias", () => {
  check([
    ['(re-split #",\\s*" "a, b,c")', '["a" "b" "c"]'],
    ['(extract #"id=(\\d+)" "x id=42 y")', '"42"'],
    ['(extract "(\\w+)@(\\w+)" "me@host" 2)', '"host"'],
    ['(extract #"id=(\\d+)" "none")', "nil"],
    ['(extract-int #"id=(\\d+)" "x id=42 y")', "42"],
    ['(extract-int #"id=(\\w+)" "id=abc" 1 -1)', "-1"],
    ['(regex/re-find #"a" "cat")', '"a"'],
  ]);
});
