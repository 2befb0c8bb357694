/** The builtin registry: resolution, namespaces, docs, search, and test coverage of every builtin. */
import assert from "node:assert/strict";
import {
  builtinDoc,
  builtinNames,
  checkArity,
  getBuiltin,
  knownNamespaces,
  namespaceMembers,
  resolveBuiltin,
  searchBuiltins,
  supportedMethods,
} from "../../../src/lisp/builtins/registry.ts";
import { LispError } from "../../../src/lisp/errors.ts";
import { err } from "./helpers.ts";

Deno.test("resolveBuiltin: bare names, aliases and namespaces", () => {
  const ok = (ns: string | null, name: string, want: string) => {
    const r = resolveBuiltin(ns, name);
    assert.ok(r.ok, `${ns}/${name}: ${r.ok ? "" : r.message}`);
    assert.equal(r.builtin.name, want);
  };
  ok(null, "map", "map");
  ok("clojure.core", "map", "map");
  ok("core", "filter", "filter");
  ok("clojure.string", "join", "join");
  ok("str", "split", "split");
  ok("string", "upper-case", "upper-case");
  ok("clojure.set", "union", "union");
  ok("set", "difference", "difference");
  ok("clojure.walk", "postwalk", "postwalk");
  ok("walk", "prewalk", "prewalk");
  ok("regex", "re-find", "re-find");
  ok("json", "parse-string", "json/parse-string");
  ok("Math", "abs", "abs");
  ok("Math", "pow", "pow");
  ok("Integer", "parseInt", "Integer/parseInt");
  ok("Double", "NaN", "Double/NaN");
  ok("java.time.LocalDate", "parse", "parse");
  ok(null, ".indexOf", ".indexOf");
  ok(null, "java.util.Date.", "java.util.Date.");
  ok(null, "upcase", "upcase");
});

Deno.test("resolveBuiltin: errors list valid members and suggestions", () => {
  const r1 = resolveBuiltin("clojure.string", "capitalise");
  assert.ok(!r1.ok);
  assert.equal(r1.reason, "unknown_member");
  assert.match(r1.message, /Members of clojure\.string: .*join/);
  const r2 = resolveBuiltin("clojure.strng", "join");
  assert.ok(!r2.ok);
  assert.equal(r2.reason, "unknown_namespace");
  assert.match(r2.message, /\(did you mean "clojure\.string"\?\)/);
  const r3 = resolveBuiltin(null, "fliter");
  assert.ok(!r3.ok);
  assert.match(r3.message, /\(did you mean "filter"\?\)/);
  const r4 = resolveBuiltin(null, "parse-string");
  assert.ok(!r4.ok, "json members exist only qualified");
  const r5 = resolveBuiltin("Math", "log");
  assert.ok(!r5.ok);
  assert.equal(r5.reason, "unknown_member");
});

Deno.test("every builtin has a doc with arglists and a known section", () => {
  const names = builtinNames();
  assert.ok(names.length > 250, `only ${names.length} builtins`);
  for (const n of names) {
    const d = builtinDoc(n);
    assert.ok(d, n);
    assert.ok(d.doc.length > 3, `${n} doc`);
    assert.ok(Array.isArray(d.arglists), `${n} arglists`);
    assert.ok(d.section.length > 0, `${n} section`);
    const b = getBuiltin(n)!;
    assert.ok(b.arity[0] <= b.arity[1], `${n} arity`);
    if (b.constant === undefined) {
      assert.ok(d.arglists.length > 0, `${n} has no arglists`);
    }
  }
  assert.equal(builtinDoc("str/join")?.name, "join");
  assert.equal(builtinDoc("nope"), undefined);
});

Deno.test("namespaces, methods, arity errors", () => {
  assert.ok(knownNamespaces().includes("clojure.string"));
  assert.deepEqual(namespaceMembers("json"), ["generate-string", "parse-lines", "parse-string"]);
  assert.equal(namespaceMembers("nope"), undefined);
  assert.ok(supportedMethods().includes(".indexOf"));
  const map = getBuiltin("map")!;
  assert.throws(() => checkArity(map, 1), (e: unknown) =>
    e instanceof LispError && e.reason === "arity_error" &&
    e.message.includes("map expects 2 to 4 arguments, got 1") && e.message.includes("(map f coll)"));
  checkArity(map, 3);
});

Deno.test("searchBuiltins ranks exact and prefix name matches first", () => {
  const hits = searchBuiltins("group");
  assert.equal(hits[0].name, "group-by");
  const parse = searchBuiltins("parse").map((h) => h.name);
  assert.ok(parse.includes("parse-long") && parse.includes("json/parse-string"));
  assert.deepEqual(searchBuiltins(""), []);
  assert.ok(searchBuiltins("zzzzqqq").length === 0);
  const upper = searchBuiltins("upper case").map((h) => h.name);
  assert.equal(upper[0], "upper-case");
});

Deno.test("every builtin is exercised by at least one test program", async () => {
  let text = "";
  for await (const e of Deno.readDir(new URL(".", import.meta.url))) {
    if (e.name.endsWith("_test.ts") && e.name !== "registry_test.ts") {
      text += await Deno.readTextFile(new URL(e.name, import.meta.url));
    }
  }
  const missing: string[] = [];
  for (const n of builtinNames()) {
    const member = n.includes("/") ? n : n;
    const esc = member.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const re = new RegExp(`[(\\[ /]${esc}[ )\\]]`);
    if (!re.test(text)) missing.push(n);
  }
  assert.deepEqual(missing, [], `builtins without a test: ${missing.join(", ")}`);
});

Deno.test("an unbound name near nothing gets no suggestion", () => {
  const e = err("(let [b 1] y)");
  assert.equal(e.reason, "unbound_var");
  assert.doesNotMatch(e.message, /did you mean/);
});
