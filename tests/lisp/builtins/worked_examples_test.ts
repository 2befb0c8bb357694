/**
 * Worked examples of the builtins (sequences, maps, numbers and comparison, strings, regex, JSON), checked end to end.
 */
import { check } from "./helpers.ts";

Deno.test("worked examples: sequences & aggregation", () => {
  check([
    ["(->> [1 2 3 4 5] (filter odd?) (map #(* % %)) (reduce +))", "35"],
    ["(filter :active [{:active true :id 1} {:active false :id 2} {:id 3}])", "[{:active true :id 1}]"],
    ["(keep #(when (even? %) (* % 10)) [1 2 3 4])", "[20 40]"],
    ["(reduce (fn [acc x] (+ acc x)) 100 [1 2 3])", "106"],
    ["(sort-by :price > [{:price 5} {:price 9} {:price 1}])", "[{:price 9} {:price 5} {:price 1}]"],
    ["(sort (fn [a b] (compare b a)) [3 1 2])", "[3 2 1]"],
    ['(sort [2 "b" 1 nil])', "ERR type_error"],
    ['(sort ["b" nil "a"])', '[nil "a" "b"]'],
    [
      '(group-by :kind [{:kind "a" :v 1} {:kind "b" :v 2} {:kind "a" :v 3}])',
      '{"a" [{:kind "a" :v 1} {:kind "a" :v 3}] "b" [{:kind "b" :v 2}]}',
    ],
    ['(-> (group-by :s [{:s "ok"} {:s "err"} {:s "ok"}]) (update-vals count))', '{"err" 1 "ok" 2}'],
    ['(frequencies ["x" "y" "x"])', '{"x" 2 "y" 1}'],
    ["(partition-all 3 [1 2 3 4 5 6 7])", "[[1 2 3] [4 5 6] [7]]"],
    ["(some #(when (> % 2) (* % 10)) [1 2 3 4])", "30"],
    ["(sum-by :cost [{:cost 4} {:cost nil} {:qty 9} {:cost 2.5}])", "6.5"],
    ["(max-by :score [{:score 3 :id 1} {:score 7 :id 2}])", "{:id 2 :score 7}"],
    ["(map + [1 2] [10 20] [100 200])", "[111 222]"],
    ["(into {} (map (fn [[k v]] [k (* 2 v)]) {:a 1 :b 2}))", "{:a 2 :b 4}"],
    ["(range 0 10 3)", "[0 3 6 9]"],
    ["(contains? [10 20] 20)", "ERR type_error"],
    ["(first {:a 1})", "ERR type_error"],
  ]);
});

Deno.test("worked examples: maps & keys", () => {
  check([
    ["(update {:n 1} :n + 5)", "{:n 6}"],
    ["(assoc-in {} [:a :b] 1)", "{:a {:b 1}}"],
    ["(get-in {:rows [{:id 7}]} [:rows 0 :id])", "7"],
    ["(merge-with + {:x 1 :y 2} {:x 10 :z 5})", "{:x 11 :y 2 :z 5}"],
    ["(select-keys {:p 1 :q 2 :r 3} [:r :p])", "{:p 1 :r 3}"],
    ["(keys {:b 1 :a 2})", "[:a :b]"],
    ['(:a {"a" 1})', "1"],
    ['(:user-id {"user_id" 7})', "7"],
    ['(get {"a" 1 :a 2} :a)', "2"],
  ]);
});

Deno.test("worked examples: numbers & comparison", () => {
  check([
    ["(/ 10 2)", "5.0"],
    ["(/ 10 3)", "3.3333333333"],
    ["(round 2.5)", "3"],
    ["(round -2.5)", "-3"],
    ["(/ 1.0 0.0)", "##Inf"],
    ["(/ 1 0)", "ERR arithmetic_error"],
    ["(/ 1.0 0)", "ERR arithmetic_error"],
    ["(+ 1 nil)", "ERR type_error"],
    ["(= 1 1.0)", "true"],
    ["(< 1 nil)", "ERR type_error"],
    ["(> 5 nil)", "ERR type_error"],
    ['(compare "a" 1)', "ERR type_error"],
    ["(max nil 1)", "ERR type_error"],
    ["(* 99999999999 99999999999)", "9999999999800000000001"],
    ["(abs -9223372036854775808)", "9223372036854775808"],
    ["(- ##Inf ##Inf)", "##NaN"],
    ["(* ##Inf 0)", "##NaN"],
    ["(+)", "0"],
    ["(*)", "1"],
    ["(- 5)", "-5"],
    ["(-)", "ERR arity_error"],
    ["(+ 0.1 0.2)", "0.3"],
    ["1.0e20", "100000000000000000000.0"],
  ]);
});

Deno.test("worked examples: strings, regex, JSON", () => {
  check([
    ['(str "n=" 42 " " :k " " nil "|" 1.5)', '"n=42 :k |1.5"'],
    ['(split "a,b,,c" #",")', '["a" "b" "" "c"]'],
    ['(split "a--b" "--")', "ERR type_error"],
    ['(subs "abc" 10)', "ERR type_error"],
    ['(format "%s=%d (%.1f%%)" "x" 3 12.345)', '"x=3 (12.3%)"'],
    ['(re-find #"(\\d+)-(\\d+)" "id 10-20")', '["10-20" "10" "20"]'],
    ['(parse-long "42x")', "nil"],
    ['(pr-str "a" nil {:b [1]})', '"\\"a\\" nil {:b [1]}"'],
    ['(json/parse-string "{\\"a\\":[1,2]}")', '{"a" [1 2]}'],
    ["(json/generate-string {:a 1})", "nil"],
    ['(count "😀a")', "2"],
    ['(reverse "abc")', '["c" "b" "a"]'],
    ["(str (+ 0.1 0.2))", '"0.30000000000000004"'],
  ]);
});
