/** Builtins: positional access, slicing and construction (builtins/colls.ts). */
import { check } from "./helpers.ts";

Deno.test("first / second / last / nth / ffirst …", () => {
  check([
    ["(first [1 2])", "1"],
    ["(first [])", "nil"],
    ["(first nil)", "nil"],
    ['(first "héllo")', '"h"'],
    ["(first {:a 1})", "ERR type_error"],
    ["(first #{1})", "ERR type_error"],
    ["(second [1 2])", "2"],
    ["(last [1 2 3])", "3"],
    ["(last [])", "nil"],
    ['(last "ab😀")', '"😀"'],
    ["(nth [1 2] 1)", "2"],
    ["(nth [1 2] 5)", "ERR type_error"],
    ["(nth [1 2] 5 :d)", ":d"],
    ["(nth nil 5)", "nil"],
    ["(nth [1 2] -1)", "ERR type_error"],
    ["(nth [1 2] 5 :d)", ":d"],
    ['(nth "abc" 1)', '"b"'],
    ["(nth #{1} 0)", "ERR type_error"],
    ["(ffirst [[1 2] [3]])", "1"],
    ["(fnext [1 2 3])", "2"],
    ["(nfirst [[1 2 3]])", "[2 3]"],
    ["(nnext [1 2 3])", "[3]"],
    ["(nnext [1 2])", "nil"],
  ]);
});

Deno.test("rest / next / butlast / take / drop …", () => {
  check([
    ["(rest [1 2 3])", "[2 3]"],
    ["(rest [])", "[]"],
    ["(rest nil)", "[]"],
    ["(next [1])", "nil"],
    ["(next [1 2])", "[2]"],
    ["(butlast [1 2 3])", "[1 2]"],
    ["(butlast [1])", "nil"],
    ["(take 2 [1 2 3])", "[1 2]"],
    ["(take 5 [1 2])", "[1 2]"],
    ["(take -2 [1 2 3])", "[]"],
    ["(take 1 {:a 1 :b 2})", "[[:a 1]]"],
    ["(take 1 #{1})", "ERR type_error"],
    ['(take 2 "abc")', '["a" "b"]'],
    ["(drop 2 [1 2 3])", "[3]"],
    ["(drop -1 [1 2 3])", "[1 2 3]"],
    ["(take-last 2 [1 2 3])", "[2 3]"],
    ["(take-last 2 [])", "nil"],
    ["(take-last 0 [1])", "nil"],
    ["(drop-last [1 2 3])", "[1 2]"],
    ["(drop-last 2 [1 2 3])", "[1]"],
    ["(nthrest [1 2 3] 1)", "[2 3]"],
    ["(nthnext [1 2 3] 3)", "nil"],
    ["(nthnext [1 2 3] 1)", "[2 3]"],
    ["(take [1 2] 1)", "ERR type_error"],
  ]);
});

Deno.test("reverse / count / empty? / not-empty / seq / empty / vec", () => {
  check([
    ["(reverse [1 2 3])", "[3 2 1]"],
    ['(reverse "abc")', '["c" "b" "a"]'],
    ["(reverse {:a 1})", "ERR type_error"],
    ["(count [1 2])", "2"],
    ["(count nil)", "0"],
    ['(count "😀a")', "2"],
    ["(count {:a 1})", "1"],
    ["(count #{1 2})", "2"],
    ["(count 5)", "ERR type_error"],
    ["(empty? [])", "true"],
    ["(empty? nil)", "true"],
    ['(empty? "")', "true"],
    ["(empty? [1])", "false"],
    ["(not-empty [])", "nil"],
    ["(not-empty [1])", "[1]"],
    ["(seq [])", "nil"],
    ["(seq {:b 2 :a 1})", "[[:a 1] [:b 2]]"],
    ['(seq "ab")', '["a" "b"]'],
    ["(empty [1])", "[]"],
    ["(empty {:a 1})", "{}"],
    ["(empty #{1})", "#{}"],
    ['(empty "x")', "nil"],
    ["(vec nil)", "[]"],
    ["(vec #{2 1})", "[1 2]"],
    ["(vec {:a 1})", "[[:a 1]]"],
    ['(vec "ab")', '["a" "b"]'],
  ]);
});

Deno.test("vector / list / concat / cons / conj / into", () => {
  check([
    ["(vector 1 2)", "[1 2]"],
    ["(vector)", "[]"],
    ["(list 1 2)", "[1 2]"],
    ["(concat [1] nil [2 3])", "[1 2 3]"],
    ["(concat)", "[]"],
    ['(concat "ab" [1])', "ERR type_error"],
    ["(cons 0 [1 2])", "[0 1 2]"],
    ["(cons 0 nil)", "[0]"],
    ["(conj [1] 2 3)", "[1 2 3]"],
    ["(conj nil :a :b)", "[:a :b]"],
    ["(conj #{1} 2 1)", "#{1 2}"],
    ["(conj {:a 1} [:b 2])", "{:a 1 :b 2}"],
    ["(conj {:a 1} {:c 3})", "{:a 1 :c 3}"],
    ["(conj {:a 1} 5)", "ERR type_error"],
    ["(conj [1])", "[1]"],
    ["(into [] #{1})", "[1]"],
    ["(into [1] [2 3])", "[1 2 3]"],
    ["(into #{} [1 1 2])", "#{1 2}"],
    ["(into {} [[:a 1] [:b 2]])", "{:a 1 :b 2}"],
    ["(into {:a 0} {:a 1})", "{:a 1}"],
    ["(into {} [1 2])", "ERR type_error"],
    ["(into nil [1])", "[1]"],
    ["(let [v [1 2] a (conj v 3) b (conj v 4)] [a b v])", "[[1 2 3] [1 2 4] [1 2]]"],
  ]);
});

Deno.test("flatten / interleave / interpose / partition / split-at", () => {
  check([
    ["(flatten [1 [2 [3 4]] [] 5])", "[1 2 3 4 5]"],
    ["(flatten [{:a [1]} #{2}])", "[{:a [1]} #{2}]"],
    ["(flatten nil)", "[]"],
    ["(interleave [1 2 3] [:a :b])", "[1 :a 2 :b]"],
    ["(interleave)", "[]"],
    ["(interpose :x [1 2 3])", "[1 :x 2 :x 3]"],
    ["(partition 2 [1 2 3 4 5])", "[[1 2] [3 4]]"],
    ["(partition 2 1 [1 2 3])", "[[1 2] [2 3]]"],
    ["(partition 3 3 [:p] [1 2 3 4])", "[[1 2 3] [4 :p]]"],
    ["(partition 0 [1])", "ERR type_error"],
    ["(partition-all 3 [1 2 3 4 5 6 7])", "[[1 2 3] [4 5 6] [7]]"],
    ["(partition-all 2 1 [1 2 3])", "[[1 2] [2 3] [3]]"],
    ["(split-at 2 [1 2 3])", "[[1 2] [3]]"],
    ["(split-at -1 [1 2])", "[[] [1 2]]"],
  ]);
});

Deno.test("peek / pop / subvec / range / combinations / zip", () => {
  check([
    ["(peek [1 2])", "2"],
    ["(peek [])", "nil"],
    ["(pop [1 2])", "[1]"],
    ["(pop [])", "ERR type_error"],
    ["(subvec [1 2 3 4] 1 3)", "[2 3]"],
    ["(subvec [1 2 3] 1)", "[2 3]"],
    ["(subvec [1 2 3] 0 99)", "ERR type_error"],
    ["(subvec [1 2 3] 1 3)", "[2 3]"],
    ["(range 3)", "[0 1 2]"],
    ["(range 1 4)", "[1 2 3]"],
    ["(range 0 10 3)", "[0 3 6 9]"],
    ["(range 5 0 -2)", "[5 3 1]"],
    ["(range 0 1 0.25)", "[0 0.25 0.5 0.75]"],
    ["(range 0.0 2)", "[0.0 1.0]"],
    ["(range 0)", "[]"],
    ["(range 1 5 0)", "ERR type_error"],
    // (take 3 (range 1 5 0)) ;=> [1 1 1] is an analysis-time pattern (core), see worked_examples_test.ts
    ["(combinations [1 2 3] 2)", "[[1 2] [1 3] [2 3]]"],
    ["(combinations [1 2] 0)", "[[]]"],
    ["(combinations [1 2] 3)", "[]"],
    ["(zip [1 2 3] [:a :b])", "[[1 :a] [2 :b]]"],
  ]);
});

Deno.test("contains? / find / distinct? / hash-set / set", () => {
  check([
    ["(contains? {:a 1} :a)", "true"],
    ['(contains? {"a" 1} :a)', "true"],
    ["(contains? {:a nil} :a)", "true"],
    ["(contains? #{1} 1)", "true"],
    ["(contains? [10 20] 20)", "ERR type_error"],
    ["(some #{20} [10 20])", "20"],
    ["(contains? nil 1)", "false"],
    ['(contains? "abc" "a")', "ERR type_error"],
    ["(find {:a 1} :a)", "[:a 1]"],
    ["(find {:a 1} :b)", "nil"],
    ["(find [5 6] 1)", "[1 6]"],
    ["(find #{1} 1)", "ERR type_error"],
    ["(distinct? 1 2 3)", "true"],
    ["(distinct? 1 2 1)", "false"],
    ["(hash-set 1 2 1)", "#{1 2}"],
    ["(set [3 1 1])", "#{1 3}"],
    ["(set nil)", "#{}"],
    ['(set "aba")', '#{"a" "b"}'],
  ]);
});

Deno.test("sets: order-free positional ops work on members in total order, element pickers raise", () => {
  check([
    ["(rest #{3 1 2})", "[2 3]"],
    ["(reverse #{1 2})", "[2 1]"],
    ["(last #{1})", "ERR type_error"],
    ["(empty? 5)", "ERR type_error"],
  ]);
});
