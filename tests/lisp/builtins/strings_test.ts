/** Builtins: strings, parsing and output (builtins/strings.ts). */
import assert from "node:assert/strict";
import { check, prints } from "./helpers.ts";

Deno.test("str / pr-str / format / name / keyword", () => {
  check([
    ['(str "n=" 42 " " :k " " nil "|" 1.5)', '"n=42 :k |1.5"'],
    ["(str)", '""'],
    ["(str nil)", '""'],
    ["(str 5.0)", '"5.0"'],
    ["(str 1.0e20)", '"1.0E20"'],
    ["(str 1e7)", '"1.0E7"'],
    ["(str 1234567.0)", '"1234567.0"'],
    ["(str 0.001)", '"0.001"'],
    ["(str 0.0001)", '"1.0E-4"'],
    ['(str #"a+")', '"a+"'],
    ["(str 'a)", '"a"'],
    ["(str 1.0e-7)", '"1.0E-7"'],
    ["(str ##Inf ##NaN)", '"InfinityNaN"'],
    ['(str [1 "a" :b] {:x nil})', '"[1 \\"a\\" :b]{:x nil}"'],
    ["(str 9007199254740993)", '"9007199254740993"'],
    ['(pr-str "a" nil {:b [1]})', '"\\"a\\" nil {:b [1]}"'],
    ["(pr-str)", '""'],
    ['(format "%s=%d (%.1f%%)" "x" 3 12.345)', '"x=3 (12.3%)"'],
    ['(format "%s|%s" nil :k)', '"|:k"'],
    ['(format "%f" 1.5)', '"1.500000"'],
    ['(format "%.2f" 2)', '"2.00"'],
    ['(format "%5d|%-3s|%05.1f" 42 "a" 3.14159)', '"   42|a  |003.1"'],
    ['(format "%x %o %e" 255 8 12345.678)', '"ff 10 1.234568e+04"'],
    ['(format "%s")', "ERR type_error"],
    ['(format "%d" 1.5)', "ERR type_error"],
    ['(format "%s" 1 2)', '"1"'],
    ["(name :abc)", '"abc"'],
    ['(name "abc")', '"abc"'],
    ["(name 5)", "ERR type_error"],
    ['(keyword "abc")', ":abc"],
    ["(keyword :a)", ":a"],
    ["(keyword nil)", "nil"],
    ['(keyword "a b")', "ERR type_error"],
    ["(keyword 5)", "ERR type_error"],
  ]);
});

Deno.test("subs / join / split / split-lines", () => {
  check([
    ['(subs "hello" 1 3)', '"el"'],
    ['(subs "hello" 2)', '"llo"'],
    ['(subs "abc" 10)', "ERR type_error"],
    ['(subs "abc" -1)', "ERR type_error"],
    ['(subs "abc" 1 99)', "ERR type_error"],
    ['(subs "abc" 3)', '""'],
    ['(subs "😀ab" 1 2)', '"a"'],
    ['(join ", " [1 "a" :b nil])', '"1, a, :b, "'],
    ["(join [1 2])", '"12"'],
    ['(join "-" nil)', '""'],
    ['(str/join "," #{2 1})', '"1,2"'],
    ['(split "a,b,,c" #",")', '["a" "b" "" "c"]'],
    ['(split "a,b,," #",")', '["a" "b"]'],
    ['(split "a,b,," #"," -1)', '["a" "b" "" ""]'],
    ['(split "a,b" ",")', "ERR type_error"],
    ['(split "a1b22c" #"\\d+")', '["a" "b" "c"]'],
    ['(split "abc" #"")', '["a" "b" "c"]'],
    ['(split "a b c" #" " 2)', '["a" "b c"]'],
    ['(split-lines "a\\nb\\r\\nc\\n\\n")', '["a" "b" "c"]'],
    ['(split-lines "")', '[""]'],
    ['(clojure.string/split "a:b" #":")', '["a" "b"]'],
  ]);
});

Deno.test("trim / blank? / replace / case / tests / index-of", () => {
  check([
    ['(trim "  a b ")', '"a b"'],
    ['(triml "  a ")', '"a "'],
    ['(trimr "  a ")', '"  a"'],
    ['(trim-newline "a\\r\\n\\n")', '"a"'],
    ['[(blank? nil) (blank? "") (blank? " \\t") (blank? "a")]', "[true true true false]"],
    ['(replace "a-b-c" "-" "+")', '"a+b+c"'],
    ['(replace "a1b22" #"\\d+" "#")', '"a#b#"'],
    ['(replace "a.b" "." "$1")', '"a$1b"'],
    ["(replace {:a 1} [:a :b])", "[1 :b]"],
    ['(upper-case "abc")', '"ABC"'],
    ['(lower-case "ÀB")', '"àb"'],
    ['(upcase "a")', '"A"'],
    ['(downcase "A")', '"a"'],
    [
      '[(starts-with? "abc" "ab") (ends-with? "abc" "bc") (includes? "abc" "b") (includes? nil "b")]',
      "[true true true false]",
    ],
    ['(includes? 5 "b")', "ERR type_error"],
    ['(index-of "abcb" "b")', "1"],
    ['(index-of "abcb" "b" 2)', "3"],
    ['(index-of "abc" "z")', "nil"],
    ['(index-of "😀ab" "b")', "2"],
    ['(last-index-of "abcb" "b")', "3"],
    ['(str/upper-case "x")', '"X"'],
    ['(clojure.string/capitalize "x")', '"X"'],
  ]);
});

Deno.test("parse-long / parse-int / parse-double / parse-boolean", () => {
  check([
    ['(parse-long "42")', "42"],
    ['(parse-long "-7")', "-7"],
    ['(parse-long "42x")', "nil"],
    ['(parse-long "9223372036854775807")', "9223372036854775807"],
    ['(parse-long "9223372036854775808")', "nil"],
    ["(parse-long 42)", "ERR type_error"],
    ["(parse-long nil)", "nil"],
    ['(parse-int "12")', "12"],
    ['(parse-double "1.5")', "1.5"],
    ['(parse-double "2")', "2.0"],
    ['(parse-double "1e3")', "1000.0"],
    ['(parse-double "Infinity")', "##Inf"],
    ['(parse-double "abc")', "nil"],
    ['(parse-boolean "true")', "true"],
    ['(parse-boolean "false")', "false"],
    ['(parse-boolean "TRUE")', "nil"],
  ]);
});

Deno.test("println", () => {
  assert.deepEqual(prints('(println "n:" 5 [1 "s"])'), ["n: 5 [1 s]"]);
  assert.deepEqual(prints('(println (take 5 "hello!"))'), ["[h e l l o]"]);
  assert.deepEqual(prints("(println)"), [""]);
  assert.deepEqual(prints('(println nil :k 1.0 "x")'), ["nil :k 1.0 x"]);
  check([['(println "x")', "nil"]]);
});
