import assert from "node:assert/strict";
import { assertErr, createSession, err, ev, evaluate, table } from "./helpers.ts";
import { FakeTools } from "./fake_tools.ts";

Deno.test("analyzer: static checks run before anything has side effects", () => {
  const tools = new FakeTools();
  const r = evaluate('(println "side effect") (tool/echo {}) (no-such-thing)', { tools });
  assert.ok(!r.ok);
  assert.equal(r.reason, "unbound_var");
  assert.deepEqual(r.prints, []);
  assert.equal(tools.calls.length, 0);
  const s = createSession();
  assert.ok(!s.eval("(def a 1) (nope)").ok);
  assert.deepEqual(s.definedNames(), []);
});

Deno.test("analyzer: undefined symbols list every name with suggestions", () => {
  const e = err("(filtr odd? (mapp inc [1 2]))");
  assert.equal(e.reason, "unbound_var");
  assert.match(e.message, /Undefined variables: filtr \(did you mean "filter"\?\)/);
  assert.match(e.message, /mapp \(did you mean "map"/);
  assert.equal(e.line, 1);
  assertErr("(let [total 1] (+ totl 1))", "unbound_var", "totl", 'did you mean "total"');
});

Deno.test("analyzer: builtin namespaces resolve statically, unknown members list valid names", () => {
  table([
    ['(str/join "," [1 2])', '"1,2"'],
    ['(clojure.string/upper-case "a")', '"A"'],
    ["(Math/abs -3)", "3"],
    ['(map str/upper-case ["a"])', '["A"]'],
    ['(json/parse-string "[1]")', "[1]"],
    ["Double/POSITIVE_INFINITY", "##Inf"],
  ]);
  assertErr('(clojure.string/capitalize-all "x")', "invalid_form", "Members of clojure.string");
  assertErr("(str/upcase-all 1)", "invalid_form", "does not exist");
  assertErr("(foo/bar 1)", "invalid_form", "unknown namespace 'foo'", "tool/call 'foo/bar");
  assertErr("(Mth/abs 1)", "invalid_form", '(did you mean "Math"?)');
  assertErr("(map clojure.string/nope [1])", "invalid_form", "does not exist");
});

Deno.test("analyzer: builtin arity is checked statically", () => {
  assertErr("(if false (inc 1 2) 0)", "arity_error", "inc expects 1 argument, got 2");
  assertErr("(get)", "arity_error", "get expects");
});

Deno.test("analyzer: resolution order local > user def > builtin", () => {
  table([
    ["(let [inc dec] (inc 5))", "4"],
    ["(let [for (fn [x] (* 2 x))] (for 1))", "2"],
    ["(def inc dec) (inc 5)", "4"],
    ["(defn first [x] :mine) (first [1])", ":mine"],
    ["(let [if (fn [x] x)] (if true 1 2))", "1"],
  ]);
  const s = createSession();
  s.eval("(def count (fn [_] 99))");
  const r = s.eval("(count [1 2])");
  assert.ok(r.ok && r.printed === "99");
});

Deno.test("analyzer: closures capture values at creation (loop rebinding is safe)", () => {
  table([
    ["(let [fs (loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (fn [] i))) acc))] (mapv #(%) fs))", "[0 1 2]"],
    ["(let [x 1 f (fn [] x) x 2] [(f) x])", "[1 2]"],
    ["(let [a 1] ((fn [] ((fn [] ((fn [] a)))))))", "1"],
    ["(let [mk (fn [n] #(+ n %))] ((mk 10) 5))", "15"],
  ]);
});

Deno.test("analyzer: literals and constants", () => {
  table([
    ['[1 2.0 -3 4.5 "s" :k nil true]', '[1 2.0 -3 4.5 "s" :k nil true]'],
    ["123456789012345678901234567890", "123456789012345678901234567890"],
    ["(let [x 1] {:a x :b [x x] :c #{x}})", "{:a 1 :b [1 1] :c #{1}}"],
    ["(let [a 1 b 1] #{a b})", "#{1}"],
    ['#"\\d+"', '#"\\d+"'],
    ['(re-find #"(\\d+)-(\\d+)" "id 10-20")', '["10-20" "10" "20"]'],
    ["\\a", '"a"'],
    ['(= \\a "a")', "true"],
    ["##NaN", "##NaN"],
    ["NaN", "##NaN"],
    ["#'inc", "#<builtin>"],
    ["(def x 42) #'x", "42"],
  ]);
});

Deno.test("analyzer: number fast paths keep the exact semantics", () => {
  table([
    ["(+ 9007199254740991 1)", "9007199254740992"],
    ["(* 4294967296 4294967296)", "18446744073709551616"],
    ["(+ 0.5 0.5)", "1.0"],
    ["(- 1.5 0.5)", "1.0"],
    ["(+ 1 0.5)", "1.5"],
    ["(inc 9007199254740991)", "9007199254740992"],
    ["(dec 0.5)", "-0.5"],
    ["(= 1 1.0)", "true"],
    ["(= ##NaN ##NaN)", "false"],
    ['(= "a" "a")', "true"],
    ["(= :a :a)", "true"],
    ["(= [1] [1])", "true"],
    ["(< 1 2.5)", "true"],
    ["(= nil false)", "false"],
  ]);
});

Deno.test("analyzer: large literals build without argument-spreading limits", () => {
  const keys = Array.from({ length: 80_000 }, (_, i) => `${i} 0`).join(" ");
  assert.equal(ev(`(count {${keys}})`), "80000");
  assert.equal(ev(`(count #{${Array.from({ length: 150_000 }, (_, i) => i).join(" ")}})`), "150000");
  assert.equal(ev(`(let [x 0] (count [x ${Array.from({ length: 150_000 }, (_, i) => i).join(" ")}]))`), "150001");
});

Deno.test("analyzer: evaluation order is left to right", () => {
  const r = evaluate('[(println "a") (println "b") {:k (println "c")}]');
  assert.ok(r.ok);
  assert.deepEqual(r.prints, ["a", "b", "c"]);
  assert.equal(ev("(let [x (do 1 2)] x)"), "2");
});
