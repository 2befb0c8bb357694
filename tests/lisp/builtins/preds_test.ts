/** Builtins: predicates and type inspection (builtins/preds.ts). */
import { check } from "./helpers.ts";

Deno.test("type predicates", () => {
  check([
    ["[(nil? nil) (nil? false) (some? false)]", "[true false true]"],
    ['[(number? 1) (number? 1.5) (number? ##NaN) (number? "1")]', "[true true true false]"],
    ['[(string? "a") (map? {}) (vector? []) (keyword? :a) (set? #{})]', "[true true true true true]"],
    ['[(coll? []) (coll? {}) (coll? #{}) (coll? "a")]', "[true true true false]"],
    ["[(fn? inc) (fn? #(+ 1 %)) (fn? :a)]", "[true true false]"],
    ["[(boolean? true) (boolean? nil)]", "[true false]"],
    [
      "[(int? 1) (int? 1.0) (integer? 9007199254740993) (float? 1.0) (float? 1) (double? 0.5)]",
      "[true false true true false true]",
    ],
    ['[(float? ##Inf) (char? \\a) (char? "ab") (true? true) (false? nil)]', "[true true false true false]"],
    ["[(double? ##NaN) (int? 10000000000000000000) (integer? 10000000000000000000)]", "[true false true]"],
  ]);
});

Deno.test("numeric predicates take numbers (even?/odd? integers) and raise otherwise, as in Clojure", () => {
  check([
    ["[(zero? 0) (zero? 0.0) (pos? 1) (pos? -1) (neg? -0.5)]", "[true true true false true]"],
    ["(zero? nil)", "ERR type_error"],
    ['(pos? "1")', "ERR type_error"],
    ["[(even? 2) (even? 3) (odd? 3) (odd? 9007199254740993)]", "[true false true true]"],
    ["(even? 2.0)", "ERR type_error"],
    ["(odd? nil)", "ERR type_error"],
    ["[(NaN? ##NaN) (infinite? 1)]", "[true false]"],
    ["(NaN? nil)", "ERR type_error"],
  ]);
});

Deno.test("structural and exotic predicates", () => {
  check([
    [
      '[(sequential? []) (seqable? nil) (seqable? 1) (associative? {}) (counted? "a")]',
      "[true true false true false]",
    ],
    ["[(indexed? []) (reversible? []) (ifn? :a) (ifn? {}) (ifn? 1)]", "[true true true true false]"],
    ["[(sorted? []) (symbol? 'a) (decimal? 1.5) (ratio? 1) (map-entry? [:a 1])]", "[false true false false false]"],
    ["(seq? [])", "ERR unbound_var"],
    ["(list? [])", "ERR unbound_var"],
    ["[(rational? 1) (nat-int? 0) (pos-int? 0) (neg-int? -1)]", "[true true false true]"],
    ['[(infinite? ##Inf) (infinite? 1) (NaN? ##NaN) (regex? #"a")]', "[true false true true]"],
  ]);
});

Deno.test("type / describe", () => {
  check([
    [
      '(map type [1 1.5 "s" :k true [] {} #{} inc #"x"])',
      "[:number :number :string :keyword :boolean :vector :map :set :function :regex]",
    ],
    ["(type nil)", "nil"],
    ["(describe {:b 1 :a 2})", "{:count 2 :keys [:a :b] :type :map}"],
    ['(:item_types (describe [1 "a" nil]))', "[:nil :number :string]"],
    ['(describe "héllo")', "{:count 5 :type :string}"],
  ]);
});
