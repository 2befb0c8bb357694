/** Builtins: maps (builtins/maps.ts). */
import { check } from "./helpers.ts";

Deno.test("get / get-in (flexible reads)", () => {
  check([
    ["(get {:a 1} :a)", "1"],
    ['(get {"a" 1} :a)', "1"],
    ['(get {:a 1} "a")', "1"],
    ['(get {"user_id" 7} :user-id)', "7"],
    ['(get {"a" 1 :a 2} :a)', "2"],
    ["(get {:a nil} :a 5)", "nil"],
    ["(get {} :a 5)", "5"],
    ["(get nil :a)", "nil"],
    ["(get nil :a 3)", "3"],
    ["(get [1 2] 1)", "2"],
    ["(get [1 2] 9 :d)", ":d"],
    ["(get {[:a] 1} [:a])", "1"],
    ["(get {:a {:b 2}} [:a :b])", "nil"],
    ["(get-in {:a {:b 2}} [:a :b])", "2"],
    ["(get #{1} 1)", "1"],
    ['(get "abc" 0)', '"a"'],
    ['(get "abc" 5)', "nil"],
    ["(get-in #{:a} [:a])", ":a"],
    ["(get :a {:a 1})", "ERR type_error"],
    ["(get-in {:rows [{:id 7}]} [:rows 0 :id])", "7"],
    ["(get-in {:a {:b nil}} [:a :b] 5)", "nil"],
    ["(get-in {:a {}} [:a :b] 5)", "5"],
    ["(get-in {:a 1} [])", "{:a 1}"],
    ["(get-in {:a 1} nil)", "{:a 1}"],
    ['(get-in {"a" {"b_c" 3}} [:a :b-c])', "3"],
  ]);
});

Deno.test("assoc / assoc-in / update / update-in / dissoc (writes use the key the map already has)", () => {
  check([
    ["(assoc {:a 1} :b 2)", "{:a 1 :b 2}"],
    ["(assoc {:a 1} :a 2 :c 3)", "{:a 2 :c 3}"],
    ['(assoc {"a" 1} :a 2)', '{"a" 2}'],
    ['(assoc {"cost_usd" 1} :cost-usd 2)', '{"cost_usd" 2}'],
    ['(assoc {:a 1} "a" 2)', "{:a 2}"],
    ['(assoc {:a 1 "a" 2} :a 3)', '{:a 3 "a" 2}'],
    ["(assoc nil :a 1)", "{:a 1}"],
    ["(assoc [1 2] 0 9)", "[9 2]"],
    ["(assoc [1 2] 2 3)", "[1 2 3]"],
    ["(assoc [1 2] 5 3)", "ERR type_error"],
    ["(assoc {:a 1} :b)", "ERR arity_error"],
    ["(assoc-in {} [:a :b] 1)", "{:a {:b 1}}"],
    ["(assoc-in {:a [1 2]} [:a 0] 9)", "{:a [9 2]}"],
    ["(assoc-in {} [] 1)", "{nil 1}"],
    ["(update {:n 1} :n + 5)", "{:n 6}"],
    ["(update {:n 1} :m (fnil inc 0))", "{:m 1 :n 1}"],
    ['(update {"n" 1} :n inc)', '{"n" 2}'],
    ['(update-in {"u" {"n_x" 1}} [:u :n-x] inc)', '{"u" {"n_x" 2}}'],
    ['(assoc-in {"u" {"a" 1}} [:u :b] 2)', '{"u" {:b 2 "a" 1}}'],
    ["(update [1 2] 0 inc)", "[2 2]"],
    ["(update-in {:a {:b 1}} [:a :b] inc)", "{:a {:b 2}}"],
    ["(update-in {} [:a :b] (fnil inc 0))", "{:a {:b 1}}"],
    ["(update-in {:a {:b 1}} [:a :b] + 10)", "{:a {:b 11}}"],
    ["(dissoc {:a 1 :b 2} :a)", "{:b 2}"],
    ["(dissoc {:a 1} :a :b)", "{}"],
    ['(dissoc {"a" 1} :a)', "{}"],
    ["(dissoc nil :a)", "nil"],
  ]);
});

Deno.test("merge / merge-with / select-keys", () => {
  check([
    ["(merge {:a 1} {:b 2} {:a 3})", "{:a 3 :b 2}"],
    ["(merge {:a 1} nil)", "{:a 1}"],
    ["(merge)", "nil"],
    ["(merge nil)", "nil"],
    ["(merge {:a 1} [1 2])", "ERR type_error"],
    ["(merge-with + {:x 1 :y 2} {:x 10 :z 5})", "{:x 11 :y 2 :z 5}"],
    ["(merge-with conj {:a [1]} {:a 2})", "{:a [1 2]}"],
    ["(select-keys {:p 1 :q 2 :r 3} [:r :p])", "{:p 1 :r 3}"],
    ['(select-keys {"a" 1 "b" 2} [:a])', '{"a" 1}'],
    ['(merge {"a" 1} {:a 2 :b 3})', '{:b 3 "a" 2}'],
    ['(merge-with + {"x" 1} {:x 10})', '{"x" 11}'],
    ['(find {"a" 1} :a)', '["a" 1]'],
    ["(select-keys {:a 1} nil)", "{}"],
    ["(select-keys nil [:a])", "{}"],
    ["(select-keys {:a nil} [:a :b])", "{:a nil}"],
  ]);
});

Deno.test("keys / vals / entries / key / val", () => {
  check([
    ["(keys {:b 1 :a 2})", "[:a :b]"],
    ['(keys {"b" 1 :a 2 1 3})', '[1 :a "b"]'],
    ["(keys nil)", "nil"],
    ["(keys {})", "nil"],
    ["(vals {})", "nil"],
    ["(vals {:b 1 :a 2})", "[2 1]"],
    ["(vals nil)", "nil"],
    ["(entries {:b 1 :a 2})", "[[:a 2] [:b 1]]"],
    ["(key [:a 1])", ":a"],
    ["(val [:a 1])", "1"],
    ["(map key {:a 1 :b 2})", "[:a :b]"],
  ]);
});

Deno.test("update-vals / update-keys / reduce-kv / hash-map / zipmap", () => {
  check([
    ["(update-vals {:a 1 :b 2} inc)", "{:a 2 :b 3}"],
    ["(update-vals nil inc)", "{}"],
    ["(update-vals {:a [1 2]} count)", "{:a 2}"],
    ["(update-keys {:a 1} name)", '{"a" 1}'],
    ["(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2})", "3"],
    ["(reduce-kv (fn [acc k v] (conj acc k)) [] {:b 1 :a 2})", "[:a :b]"],
    ["(reduce-kv (fn [acc k v] acc) 7 nil)", "7"],
    ["(reduce-kv (fn [acc k v] acc) 7 [1])", "ERR type_error"],
    ["(hash-map :a 1 :b 2)", "{:a 1 :b 2}"],
    ["(hash-map :a)", "ERR arity_error"],
    ["(array-map :a 1)", "{:a 1}"],
    ["(zipmap [:a :b :c] [1 2])", "{:a 1 :b 2}"],
    ["(zipmap [:a :a] [1 2])", "{:a 2}"],
  ]);
});

Deno.test("sorted-map / sorted-set: Clojure's sorted constructors build ordinary (already ordered) maps and sets", () => {
  check([
    ["(into (sorted-map) {:b 1 :a 2})", "{:a 2 :b 1}"],
    ["(sorted-map :b 1 :a 2)", "{:a 2 :b 1}"],
    ["(= (sorted-map :a 1) {:a 1})", "true"],
    ["(sorted-set 3 1 2)", "#{1 2 3}"],
    ["(conj (sorted-set) 2 1)", "#{1 2}"],
  ]);
});
