/**
 * EVERY intentional difference between PTC-Lisp and JVM Clojure 1.11 in the conformance table, in one place.
 *
 * Key: program id (see programs.ts). `src` pins the program text (a renumbered file fails loudly instead of checking
 * the wrong program). `expect` is PTC's exact printer output, or `{ error: reason }` when PTC must fail with that
 * reason. `why` says which rule of PTC-Lisp gives the answer, in words a reader of docs/language.md can check
 * (§9 there lists the differences from Clojure).
 *
 * Programs in `div.clj` run in both dialects and answer differently on purpose; programs in `ptc.clj` use PTC
 * extensions that Clojure lacks. A program of any other area may appear here too.
 * @module
 */

/** PTC's expected answer for a program that deliberately differs from JVM Clojure. */
export interface Deviation {
  src: string;
  expect: string | { error: string };
  why: string;
}

/** Program id → deviation. */
export const DEVIATIONS: Record<string, Deviation> = {
  "div-1": {
    src: '(count "😀a")',
    expect: "2",
    why: "strings are indexed by grapheme (cljs counts UTF-16 units)",
  },
  "div-2": { src: '(count "👍🏽")', expect: "1", why: "one grapheme cluster (emoji + skin tone modifier)" },
  "div-3": { src: '(reverse "a😀")', expect: '["😀" "a"]', why: "sequence view of a string yields graphemes" },
  "div-4": { src: "(first {:a 1})", expect: { error: "type_error" }, why: "positional ops on maps raise" },
  "div-5": { src: "(distinct {:a 1})", expect: { error: "type_error" }, why: "positional ops on maps raise" },
  "div-6": { src: "(first #{1})", expect: { error: "type_error" }, why: "positional ops on sets raise" },
  "div-7": { src: "(take 2 #{1 2 3})", expect: { error: "type_error" }, why: "positional ops on sets raise" },
  "div-8": {
    src: "(/ 1 0)",
    expect: { error: "arithmetic_error" },
    why: "integer zero divisor raises (cljs gives ##Inf)",
  },
  "div-9": { src: "(quot 7 0)", expect: { error: "arithmetic_error" }, why: "quot raises on a zero divisor" },
  "div-10": { src: "(mod 7 0)", expect: { error: "arithmetic_error" }, why: "mod raises on a zero divisor" },
  "div-11": {
    src: "(+ 1 nil)",
    expect: { error: "type_error" },
    why: "arithmetic on nil raises (cljs coerces nil to 0)",
  },
  "div-12": {
    src: '(+ "a" 1)',
    expect: { error: "type_error" },
    why: "arithmetic on strings raises (cljs concatenates)",
  },
  "div-13": {
    src: '(update {"n" 1} :n inc)',
    expect: '{"n" 2}',
    why: "key rule (docs/language.md §2): a write uses the key the map already has (Clojure: (inc nil) raises)",
  },
  "div-15": { src: '(:a {"a" 1})', expect: "1", why: "flexible key lookup keyword -> string" },
  "div-16": { src: '(:user-id {"user_id" 7})', expect: "7", why: "flexible key lookup with - to _" },
  "div-17": { src: '(get {"name" "x"} :name)', expect: '"x"', why: "flexible key lookup in get" },
  "div-18": {
    src: '(get-in {"user" {"first_name" "Ann"}} [:user :first-name])',
    expect: '"Ann"',
    why: "flexible lookup along a get-in path",
  },
  "div-19": {
    src: '(let [{:keys [user-id]} {"user_id" 5}] user-id)',
    expect: "5",
    why: ":keys destructuring uses flexible lookup",
  },
  "div-20": {
    src: '(sort-by :n [{"n" 2} {"n" 1}])',
    expect: '[{"n" 1} {"n" 2}]',
    why: "key functions use flexible lookup",
  },
  "div-21": {
    src: '(filter :ok [{"ok" true} {"ok" false}])',
    expect: '[{"ok" true}]',
    why: "keyword predicates use flexible lookup",
  },
  "div-22": {
    src: '(select-keys {"a" 1} [:a])',
    expect: '{"a" 1}',
    why: " + key rule (docs/language.md §2): select-keys is flexible and keeps the map's own keys",
  },
  "div-25": { src: "(conj nil :a :b)", expect: "[:a :b]", why: "no list type; conj onto nil builds a vector" },
  "div-28": {
    src: "(contains? #{1} 1.0)",
    expect: "false",
    why: "set membership is exact (1 and 1.0 are distinct members)",
  },
  "div-40": {
    src: "(pr-str {:b 1 :a 2})",
    expect: '"{:a 2 :b 1}"',
    why: "maps print with sorted keys and no commas",
  },
  "div-41": {
    src: "(str {:b 1 :a [1 2]})",
    expect: '"{:a [1 2] :b 1}"',
    why: "str of a map uses the printer (sorted, no commas)",
  },
  "div-42": { src: "(keys {:b 1 :a 2})", expect: "[:a :b]", why: "keys are sorted" },
  "div-43": { src: "(vals {:b 1 :a 2})", expect: "[2 1]", why: "vals follow sorted key order" },
  "div-44": {
    src: "(map identity {:b 1 :a 2})",
    expect: "[[:a 2] [:b 1]]",
    why: "the seq view of a map is sorted by key",
  },
  "div-45": {
    src: "(into [] {:b 1 :a 2})",
    expect: "[[:a 2] [:b 1]]",
    why: "the seq view of a map is sorted by key",
  },
  "div-46": { src: "(/ 10 2)", expect: "5.0", why: "/ always returns a float (cljs has no float type)" },
  "div-47": { src: "(/ 10 3)", expect: "3.3333333333", why: "the printer shows at most 10 decimals" },
  "div-48": { src: "(+ 0.1 0.2)", expect: "0.3", why: "the printer shows at most 10 decimals" },
  "div-49": { src: "(double 3)", expect: "3.0", why: "floats print with a decimal point" },
  "div-50": { src: "(* 1.5 4)", expect: "6.0", why: "float contagion" },
  "div-51": { src: "(str (/ 10 2))", expect: '"5.0"', why: "str keeps the float mark" },
  "div-52": { src: '(str/join "," [1.0 2.5])', expect: '"1.0,2.5"', why: "str keeps the float mark" },
  "div-54": {
    src: "(int 3000000000)",
    expect: { error: "arithmetic_error" },
    why: "int raises outside the 32-bit range",
  },
  "div-55": {
    src: "(* 99999999999 99999999999)",
    expect: "9999999999800000000001",
    why: "exact integers beyond 2^53",
  },
  "div-56": { src: "(inc 9007199254740992)", expect: "9007199254740993", why: "exact integers beyond 2^53" },
  "div-57": {
    src: "(integer? 2.0)",
    expect: "false",
    why: "ints and floats are distinct (cljs has only doubles)",
  },
  "div-58": { src: "(double? 2)", expect: "false", why: "ints and floats are distinct (cljs has only doubles)" },
  "div-60": {
    src: '(split "a--b" "--")',
    expect: { error: "type_error" },
    why: "a multi-char plain-string delimiter raises",
  },
  "div-65": { src: "(def x 42)", expect: "#'x", why: "def returns the var, printed #'name (no namespace)" },
  "div-67": { src: "(fn [a b] a)", expect: "#fn[a b]", why: "closures print their parameter names" },
  "ptc-1": { src: "(sum [1 2 3])", expect: "6", why: "PTC extension" },
  "ptc-2": { src: "(sum [1 nil 2.5])", expect: "3.5", why: "PTC extension (nil skipped)" },
  "ptc-3": { src: "(sum [])", expect: "0", why: "PTC extension" },
  "ptc-4": { src: "(avg [1 2 3 4])", expect: "2.5", why: "PTC extension" },
  "ptc-5": { src: "(avg [])", expect: "nil", why: "PTC extension" },
  "ptc-6": {
    src: "(sum-by :cost [{:cost 4} {:cost nil} {:qty 9} {:cost 2.5}])",
    expect: "6.5",
    why: "PTC extension",
  },
  "ptc-7": { src: "(avg-by :n [{:n 1} {:n 2}])", expect: "1.5", why: "PTC extension" },
  "ptc-8": {
    src: "(max-by :score [{:score 3 :id 1} {:score 7 :id 2}])",
    expect: "{:id 2 :score 7}",
    why: "PTC extension",
  },
  "ptc-9": {
    src: "(min-by :score [{:score 3 :id 1} {:score 7 :id 2}])",
    expect: "{:id 1 :score 3}",
    why: "PTC extension",
  },
  "ptc-10": {
    src: "(distinct-by :k [{:k 1 :v :a} {:k 1 :v :b} {:k 2 :v :c}])",
    expect: "[{:k 1 :v :a} {:k 2 :v :c}]",
    why: "PTC extension",
  },
  "ptc-11": {
    src: '(format "%s=%d (%.1f%%)" "x" 3 12.345)',
    expect: '"x=3 (12.3%)"',
    why: "format (cljs has none)",
  },
  "ptc-12": { src: '(format "%s|%s" nil "a")', expect: '"|a"', why: '%s of nil is ""' },
  "ptc-13": { src: '(json/parse-string "{\\"a\\":[1,2]}")', expect: '{"a" [1 2]}', why: "json namespace" },
  "ptc-14": { src: '(json/parse-string "nope")', expect: "nil", why: "bad JSON is nil" },
  "ptc-15": { src: '(json/parse-string "null")', expect: "nil", why: "JSON null is nil" },
  "ptc-16": { src: '(json/generate-string {"a" 1})', expect: '"{\\"a\\":1}"', why: "json namespace" },
  "ptc-17": { src: "(json/generate-string {:a 1})", expect: "nil", why: "keyword keys are not encodable" },
  "ptc-18": { src: "(type 1)", expect: ":number", why: "type returns a keyword" },
  "ptc-19": { src: '(type "s")', expect: ":string", why: "type returns a keyword" },
  "ptc-20": { src: "(type [1])", expect: ":vector", why: "type returns a keyword" },
  "ptc-21": { src: "(type {})", expect: ":map", why: "type returns a keyword" },
  "ptc-22": { src: "(type nil)", expect: "nil", why: "type of nil is nil" },
  "ptc-23": { src: "(entries {:b 1 :a 2})", expect: "[[:a 2] [:b 1]]", why: "PTC extension" },
  "ptc-24": { src: "(zip [1 2] [:a :b])", expect: "[[1 :a] [2 :b]]", why: "PTC extension" },
  "ptc-25": { src: "(combinations [1 2 3] 2)", expect: "[[1 2] [1 3] [2 3]]", why: "PTC extension" },
  "ptc-26": { src: '(extract #"id=(\\d+)" "x id=42")', expect: '"42"', why: "PTC extension" },
  "ptc-27": { src: '(extract-int #"id=(\\d+)" "x id=42")', expect: "42", why: "PTC extension" },
  "ptc-28": { src: '(re-split #"," "a,b")', expect: '["a" "b"]', why: "PTC extension" },
  "ptc-30": { src: '(parse-int "12")', expect: "12", why: "alias of parse-long" },
  "ptc-31": { src: '(upcase "ab")', expect: '"AB"', why: "alias of upper-case" },
  "ptc-32": { src: '(downcase "AB")', expect: '"ab"', why: "alias of lower-case" },
  "ptc-33": { src: "(round 2.5)", expect: "3", why: "round returns an integer, half away from zero" },
  "ptc-34": { src: "(round -2.5)", expect: "-3", why: "round returns an integer, half away from zero" },
  "ptc-35": { src: "(floor 2.7)", expect: "2", why: "floor returns an integer" },
  "ptc-36": { src: "(ceil 2.1)", expect: "3", why: "ceil returns an integer" },
  "ptc-37": { src: "(trunc -2.7)", expect: "-2", why: "trunc returns an integer" },
  "ptc-38": { src: "(sqrt 16)", expect: "4.0", why: "sqrt returns a float" },
  "ptc-39": { src: "(pow 2 3)", expect: "8.0", why: "pow returns a float" },
  "ptc-40": { src: '(.indexOf "hello" "l")', expect: "2", why: "Java-shaped interop" },
  "ptc-41": { src: '(.length "héllo")', expect: "5", why: "Java-shaped interop" },
  "ptc-42": { src: '(.toUpperCase "ab")', expect: '"AB"', why: "Java-shaped interop" },
  "ptc-43": { src: '(.substring "hello" 1 3)', expect: '"el"', why: "Java-shaped interop" },
  "ptc-44": { src: '(Integer/parseInt "42")', expect: "42", why: "Java-shaped interop" },
  "ptc-45": { src: '(Boolean/parseBoolean "TRUE")', expect: "true", why: "Java-shaped interop" },
  "ptc-46": { src: "(infinite? ##Inf)", expect: "true", why: " (cljs has no infinite?)" },
  "ptc-47": { src: '(regex? #"a")', expect: "true", why: " (cljs has no regex?)" },
  "ptc-49": {
    src: '(frequencies (map :k [{"k" "a"} {"k" "b"} {"k" "a"}]))',
    expect: '{"a" 2 "b" 1}',
    why: "keyword access on string-keyed data",
  },
  "ptc-50": {
    src: '(->> [{"cost" 2} {"cost" 3}] (map :cost) (reduce +))',
    expect: "5",
    why: "keyword access on string-keyed data",
  },
  "logic-75": { src: "(decimal? 1.5)", expect: "false", why: "decimal? is always false (nbb has no decimal?)" },
  "numbers-79": { src: "(bit-clear 15 0)", expect: "14", why: "bit-clear (nbb's ClojureScript lacks it)" },
  "sequences-149": {
    src: "(last {:a 1})",
    expect: { error: "type_error" },
    why: "positional ops on maps raise",
  },
  "ptc-51": { src: "(pmap inc [1 2 3])", expect: "[2 3 4]", why: "pmap (cljs has none)" },
  "ptc-52": { src: "(pcalls (fn [] 1) (fn [] 2))", expect: "[1 2]", why: "pcalls" },
  "ptc-53": { src: "(do (return 5) 6)", expect: "5", why: "return ends the program with its value" },
  "ptc-55": {
    src: "(vec (keys (budget/remaining)))",
    expect: "[:time_ms]",
    why: "without a host only the time left before the deadline is known",
  },
  "ptc-56": { src: '(task "a" (+ 1 2))', expect: "3", why: "task without a journal is plain evaluation" },
  "ptc-57": { src: '(step-done "a" "sum")', expect: '"sum"', why: "step-done returns the summary" },
  "ptc-58": { src: '(.contains "abc" "b")', expect: "true", why: "Java-shaped interop" },
  "ptc-59": { src: '(Double/parseDouble "2.5")', expect: "2.5", why: "Java-shaped interop" },
  "ptc-60": { src: '(Long/parseLong "7")', expect: "7", why: "Java-shaped interop" },
  "ptc-61": {
    src: '(json/parse-lines "{\\"a\\":1}\\n\\n{\\"a\\":2}")',
    expect: '[{"a" 1} {"a" 2}]',
    why: "JSONL, blank lines skipped",
  },
  "ptc-62": { src: "(+' 1 2)", expect: "3", why: "alias (integers are already exact)" },
  "ptc-63": { src: "(inc' 1)", expect: "2", why: "alias (integers are already exact)" },
  "ptc-64": { src: "(rational? 3)", expect: "true", why: "rational? means integer" },
  "ptc-65": { src: "(ratio? 1)", expect: "false", why: "no ratios" },
  "ptc-66": { src: '(.toEpochDay (LocalDate/parse "2024-01-02"))', expect: "19724", why: "date interop" },
  "ptc-67": {
    src: '(str (.plusDays (LocalDate/parse "2024-01-30") 3))',
    expect: '"2024-02-02"',
    why: "date interop; str of a date is ISO",
  },
  "ptc-68": { src: "(= Double/POSITIVE_INFINITY ##Inf)", expect: "true", why: "special-float constants" },
  "ptc-69": {
    src: "(describe [1 2 3])",
    "expect":
      "{:count 3 :item_types [:number] :sample [{:type :number} {:type :number} {:type :number}] :type :vector}",
    why: "describe (PTC extension; pins its current shape)",
  },
  "ptc-70": {
    src: '(sort-by :n > [{"n" 1} {"n" 3} {"n" 2}])',
    expect: '[{"n" 3} {"n" 2} {"n" 1}]',
    why: "key functions use flexible lookup",
  },
  "ptc-71": {
    src: '(group-by :user-id [{"user_id" 1} {"user_id" 2} {"user_id" 1}])',
    expect: '{1 [{"user_id" 1} {"user_id" 1}] 2 [{"user_id" 2}]}',
    why: "flexible lookup with - to _",
  },
  "ptc-72": { src: '(fail "x")', expect: '"x"', why: "fail ends the run (status failed) with its value" },
  "ptc-73": { src: '(vector? (apropos "frequencies"))', expect: "true", why: "discovery (local builtins)" },
  "ptc-74": { src: "(nil? (doc frequencies))", expect: "false", why: "doc returns its text as a string" },
  "ptc-75": { src: "(:name (meta 'frequencies))", expect: '"frequencies"', why: "meta returns data" },
  "ptc-76": { src: "(ns-name 'clojure.string)", expect: '"clojure.string"', why: "ns-name" },
  "ptc-77": {
    src: '(some #(includes? % "union") (dir clojure.set))',
    expect: "true",
    why: "dir lists a namespace",
  },
  "idioms-62": {
    src: "(conj '(1 2) 3)",
    expect: "[1 2 3]",
    why: "no list type; a quoted list is a vector, so conj adds at the end",
  },
  "idioms-67": {
    src: "(require '[clojure.string :as str])",
    expect: { error: "invalid_form" },
    why: "issue 14: require is refused with a hint (clojure.string/set/walk are built in)",
  },
  "idioms-68": {
    src: "(ns my.app (:require [clojure.string :as s]))",
    expect: { error: "invalid_form" },
    why: "issue 14: a program has one namespace; ns is refused with a hint",
  },
  "idioms-70": {
    src: "(into [] (comp (filter odd?) (map inc)) [1 2 3 4])",
    expect: { error: "arity_error" },
    why: "no transducers; the collection-less call says to use ->> instead",
  },
  "idioms-71": {
    src: "(transduce (map inc) + [1 2 3])",
    expect: { error: "arity_error" },
    why: "no transducers; the collection-less call says to use ->> instead",
  },
  "idioms-72": {
    src: "(sequence (map inc) [1 2])",
    expect: { error: "arity_error" },
    why: "no transducers; the collection-less call says to use ->> instead",
  },
  "idioms-73": {
    src: "1/3",
    expect: { error: "parse_error" },
    why: "no ratios; the reader says to write (/ 1 3) (cljs reads 1/3 as a division)",
  },
  "idioms-74": {
    src: "(+ 1/2 1/2)",
    expect: { error: "parse_error" },
    why: "no ratios; the reader says to write (/ 1 2)",
  },
  "idioms-75": {
    src: "1.5M",
    expect: { error: "parse_error" },
    why: "no BigDecimal; the reader says to write 1.5",
  },
  "idioms-77": {
    src: "(eduction (map inc) [1 2])",
    expect: { error: "arity_error" },
    why: "no transducers; the collection-less call says to use ->> instead",
  },
  "idioms-78": {
    src: "(into [] (map inc) [1 2])",
    expect: { error: "arity_error" },
    why: "no transducers; the collection-less call says to use ->> instead",
  },
  "div-70": {
    src: '(int "5")',
    expect: { error: "type_error" },
    why: "issue 14: int of a string raises as in Clojure (cljs coerces); the message says (parse-long s)",
  },
  "div-71": {
    src: "(int \\a)",
    expect: { error: "type_error" },
    why: "no character type, so \\a is a string and int refuses it (Clojure gives 97)",
  },
  "div-72": {
    src: '(long "12")',
    expect: { error: "type_error" },
    why: "issue 14: long of a string raises as in Clojure (cljs coerces)",
  },
  "div-73": {
    src: '(str/includes? nil "a")',
    expect: "false",
    "why":
      "string predicates read nil as no text (JVM and cljs raise a null-pointer error); nil-punning missing fields",
  },
  "div-82": {
    src: '(str/starts-with? nil "a")',
    expect: "false",
    why: "string predicates read nil as no text (JVM and cljs raise a null-pointer error)",
  },
  "ptc-78": {
    src: "(json/generate-string {:f (fn [] 1)})",
    expect: "nil",
    why: "json/generate-string gives nil for a value JSON cannot hold (cheshire on the JVM raises)",
  },
  "compare-3": {
    src: "(= 1 1.0)",
    expect: "true",
    why: "= compares numbers by value across integers and floats (Clojure: 1 and 1.0 are not =)",
  },
  "div-26": {
    src: "(contains? [10 20] 20)",
    expect: { error: "type_error" },
    why: "contains? on a vector is refused: Clojure tests an index there (write (some #{x} v))",
  },
  "div-27": {
    src: "(contains? [10 20] 1)",
    expect: { error: "type_error" },
    why: "contains? on a vector is refused: Clojure tests an index there (write (some #{x} v))",
  },
  "div-64": {
    src: "(seq? [1])",
    expect: { error: "unbound_var" },
    why: "seq? is refused: there are no seqs or lists (use sequential? or vector?)",
  },
  "idioms-69": {
    src: "(import '[java.util Date])",
    expect: { error: "invalid_form" },
    why: "import is refused: there are no Java classes beyond the built-in veneer",
  },
  "logic-66": { src: '(char? "a")', expect: "true", why: "a character is a one-character string" },
  "logic-76": {
    src: "(seq? {:a 1})",
    expect: { error: "unbound_var" },
    why: "seq? is refused: there are no seqs or lists (use sequential? or vector?)",
  },
  "strings-56": { src: '(= \\a "a")', expect: "true", why: "a character is a one-character string" },
};
