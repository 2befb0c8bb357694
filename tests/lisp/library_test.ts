import assertNode from "node:assert/strict";
import {
  createSession,
  type EvalResult,
  evaluate,
  type Libraries,
  type LibrarySource,
  loadLibraries,
} from "../../src/lisp/mod.ts";
import { LispError } from "../../src/lisp/errors.ts";
import { FakeTools } from "./fake_tools.ts";

const MATH: LibrarySource = {
  file: "lib/m.clj",
  source: `(ns m "Math helpers." {:visibility :prompt})
(defn- sq [x] (* x x))
(defn sum-sq "Sum of squares." {:signature "(xs [:int]) -> :int"} [xs] (reduce + (map sq xs)))
(defn bad "Claims an int, returns a string." {:signature "(x :int) -> :int"} [x] (str x))
(defn boom "Divides by zero." [x]
  (/ x 0))
(defn spin "Loops n times." [n] (loop [i 0] (if (< i n) (recur (inc i)) i)))
(defn fetch "One item through tool/call." {:signature "(id :int) -> {id :int, name :string}"} [id]
  (:value (tool/call 'inv/get {:id id})))`,
};

const STATS: LibrarySource = {
  file: "lib/stats.clj",
  source: `(ns stats "Uses m." {:visibility :hidden})
(defn total "Sum of squares plus one." [xs] (inc (m/sum-sq xs)))`,
};

const assert = (c: unknown, m?: string) => assertNode.ok(c, m);
const assertEquals = (a: unknown, b: unknown, m?: string) => assertNode.deepEqual(a, b, m);
const assertMatch = (s: string, re: RegExp) => assertNode.match(s, re);
function assertThrows(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

function failed(r: EvalResult) {
  if (r.ok) throw new Error(`expected a failure, got ${r.printed}`);
  return r;
}

function value(r: EvalResult) {
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  return r;
}

function load(...sources: LibrarySource[]): Libraries {
  return loadLibraries(sources);
}

function loadError(...sources: LibrarySource[]): LispError {
  const e = assertThrows(() => loadLibraries(sources));
  if (!(e instanceof LispError)) throw new Error(String(e));
  return e;
}

Deno.test("a library's public functions are callable, with their signatures checked both ways", () => {
  const libs = load(MATH);
  const ok = evaluate("(m/sum-sq [1 2 3])", {}, libs);
  assertEquals(ok.ok && ok.json, 14);
  const badArg = failed(evaluate('(m/sum-sq [1 "a"])', {}, libs));
  assert(!badArg.ok);
  assertEquals(badArg.reason, "type_error");
  assertMatch(badArg.message, /m\/sum-sq: argument 1 \(xs\): \[1\] must be :int.*signature \(xs \[:int\]\) -> :int/);
  const badRet = failed(evaluate("(m/bad 1)", {}, libs));
  assert(!badRet.ok);
  assertMatch(badRet.message, /m\/bad returned a value that breaks its signature.*signature \(x :int\) -> :int/);
  // passed as a value, the signature still holds
  const asValue = failed(evaluate('(map m/sum-sq [[1] ["x"]])', {}, libs));
  assert(!asValue.ok);
  assertMatch(asValue.message, /argument 1 \(xs\)/);
});

Deno.test("map fields of a signature accept either hyphen or underscore spelling; optional fields may be absent", () => {
  const libs = load({
    file: "s.clj",
    source: `(ns s "Shapes." {:visibility :prompt})
(defn row "A row." {:signature "(x :int?) -> {error_class :string, cost-usd :float?}"} [x] {:error-class "E"})`,
  });
  const r = value(evaluate("(s/row nil)", {}, libs));
  value(r);
});

Deno.test("a multi-arity export is arity-checked over all its clauses", () => {
  const libs = load({
    file: "v.clj",
    source: `(ns v "Variadic." {:visibility :prompt})
(defn greet "Greets." ([] (greet "you")) ([who] (str "hi " who)) ([who & more] (str "hi " who " and " (count more))))`,
  });
  const [ns] = libs.describe();
  assertEquals(ns.functions[0].arity, [0, Infinity]);
  assertEquals(value(evaluate("(v/greet)", {}, libs)).json, "hi you");
  const one = load({
    file: "w.clj",
    source: `(ns w "Two arities." {:visibility :prompt})
(defn f "F." ([a] a) ([a b] b))`,
  });
  assertEquals(one.describe()[0].functions[0].arglists, ["[a]", "[a b]"]);
  assertEquals(failed(evaluate("(w/f 1 2 3)", {}, one)).reason, "invalid_arity");
});

Deno.test("private helpers, unknown exports and arity are analysis errors naming the publics", () => {
  const libs = load(MATH);
  const priv = failed(evaluate("(m/sq 2)", {}, libs));
  assert(!priv.ok);
  assertEquals(priv.reason, "invalid_form");
  assertMatch(priv.message, /m\/sq is private to library m \(lib\/m\.clj\); its public functions: m\/bad, m\/boom/);
  const unknown = failed(evaluate("(m/sum 2)", {}, libs));
  assert(!unknown.ok);
  assertEquals(unknown.reason, "invalid_form");
  assertMatch(unknown.message, /did you mean "m\/sum-sq"\?.*its public functions/);
  const arity = failed(evaluate("(m/sum-sq [1] [2])", {}, libs));
  assert(!arity.ok);
  assertEquals(arity.reason, "invalid_arity");
  assertMatch(arity.message, /m\/sum-sq takes 1 argument \[xs\].*got 2/);
});

Deno.test("programs cannot declare or redefine namespaces, nor def into a library", () => {
  const libs = load(MATH);
  for (
    const [src, re] of [
      ['(ns m "x")', /namespace m is an operator library and cannot be redefined/],
      ["(ns clojure.string)", /a program has one namespace/],
      ["(ns mine)", /a program has one namespace/],
      ["(def m/sum-sq 1)", /cannot define the qualified name/],
    ] as const
  ) {
    const r = failed(evaluate(src, {}, libs));
    assert(!r.ok, src);
    assertEquals(r.reason, "invalid_form", src);
    assertMatch(r.message, re);
  }
});

Deno.test("an error inside a library function names the library's file and line and the caller's line", () => {
  const libs = load(MATH);
  const r = failed(evaluate("(def x 1)\n  (m/boom x)", {}, libs));
  assert(!r.ok);
  assertEquals(r.reason, "arithmetic_error");
  assertMatch(r.message, /\(in lib\/m\.clj line 6, column 3\) \(line 2, column 3\)$/);
  assertEquals(r.line, 2);
});

Deno.test("library calls run under the calling program's budgets and tools", () => {
  const libs = load(MATH);
  const spin = failed(evaluate("(m/spin 100000)", { limits: { maxSteps: 50_000 } }, libs));
  assert(!spin.ok);
  assertEquals(spin.reason, "step_limit_exceeded");
  // the next evaluation gets its own budget again
  const again = value(evaluate("(m/spin 1000)", { limits: { maxSteps: 50_000 } }, libs));
  assert(again.ok);
  const tools = new FakeTools();
  const fetched = evaluate("(m/fetch 7)", { tools }, libs);
  assertEquals(fetched.ok && fetched.json, { id: 7, name: "item-7" });
  assertEquals(tools.calls.map((c) => c.args), [{ server: "inv", tool: "get", args: { id: 7 } }]);
  const none = failed(evaluate("(m/orders)", {}, libs));
  assert(!none.ok, "without the caller's tools the library has none");
});

Deno.test("sessions keep their defs next to the libraries; pmap branches call library functions", () => {
  const libs = load(MATH, STATS);
  const s = createSession(libs);
  assert(s.eval("(def xs [1 2])").ok);
  const r = s.eval("(stats/total xs)");
  assertEquals(r.ok && r.json, 6);
  const tools = new FakeTools();
  const p = value(s.eval("(pmap m/fetch [1 2 3])", { tools }));
  assertEquals(p.json, [1, 2, 3].map((id) => ({ id, name: `item-${id}` })));
  assertEquals(tools.batches.length, 1);
  // a fresh evaluation in the same process does not see the session's defs
  const fresh = failed(evaluate("xs", {}, libs));
  assert(!fresh.ok);
  assertEquals(fresh.reason, "unbound_var");
});

Deno.test("discovery: dir, doc, meta, apropos, ns-publics and all-ns know the libraries", () => {
  const libs = load(MATH, STATS);
  const dir = value(evaluate("(dir 'm)", {}, libs));
  assert(dir.ok);
  assert((dir.json as string[]).includes("sum-sq (xs [:int]) -> :int - Sum of squares."), JSON.stringify(dir.json));
  assert(!(dir.json as string[]).some((l) => l.startsWith("sq ")), "private helpers are not listed");
  const doc = value(evaluate("(doc 'm/sum-sq)", {}, libs));
  assert(doc.ok);
  assertEquals([doc.json, doc.prints], ["m/sum-sq\n  [xs]\n  signature: (xs [:int]) -> :int\n  Sum of squares.", []]);
  const meta = value(evaluate("(meta 'm/fetch)", {}, libs));
  assert(meta.ok);
  const m = meta.json as Record<string, unknown>;
  assertEquals([m.kind, m.namespace, m.file, m.signature], [
    "library-function",
    "m",
    "lib/m.clj",
    "(id :int) -> {id :int, name :string}",
  ]);
  const apropos = value(evaluate('(apropos "squares")', {}, libs));
  assert(apropos.ok);
  assert((apropos.json as string[]).some((l) => l.startsWith("library: m/sum-sq")));
  const publics = evaluate("(keys (ns-publics 'stats))", {}, libs);
  assertEquals(publics.ok && publics.json, ["total"]);
  const all = value(evaluate("(all-ns)", {}, libs));
  assert(all.ok && (all.json as string[]).includes("stats"));
  const nsDoc = value(evaluate("(doc 'stats)", {}, libs));
  assert(nsDoc.ok);
  assertEquals(nsDoc.json, "stats (library lib/stats.clj)\n  Uses m.");
});

Deno.test("describe() lists namespaces with visibility, publics, signatures and arity", () => {
  const [m, stats] = load(STATS, MATH).describe(); // file order does not matter: m loads first
  assertEquals([m.name, m.visibility, stats.name, stats.visibility], ["m", "prompt", "stats", "hidden"]);
  const f = m.functions.find((x) => x.name === "sum-sq")!;
  assertEquals([f.arity, f.arglists, f.signature, f.line], [[1, 1], ["[xs]"], "(xs [:int]) -> :int", 3]);
  assert(!m.functions.some((x) => x.name === "sq"));
});

const lib = (source: string, file = "bad.clj"): LibrarySource => ({ file, source });
const NS = '(ns b "Doc." {:visibility :prompt})\n';

Deno.test("every load-time error names the file, line and column", () => {
  const cases: [LibrarySource[], string, RegExp][] = [
    [[lib("(defn f [] 1)")], "invalid_form", /^library bad\.clj:1:1: a library starts with \(ns /],
    [[lib("(ns b)")], "invalid_form", /bad\.clj:1:1: ns b needs a docstring/],
    [[lib('(ns b "D." {:visibility :loud})')], "invalid_form", /bad\.clj:1:25: :visibility is :prompt or :hidden/],
    [[lib('(ns b "D." {:colour 1})')], "invalid_form", /bad\.clj:1:13: unknown ns option :colour/],
    [[lib('(ns str "D.")')], "invalid_form", /bad\.clj:1:5: namespace str belongs to the language/],
    [[lib('(ns tool "D.")')], "invalid_form", /namespace tool belongs to the language/],
    [[lib(NS + "(defn f [x]")], "parse_error", /^library bad\.clj:2:1: /],
    [[lib(NS + "(println 1)")], "invalid_form", /bad\.clj:2:1: a library holds only defn, defn- and def forms/],
    [[lib(NS + '(ns c "x")')], "invalid_form", /bad\.clj:2:1: a library file holds exactly one ns form/],
    [[lib(NS + "(defn f [x] x)")], "invalid_form", /bad\.clj:2:7: public function b\/f needs a docstring/],
    [[lib(NS + '(defn f "D." [] 1)\n(defn f "E." [] 2)')], "invalid_form", /bad\.clj:3:7: f is defined twice/],
    [
      [lib(NS + '(defn f "D." [x] (undefined-thing x))')],
      "unbound_var",
      /bad\.clj:2:19: Undefined variable: undefined-thing/,
    ],
    [[lib(NS + '(defn f "D." [x] (inc x 1 2))')], "arity_error", /bad\.clj:2:18: inc expects 1 argument, got 3/],
    [[lib(NS + '(defn f "D." [] (tool/nonesuch))')], "unknown_tool", /bad\.clj:2:18: Unknown tool: nonesuch/],
    [
      [lib(NS + '(defn f "D." {:signature "(x :strng) -> :int"} [x] x)')],
      "parse_error",
      /bad\.clj:2:26: bad :signature of b\/f: unknown type :strng/,
    ],
    [
      [lib(NS + '(defn f "D." {:signature "(x :int y :int)"} [x] x)')],
      "invalid_form",
      /bad\.clj:2:1: the :signature of b\/f names 2 parameters/,
    ],
    [[lib(NS + '(defn f "D." [] (m/nope))'), MATH], "invalid_form", /bad\.clj:2:18: library m has no public nope/],
    [[lib(NS + '(defn f "D." [] (m/sum-sq))'), MATH], "invalid_arity", /bad\.clj:2:17: m\/sum-sq takes 1 argument/],
    [[lib(NS), lib(NS, "other.clj")], "invalid_form", /other\.clj:1:1: namespace b is already defined by bad\.clj/],
    [
      [lib('(ns a "A.")\n(defn f "F." [] (c/g))', "a.clj"), lib('(ns c "C.")\n(defn g "G." [] (a/f))', "c.clj")],
      "invalid_form",
      /cycle: a \(a\.clj\) → c \(c\.clj\) → a \(a\.clj\)/,
    ],
  ];
  for (const [sources, reason, re] of cases) {
    const e = loadError(...sources);
    assertEquals(e.reason, reason, e.message);
    assertMatch(e.message, re);
  }
});

Deno.test("unknown upstream tools are a load error when the host names the tools it has", () => {
  const src = lib(NS + '(defn f "D." [] (tool/call \'obs/list-trace {}))');
  const e = assertThrows(() => loadLibraries([src], { upstreamTools: new Set(["obs/list-traces"]) })) as LispError;
  assertEquals(e.reason, "unknown_tool");
  assertMatch(e.message, /bad\.clj:2:28: unknown upstream tool obs\/list-trace \(did you mean "obs\/list-traces"\?\)/);
  // a server that is not up now is not checked
  loadLibraries([src], { upstreamTools: new Set(), uncheckedServers: new Set(["obs"]) });
  loadLibraries([src]);
});
