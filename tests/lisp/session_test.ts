import assert from "node:assert/strict";
import { createSession, evaluate } from "./helpers.ts";

Deno.test("session: defs persist across evaluations", () => {
  const s = createSession();
  assert.ok(s.eval("(def x 41)").ok);
  const r = s.eval("(inc x)");
  assert.ok(r.ok && r.printed === "42");
  assert.ok(s.eval("(defn twice [n] (* 2 n))").ok);
  const r2 = s.eval("(twice x)");
  assert.ok(r2.ok && r2.printed === "82");
  assert.deepEqual(s.definedNames(), ["twice", "x"]);
});

Deno.test("session: closures survive and see redefinitions (late binding)", () => {
  const s = createSession();
  s.eval("(defn f [] (g)) ");
  s.eval("(defn g [] 1) (defn f [] (g))");
  assert.equal((s.eval("(f)") as { printed: string }).printed, "1");
  s.eval("(defn g [] 2)");
  assert.equal((s.eval("(f)") as { printed: string }).printed, "2");
  s.eval("(def adder (let [n 10] (fn [x] (+ x n))))");
  assert.equal((s.eval("(adder 5)") as { printed: string }).printed, "15");
});

Deno.test("session: a failed evaluation rolls its defs back", () => {
  const s = createSession();
  s.eval("(def x 1)");
  const r = s.eval("(def x 2) (def y 3) (/ 1 0)");
  assert.ok(!r.ok);
  assert.equal(r.reason, "arithmetic_error");
  assert.equal((s.eval("x") as { printed: string }).printed, "1");
  assert.deepEqual(s.definedNames(), ["x"]);
  assert.deepEqual(s.lastError(), { reason: "arithmetic_error", message: r.message });
});

Deno.test("session: return and fail keep defs", () => {
  const s = createSession();
  const r = s.eval("(def a 1) (return :done) (def b 2)");
  assert.ok(r.ok && r.status === "returned");
  const f = s.eval("(def c 3) (fail {:why :x})");
  assert.ok(f.ok && f.status === "failed");
  assert.deepEqual(s.definedNames(), ["a", "c"]);
});

Deno.test("session: *1 *2 *3 history updates on success only", () => {
  const s = createSession();
  s.eval("10");
  s.eval("20");
  s.eval("30");
  s.eval("(/ 1 0)");
  assert.equal((s.eval("[*1 *2 *3]") as { printed: string }).printed, "[30 20 10]");
  assert.equal((s.eval("*1") as { printed: string }).printed, "[30 20 10]");
  const r4 = s.eval("*4");
  assert.ok(!r4.ok && r4.reason === "unbound_var");
});

Deno.test("session: reset clears everything", () => {
  const s = createSession();
  s.eval("(def x 1)");
  s.reset();
  assert.deepEqual(s.definedNames(), []);
  const r = s.eval("x");
  assert.ok(!r.ok && r.reason === "unbound_var");
});

Deno.test("session: prints, onPrint, println rules", () => {
  const seen: string[] = [];
  const r = evaluate('(println "n:" 5 [1 "s"]) (println (take 5 "hello!")) (println) 7', {
    onPrint: (l) => seen.push(l),
  });
  assert.ok(r.ok);
  assert.deepEqual(r.prints, ["n: 5 [1 s]", "[h e l l o]", ""]); // print shows strings raw, also inside collections
  assert.deepEqual(seen, r.prints);
  const long = evaluate('(println (apply str (map (fn [_] "x") (range 30))))', { limits: { maxPrintLength: 10 } });
  assert.ok(long.ok);
  assert.equal(long.prints[0], "xxxxxxxxxx... (10/30 chars)");
});

Deno.test("session: data/ context, globals, json projection", () => {
  const r = evaluate("[data/user-id (:n data) (count data/rows) data/missing]", {
    context: { user_id: 7, rows: [1, 2] },
    globals: { data: { n: 3 } },
  });
  assert.ok(r.ok);
  assert.equal(r.printed, "[7 3 2 nil]");
  assert.deepEqual(r.json, [7, 3, 2, null]);
  const j = evaluate("{:a #{1} :b :kw :c 5.0}");
  assert.ok(j.ok);
  assert.deepEqual(j.json, { a: [1], b: "kw", c: 5 });
});

Deno.test("mod: documentation helpers for the REPL and the language card", async () => {
  const mod = await import("../../src/lisp/mod.ts");
  assert.ok(mod.specialFormNames().includes("let"));
  assert.ok(!mod.specialFormNames().includes("#()"));
  assert.equal(mod.specialFormDoc("loop")?.section, "special forms");
  assert.equal(mod.specialFormDoc("nope"), undefined);
  assert.ok(mod.builtinNames().includes("map"));
  assert.equal(mod.builtinDoc("map")?.name, "map");
  assert.ok(mod.searchBuiltins("upper").length > 0);
  assert.equal(mod.readerStatus("(let [x 1]"), "incomplete");
});
