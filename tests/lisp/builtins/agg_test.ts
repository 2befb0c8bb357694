/** Builtins: aggregation (builtins/agg.ts) and sets (builtins/sets.ts). */
import { check } from "./helpers.ts";

Deno.test("sum / avg / sum-by / avg-by", () => {
  check([
    ["(sum [1 2 3])", "6"],
    ["(sum [1 nil 2.5])", "3.5"],
    ["(sum [])", "0"],
    ["(sum nil)", "0"],
    ["(sum [1.5 1.5])", "3.0"],
    ["(sum [9007199254740991 1])", "9007199254740992"],
    ['(sum [1 "a"])', "ERR arithmetic_error"],
    ["(avg [1 2])", "1.5"],
    ["(avg [2 2])", "2.0"],
    ["(avg [nil 4])", "4.0"],
    ["(avg [])", "nil"],
    ["(sum-by :cost [{:cost 4} {:cost nil} {:qty 9} {:cost 2.5}])", "6.5"],
    ['(sum-by :cost [{"cost" 1} {"cost" 2}])', "3"],
    ['(sum-by :cost [{:cost "x"}])', "ERR arithmetic_error"],
    ["(avg-by :v [{:v 1} {:v nil} {:v 2}])", "1.5"],
    ["(avg-by :v [])", "nil"],
    ["(sum-by [:a :b] [{:a {:b 1}} {:a {:b 2}}])", "3"],
  ]);
});

Deno.test("min-by / max-by / min-key / max-key / distinct-by", () => {
  check([
    ["(max-by :score [{:score 3 :id 1} {:score 7 :id 2}])", "{:id 2 :score 7}"],
    ["(min-by :score [{:score 3 :id 1} {:score 7 :id 2}])", "{:id 1 :score 3}"],
    ["(max-by :s [{:s 1 :i 1} {:s 1 :i 2}])", "{:i 1 :s 1}"],
    ["(max-by :s [{:i 1} {:s 2 :i 2}])", "{:i 2 :s 2}"],
    ["(max-by :s [])", "nil"],
    ["(max-by count [1 2] [1 2 3] [])", "[1 2 3]"],
    ['(max-key count "a" "abc" "ab")', '"abc"'],
    ['(min-key count "ab" "a" "b")', '"b"'],
    ['(max-key count "a" "b" "c")', '"c"'],
    ['(max-key count "x")', '"x"'],
    ['(max-key :a {:a "s"} {:a "t"})', "ERR type_error"],
    ["(distinct-by :k [{:k 1 :i 1} {:k 1 :i 2} {:k 2}])", "[{:i 1 :k 1} {:k 2}]"],
  ]);
});

Deno.test("frequencies / group-by", () => {
  check([
    ['(frequencies ["x" "y" "x"])', '{"x" 2 "y" 1}'],
    ['(frequencies "abca")', '{"a" 2 "b" 1 "c" 1}'],
    ["(frequencies {:a 1 :b 1})", "{[:a 1] 1 [:b 1] 1}"],
    ["(frequencies [1 1.0])", "{1 1 1.0 1}"],
    [
      '(group-by :kind [{:kind "a" :v 1} {:kind "b" :v 2} {:kind "a" :v 3}])',
      '{"a" [{:kind "a" :v 1} {:kind "a" :v 3}] "b" [{:kind "b" :v 2}]}',
    ],
    ["(group-by odd? [1 2 3])", "{false [2] true [1 3]}"],
    ["(group-by :k nil)", "{}"],
    ["(group-by :k [{:x 1}])", "{nil [{:x 1}]}"],
  ]);
});

Deno.test("sets: union / intersection / difference / subset? / disj", () => {
  check([
    ["(union #{1 2} #{2 3})", "#{1 2 3}"],
    ["(union)", "#{}"],
    ["(clojure.set/union #{1} #{4})", "#{1 4}"],
    ["(set/intersection #{1 2 3} #{2 3 4} #{3})", "#{3}"],
    ["(intersection #{1 2} #{3})", "#{}"],
    ["(difference #{1 2 3} #{2} #{3})", "#{1}"],
    ["(union #{1} [2])", "#{1 2}"],
    ["(union [1 2] [2 3])", "ERR type_error"],
    ["(union [] nil)", "[]"],
    ["(intersection [1 2] #{2})", "ERR type_error"],
    ["(difference #{1 2 3} [2])", "#{1 3}"],
    ["(difference #{1} [1 2])", "ERR type_error"],
    ["(subset? [1] #{1 2})", "true"],
    ["(union nil #{1})", "#{1}"],
    ["(set/subset? #{1} #{1 2})", "true"],
    ["(set/superset? #{1} #{1 2})", "false"],
    ["(disj #{1 2 3} 2 3)", "#{1}"],
    ["(disj nil 1)", "nil"],
    ["(#{1 2} 2)", "2"],
    ["(#{1 2} 5)", "nil"],
  ]);
});
