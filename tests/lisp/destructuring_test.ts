import { assertErr, table } from "./helpers.ts";

Deno.test("destructuring: vectors", () => {
  table([
    ["(let [[a b c] [1 2 3]] [c b a])", "[3 2 1]"],
    ["(let [[a b] [1]] [a b])", "[1 nil]"],
    ["(let [[a] [1 2 3]] a)", "1"],
    ["(let [[a & r] [1 2 3]] [a r])", "[1 [2 3]]"],
    ["(let [[a & r] [1]] [a r])", "[1 nil]"],
    ["(let [[& all] [1 2]] all)", "[1 2]"],
    ["(let [[a [b c]] [1 [2 3]]] [a b c])", "[1 2 3]"],
    ["(let [[a b] nil] [a b])", "[nil nil]"],
    ["(let [[a b :as all] [1 2 3]] [a b all])", "[1 2 [1 2 3]]"],
  ]);
  assertErr("(let [[a b] {:a 1}] a)", "destructure_error", "vector pattern");
  assertErr("(let [[a b] 5] a)", "destructure_error", "vector pattern");
  assertErr('(let [[a b] "xy"] a)', "destructure_error", "vector pattern");
  assertErr("(let [[a &] [1]] a)", "invalid_form", "&");
});

Deno.test("destructuring: maps with :keys :strs :or :as and renames", () => {
  table([
    ["(let [{:keys [a b]} {:a 1 :b 2}] [a b])", "[1 2]"],
    ['(let [{:keys [a b]} {"a" 1 "b" 2}] [a b])', "[1 2]"],
    ['(let [{:keys [user-id]} {"user_id" 7}] user-id)', "7"],
    ["(let [{:keys [:a]} {:a 5}] a)", "5"],
    ['(let [{:strs [a]} {"a" 9}] a)', "9"],
    ["(let [{:keys [a b] :or {b 10}} {:a 1}] [a b])", "[1 10]"],
    ["(let [{:keys [b] :or {b 10}} {:b nil}] b)", "nil"],
    ["(let [{x :a y :b} {:a 1 :b 2}] [x y])", "[1 2]"],
    ['(let [{x "a"} {"a" 3}] x)', "3"],
    ["(let [{[p q] :pair} {:pair [1 2]}] [p q])", "[1 2]"],
    ["(let [{:keys [a] :as m} {:a 1 :z 2}] [a (count m)])", "[1 2]"],
    ["(let [{:keys [a]} nil] a)", "nil"],
    ["(let [{{:keys [c]} :b} {:b {:c 3}}] c)", "3"],
  ]);
  assertErr("(let [{:keys [a]} [1 2]] a)", "destructure_error", "map pattern");
  assertErr("(let [{} {:a 1}] 1)", "unsupported_pattern");
  assertErr("(let [{:syms [a]} {:a 1}] a)", "unsupported_pattern", ":syms");
  assertErr("(let [{:keys a} {:a 1}] a)", "invalid_form", ":keys");
});

Deno.test("destructuring: fn params, loop, for, rest maps", () => {
  table([
    ["((fn [[a b] {:keys [c]}] [a b c]) [1 2] {:c 3})", "[1 2 3]"],
    ["(map (fn [[k v]] [v k]) {:a 1 :b 2})", "[[1 :a] [2 :b]]"],
    ["((fn [& {:keys [x y]}] [x y]) :x 1 :y 2)", "[1 2]"],
    ["(loop [[h & t] [1 2 3] acc []] (if h (recur t (conj acc (* h 10))) acc))", "[10 20 30]"],
    ["(for [{:keys [id]} [{:id 1} {:id 2}]] id)", "[1 2]"],
    ["(defn f [{:keys [a] :or {a 5}}] a) [(f {}) (f {:a 1})]", "[5 1]"],
    ["(reduce (fn [acc [k v]] (+ acc v)) 0 {:a 1 :b 2})", "3"],
  ]);
  assertErr("((fn [& {:keys [x]}] x) :x)", "destructure_error", "pairs");
});
