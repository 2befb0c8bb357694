/**
 * The builtins added so that PTC-Lisp answers as JVM Clojure 1.11 does (issue 23): each case's expected answer is
 * JVM Clojure's (tests/lisp/conformance/data/corpus.json records the same forms and more).
 */
import assert from "node:assert/strict";
import { check, err } from "./helpers.ts";

Deno.test("regex replacement: Java's $n / ${name} / \\$ and function replacements", () => {
  check([
    ['(str/replace "2024-01-05" #"(\\d+)-(\\d+)-(\\d+)" "$3/$2/$1")', '"05/01/2024"'],
    ['(str/replace "abc" #"(?<x>b)" "[${x}]")', '"a[b]c"'],
    ['(str/replace "abc" #"b" "\\\\$")', '"a$c"'],
    ['(str/replace "abc" #"b" "$")', "ERR type_error"],
    ['(str/replace "abc" #"b" "$2")', "ERR type_error"],
    ['(str/replace "abc" #"b" (fn [m] (str/upper-case m)))', '"aBc"'],
    ['(str/replace "x-y" #"(\\w)-(\\w)" (fn [[_ a b]] (str b a)))', '"yx"'],
    ['(str/replace "ab" #"b" (fn [m] 1))', "ERR type_error"],
    ['(str/replace "aaa" "a" "$1")', '"$1$1$1"'],
    ['(str/replace "ab" "" "-")', '"-a-b-"'],
    ['(str/replace-first "aaa" "a" "b")', '"baa"'],
    ['(str/replace-first "a1b2" #"(\\d)" "<$1>")', '"a<1>b2"'],
    ['(str/replace-first "a1b2" #"\\d" (fn [m] (str m m)))', '"a11b2"'],
    ['(str/re-quote-replacement "$1\\\\")', '"\\\\$1\\\\\\\\"'],
    ['(str/escape "a<b>" {\\< "&lt;" \\> "&gt;"})', '"a&lt;b&gt;"'],
    ['(str/escape "abc" {\\a 1})', '"1bc"'],
  ]);
});

Deno.test("Java whitespace: trim and blank? keep U+00A0/U+2007/U+202F, drop U+001C–U+001F", () => {
  check([
    ['(str/blank? "\\u00A0")', "false"],
    ['(str/blank? "\\u2003\\u001F")', "true"],
    ['(count (str/trim "\\u00A0x\\u00A0"))', "3"],
    ['(str/trim "\\u001Cx\\u3000")', '"x"'],
    ['(str/triml "\\u2007x")', '"\\u2007x"'.replace("\\u2007", "\u2007")],
  ]);
});

Deno.test("Java's Math: ceil/floor give floats, round is floor(x + 0.5), max/min take one kind", () => {
  check([
    ["(Math/ceil 1.2)", "2.0"],
    ["(str (Math/floor 1.7))", '"1.0"'],
    ["(Math/min 2 1)", "1"],
    ["(Math/min 1 2.0)", "ERR type_error"],
    ["(Math/round -2.5)", "-2"],
  ]);
});

Deno.test("sequence steps: reductions, take-nth, rseq", () => {
  check([
    ["(reductions + [1 2 3])", "[1 3 6]"],
    ["(reductions + 10 [1 2])", "[10 11 13]"],
    ["(reductions + [])", "[0]"],
    ["(reductions (fn [a x] (if (> a 2) (reduced a) (+ a x))) [1 2 3 4])", "[1 3 3]"],
    ["(take-nth 2 [1 2 3 4 5])", "[1 3 5]"],
    ["(take-nth 0 [1])", "ERR type_error"],
    ["(rseq [1 2 3])", "[3 2 1]"],
    ["(rseq [])", "nil"],
    ['(rseq "ab")', "ERR type_error"],
  ]);
});

Deno.test("conversions: char, symbol, print-str, set of a string", () => {
  check([
    ["(char 97)", '"a"'],
    ["(char -1)", "ERR type_error"],
    ['(symbol "abc")', "abc"],
    ['(symbol "a" "b")', "a/b"],
    ["(symbol? (symbol :k))", "true"],
    ['(= (quote a) (symbol "a"))', "true"],
    ['(print-str 1 "a" nil [1 "b"])', '"1 a nil [1 b]"'],
    ['(set "hello")', '#{"e" "h" "l" "o"}'],
    ["((fn [a & {:keys [k]}] [a k]) 1 {:k 2})", "[1 2]"],
    ["((fn [& {:keys [k j]}] [k j]) :k 1 :j 5 {:k 2})", "[2 5]"],
  ]);
});

Deno.test("clojure.set relations: rename-keys, map-invert, select, project, rename, index, join", () => {
  check([
    ["(set/rename-keys {:a 1 :b 2} {:a :b :b :a})", "{:a 2 :b 1}"],
    ["(set/rename-keys {:a 1} {:z :y})", "{:a 1}"],
    ["(set/map-invert {:a 1 :b 2})", "{1 :a 2 :b}"],
    ["(set/select odd? #{1 2 3})", "#{1 3}"],
    ["(set/select odd? [1 2 3])", "ERR type_error"],
    ["(set/project #{{:a 1 :b 2} {:a 3 :b 4}} [:a])", "#{{:a 1} {:a 3}}"],
    ["(set/rename #{{:a 1}} {:a :z})", "#{{:z 1}}"],
    ["(set/index #{{:a 1 :b 2} {:a 1 :b 3}} [:a])", "{{:a 1} #{{:a 1 :b 2} {:a 1 :b 3}}}"],
    ["(set/join #{{:a 1 :b 2} {:a 2 :b 3}} #{{:a 1 :c 3}})", "#{{:a 1 :b 2 :c 3}}"],
    ["(set/join #{{:a 1}} #{{:b 2}})", "#{{:a 1 :b 2}}"],
    ["(set/join #{{:a 1}} #{{:x 1 :c 2}} {:a :x})", "#{{:a 1 :c 2 :x 1}}"],
  ]);
});

Deno.test("clojure.walk: prewalk-replace and postwalk-replace", () => {
  check([
    ["(walk/prewalk-replace {:a :b} [:a {:a 1}])", "[:b {:b 1}]"],
    ["(walk/postwalk-replace {1 2} [1 [1 {1 1}]])", "[2 [2 {2 2}]]"],
    ["(walk/postwalk-replace [1] [1])", "ERR type_error"],
  ]);
});

Deno.test("pmap, pcalls and juxt are values too; a def of a special form's name is refused", () => {
  check([
    ["(let [f pmap] (f inc [1 2]))", "[2 3]"],
    ["(map pmap [])", "[]"],
    ["((first (map juxt [inc])) 1)", "[2]"],
    ["(let [f pcalls] (f (fn [] 1) (fn [] 2)))", "[1 2]"],
    ["(def pmap 5)", "ERR invalid_form"],
    ["(defn count [x] 42) [(count [1 2]) (apply count [[1]]) (map count [[1]])]", "[42 42 [42]]"],
  ]);
});

Deno.test("a refusal says what to write instead", () => {
  assert.match(err("(< 1 nil)").message, /use compare/);
  assert.match(err('(compare "a" 1)').message, /one kind/);
  assert.match(err("(max nil 1)").message, /max-by/);
  assert.match(err('(Integer/parseInt "x")').message, /parse-long/);
  assert.match(err("(seq? [1])").message, /sequential\?/);
  assert.match(err('(str/replace "a" #"a" "$")').message, /\\\$/);
  assert.match(err("(case 3 1 :a)").message, /no clause matches 3; add a default/);
  assert.match(err("(condp = 3 1 :a)").message, /no clause matches 3/);
  assert.match(err("(nth [1] 5)").message, /\(nth coll i nil\)/);
  assert.match(err('(str/split "a,b" ",")').message, /#","/);
  assert.match(err("(defn pmap [f xs] xs)").message, /special form .* cannot be redefined/);
});
