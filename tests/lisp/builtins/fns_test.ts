/** Builtins: functional tools (builtins/fns.ts) and tree walking (builtins/walk.ts). */
import { check } from "./helpers.ts";

Deno.test("identity / apply / partial / comp", () => {
  check([
    ["(identity 5)", "5"],
    ["(apply + [1 2 3])", "6"],
    ["(apply + 1 2 [3 4])", "10"],
    ["(apply max #{1 5 3})", "5"],
    ["(apply vector {:a 1})", "[[:a 1]]"],
    ["(apply + 1)", "ERR type_error"],
    ["(apply + nil)", "0"],
    ["(apply + 1 2)", "ERR type_error"],
    ['(apply str "abc")', '"abc"'],
    ["(map apply [+ -] [[1 2] [5 3]])", "[3 2]"],
    ["((partial + 10) 5)", "15"],
    ['((partial str "a" "b") "c")', '"abc"'],
    ["((comp inc inc) 1)", "3"],
    ["((comp str +) 1 2)", '"3"'],
    ["((comp) 7)", "7"],
    ["((comp :b :a) {:a {:b 4}})", "4"],
    ["(partial 5)", "ERR type_error"],
    ["(pr-str (partial +))", '"#fn[...]"'],
  ]);
});

Deno.test("complement / constantly / every-pred / some-fn / fnil", () => {
  check([
    ["((complement even?) 3)", "true"],
    ["(filter (complement nil?) [1 nil 2])", "[1 2]"],
    ["((constantly 7) 1 2 3)", "7"],
    ["(map (constantly :x) [1 2])", "[:x :x]"],
    ["((every-pred pos? even?) 2 4)", "true"],
    ["((every-pred pos? even?) 2 3)", "false"],
    ["((some-fn :a :b) {:b 2})", "2"],
    ["((some-fn :a :b) {:c 2})", "nil"],
    ["((some-fn even? neg?) 3)", "false"],
    ["((fnil inc 0) nil)", "1"],
    ["((fnil + 0) 5 1)", "6"],
    ["(update {} :n (fnil inc 10))", "{:n 11}"],
  ]);
});

Deno.test("walk / prewalk / postwalk / tree-seq / keywordize-keys", () => {
  check([
    ["(postwalk #(if (number? %) (inc %) %) [1 {:a 2} #{3}])", "[2 {:a 3} #{4}]"],
    ["(prewalk #(if (map? %) (dissoc % :x) %) {:x 1 :y {:x 2 :z 3}})", "{:y {:z 3}}"],
    ["(clojure.walk/postwalk identity [1 [2]])", "[1 [2]]"],
    ["(walk/walk inc #(apply + %) [1 2 3])", "9"],
    ["(walk (fn [[k v]] [k (inc v)]) identity {:a 1})", "{:a 2}"],
    ["(tree-seq vector? identity [1 [2 3]])", "[[1 [2 3]] 1 [2 3] 2 3]"],
    ["(tree-seq :kids :kids {:id 1 :kids [{:id 2}]})", "[{:id 1 :kids [{:id 2}]} {:id 2}]"],
    ['(walk/keywordize-keys {"a" {"b" 1}})', "{:a {:b 1}}"],
    ["(walk/stringify-keys {:a {:b 1}})", '{"a" {"b" 1}}'],
  ]);
});
