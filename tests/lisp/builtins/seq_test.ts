/** Builtins: higher-order sequence functions (builtins/seq.ts). */
import { check } from "./helpers.ts";

Deno.test("map / mapv", () => {
  check([
    ["(map inc [1 2 3])", "[2 3 4]"],
    ["(mapv inc [1 2 3])", "[2 3 4]"],
    ["(map :a [{:a 1} {:b 2}])", "[1 nil]"],
    ['(map :a [{"a" 1}])', "[1]"],
    ["(map inc nil)", "[]"],
    ['(map identity "ab")', '["a" "b"]'],
    ["(map (fn [[k v]] (str k v)) {:b 2 :a 1})", '[":a1" ":b2"]'],
    ["(map vector [1 2 3] [:a :b])", "[[1 :a] [2 :b]]"],
    ["(map + [1 2] [10 20] [100 200])", "[111 222]"],
    ["(map #{1 2} [1 3])", "[1 nil]"],
    ["(map [1 2] inc)", "ERR type_error"],
    ["(map {:a 1} [:a])", "ERR type_error"],
    ["(map inc 5)", "ERR type_error"],
    ["(map inc)", "ERR arity_error"],
  ]);
});

Deno.test("filter / filterv / remove / keep", () => {
  check([
    ["(filter even? [1 2 3 4])", "[2 4]"],
    ["(filterv even? [1 2 3 4])", "[2 4]"],
    ["(remove even? [1 2 3 4])", "[1 3]"],
    ["(filter #{2 3} [1 2 3 4])", "[2 3]"],
    ["(filter (fn [[k v]] (> v 1)) {:a 1 :b 2})", "[[:b 2]]"],
    ["(filter odd? nil)", "[]"],
    ["(filter [1 2] odd?)", "ERR type_error"],
    ["(keep :a [{:a 1} {:a false} {}])", "[1 false]"],
    ["(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])", "[:b :d]"],
    ["(map-indexed vector [:a :b])", "[[0 :a] [1 :b]]"],
  ]);
});

Deno.test("mapcat / reduce", () => {
  check([
    ["(mapcat :xs [{:xs [1 2]} {:xs nil} {:xs [3]}])", "[1 2 3]"],
    ["(mapcat (fn [x] [x x]) [1 2])", "[1 1 2 2]"],
    ["(reduce + [1 2 3])", "6"],
    ["(reduce + 10 [1 2 3])", "16"],
    ["(reduce + [])", "0"],
    ["(reduce (fn [a b] a) [])", "ERR arity_error"],
    ["(reduce :a [])", "ERR arity_error"],
    ["(reduce + 5 nil)", "5"],
    ["(reduce conj [] {:a 1})", "[[:a 1]]"],
    ["(reduce (fn [acc x] (+ acc x)) 100 [1 2 3])", "106"],
    ["(reduce [1] +)", "ERR type_error"],
  ]);
});

Deno.test("some / every? / not-any? / not-every?", () => {
  check([
    ["(some even? [1 3 4])", "true"],
    ["(some :a [{:b 1} {:a 7}])", "7"],
    ["(some even? [])", "nil"],
    ["(some #{3} [1 3])", "3"],
    ["(every? pos? [1 2])", "true"],
    ["(every? pos? [])", "true"],
    ["(every? pos? [1 -2])", "false"],
    ["(not-any? neg? [1 2])", "true"],
    ["(not-every? pos? [1 -2])", "true"],
  ]);
});

Deno.test("take-while / drop-while / split-with / partition-by", () => {
  check([
    ["(take-while pos? [1 2 -1 3])", "[1 2]"],
    ["(drop-while pos? [1 2 -1 3])", "[-1 3]"],
    ["(split-with pos? [1 -1 2])", "[[1] [-1 2]]"],
    ["(partition-by odd? [1 3 2 4 5])", "[[1 3] [2 4] [5]]"],
    ["(partition-by :k [{:k 1} {:k 1} {:k 2}])", "[[{:k 1} {:k 1}] [{:k 2}]]"],
  ]);
});

Deno.test("sort / sort-by", () => {
  check([
    ["(sort [3 1 2])", "[1 2 3]"],
    ["(sort > [3 1 2])", "[3 2 1]"],
    ["(sort :desc [3 1 2])", "[3 2 1]"],
    ["(sort :asc [3 1 2])", "[1 2 3]"],
    ["(sort (fn [a b] (compare b a)) [3 1 2])", "[3 2 1]"],
    ['(sort [2 "b" 1 nil])', "ERR type_error"],
    ["(sort [:b :a nil])", "[nil :a :b]"],
    ["(sort [true false])", "[false true]"],
    ["(sort [{:a 1} {:a 2}])", "ERR type_error"],
    ["(sort [[1 2] [1] [0 5]])", "[[1] [0 5] [1 2]]"],
    ["(sort {:b 1 :a 2})", "[[:a 2] [:b 1]]"],
    ["(sort #{2 1})", "[1 2]"],
    ["(sort [1.5 1 ##-Inf ##Inf 0])", "[##-Inf 0 1 1.5 ##Inf]"],
    ["(sort-by :p [{:p 2} {:p 1}])", "[{:p 1} {:p 2}]"],
    ["(sort-by :price > [{:price 5} {:price 9} {:price 1}])", "[{:price 9} {:price 5} {:price 1}]"],
    ["(sort-by :p :desc [{:p 2 :i 1} {:p 3} {:p 2 :i 2}])", "[{:p 3} {:i 1 :p 2} {:i 2 :p 2}]"],
    ['(sort-by "p" [{"p" 2} {"p" 1}])', '[{"p" 1} {"p" 2}]'],
    ["(sort-by [:a :b] [{:a {:b 2}} {:a {:b 1}}])", "[{:a {:b 1}} {:a {:b 2}}]"],
    ["(sort-by count [[1 2] [1] []])", "[[] [1] [1 2]]"],
    ["(sort-by - #{1 2 3})", "[3 2 1]"],
    ["(sort-by first {:b 1 :a 2})", "[[:a 2] [:b 1]]"],
    ["(sort-by #(compare %2 %1) [1 2])", "ERR arity_error"],
  ]);
});

Deno.test("distinct / dedupe", () => {
  check([
    ["(distinct [1 2 1 3 2])", "[1 2 3]"],
    ["(distinct [{:a 1} {:a 1}])", "[{:a 1}]"],
    ["(distinct {:a 1})", "ERR type_error"],
    ["(dedupe [1 1 2 2 1])", "[1 2 1]"],
  ]);
});
