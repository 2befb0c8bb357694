import assert from "node:assert/strict";
import { ReadError, readerStatus, readForms } from "../../src/lisp/reader.ts";
import { formText } from "../../src/lisp/forms.ts";

function read1(src: string) {
  const fs = readForms(src);
  assert.equal(fs.length, 1, `${src} read ${fs.length} forms`);
  return fs[0];
}

function readErr(src: string): ReadError {
  try {
    readForms(src);
  } catch (e) {
    if (e instanceof ReadError) return e;
    throw e;
  }
  assert.fail(`${src}: expected a read error`);
}

Deno.test("reader: scalars", () => {
  assert.deepEqual(read1("nil"), { type: "nil", at: 0 });
  assert.deepEqual(read1("true"), { type: "bool", value: true, at: 0 });
  assert.equal(read1("nil?").type, "symbol");
  assert.equal(read1("truex").type, "symbol");
  assert.deepEqual(read1("-42"), { type: "int", value: -42, at: 0 });
  assert.deepEqual(read1("3.5"), { type: "float", value: 3.5, at: 0 });
  assert.deepEqual(read1("5e2"), { type: "float", value: 500, at: 0 });
  assert.deepEqual(read1("1.5E-1"), { type: "float", value: 0.15, at: 0 });
  assert.equal(read1("+5").type, "symbol");
  assert.equal(read1("-").type, "symbol");
  assert.equal(read1("-x").type, "symbol");
});

Deno.test("reader: integers beyond 2^53 stay exact", () => {
  const f = read1("123456789012345678901234567890");
  assert.equal(f.type, "int");
  assert.equal((f as { value: bigint }).value, 123456789012345678901234567890n);
  assert.equal((read1("9007199254740991") as { value: number }).value, 9007199254740991);
  assert.equal(typeof (read1("9007199254740993") as { value: unknown }).value, "bigint");
  assert.match(readErr("1" + "0".repeat(120)).message, /Integer literal too long/);
});

Deno.test("reader: hex, octal, radix and N literals read as Clojure does; ratios and BigDecimals are refused", () => {
  const int = (src: string) => (read1(src) as { value: number | bigint }).value;
  assert.equal(int("0x10"), 16);
  assert.equal(int("-0X1f"), -31);
  assert.equal(int("0xFFFFFFFFFFFFFFFFFF"), 0xFFFFFFFFFFFFFFFFFFn);
  assert.equal(int("010"), 8);
  assert.equal(int("2r1010"), 10);
  assert.equal(int("36rZZ"), 1295);
  assert.equal(int("7N"), 7);
  assert.equal(int("00"), 0);
  assert.match(readErr("1/3").message, /Ratio literals are not supported \('1\/3'\).*write \(\/ 1 3\)/);
  assert.match(readErr("1.5M").message, /BigDecimal.*write 1\.5/);
  assert.match(readErr("08").message, /leading 0 makes an octal literal; write 8/);
  assert.match(readErr("0x").message, /Invalid number '0x'/);
  assert.match(readErr("1abc").message, /Invalid number '1abc'/);
  assert.match(readErr("3.14e+").message, /Invalid number/);
  assert.match(readErr("37r1").message, /radix must be 2 to 36/);
});

Deno.test("reader: special floats", () => {
  assert.equal((read1("##Inf") as { value: number }).value, Infinity);
  assert.equal((read1("##-Inf") as { value: number }).value, -Infinity);
  assert.ok(Number.isNaN((read1("##NaN") as { value: number }).value));
  assert.match(readErr("##Foo").message, /##Inf/);
});

Deno.test("reader: strings and escapes", () => {
  assert.equal((read1('"a\\nb\\t\\"q\\"\\\\"') as { value: string }).value, 'a\nb\t"q"\\');
  assert.equal((read1('"\\d+"') as { value: string }).value, "\\d+");
  assert.equal((read1('"line1\nline2"') as { value: string }).value, "line1\nline2");
  assert.equal((read1('"\\u00e9"') as { value: string }).value, "é");
  assert.match(readErr('"abc').message, /Unterminated string/);
  assert.match(readErr('"a\\\nb"').message, /line break/);
});

Deno.test("reader: char literals are one-character strings", () => {
  assert.equal((read1("\\a") as { value: string }).value, "a");
  assert.equal((read1("\\newline") as { value: string }).value, "\n");
  assert.equal((read1("\\space") as { value: string }).value, " ");
  assert.equal((read1("\\r") as { value: string }).value, "r");
  assert.equal((read1("\\é") as { value: string }).value, "é");
  assert.equal((read1("\\u0041") as { value: string }).value, "A");
});

Deno.test("reader: keywords and symbols", () => {
  assert.deepEqual(read1(":foo-bar?"), { type: "keyword", name: "foo-bar?", at: 0 });
  assert.deepEqual(read1("str/join"), { type: "symbol", ns: "str", name: "join", at: 0 });
  assert.deepEqual(read1("clojure.string/join"), { type: "symbol", ns: "clojure.string", name: "join", at: 0 });
  assert.deepEqual(read1("/"), { type: "symbol", ns: null, name: "/", at: 0 });
  assert.deepEqual(read1("inc'"), { type: "symbol", ns: null, name: "inc'", at: 0 });
  assert.deepEqual(read1(".toLowerCase"), { type: "symbol", ns: null, name: ".toLowerCase", at: 0 });
  assert.match(readErr(":").message, /keyword/);
  assert.match(readErr(":a/b").message, /Namespaced keywords/);
});

Deno.test("reader: collections, commas are whitespace", () => {
  assert.equal(formText(read1("[1, 2,3]")), "[1 2 3]");
  assert.equal(formText(read1("{:a 1, :b [2]}")), "{:a 1 :b [2]}");
  assert.equal(formText(read1("#{1 2}")), "#{1 2}");
  assert.equal(formText(read1("#(+ % 1)")), "#(+ % 1)");
  assert.equal(read1('#"\\d+"').type, "regex");
  assert.equal((read1('#"\\d+"') as { source: string }).source, "\\d+");
  assert.match(readErr("{:a}").message, /even number/);
});

Deno.test("reader: quote and var quote", () => {
  assert.equal(formText(read1("'gh/search")), "(quote gh/search)");
  assert.equal(formText(read1("#'x")), "x");
  assert.equal(formText(read1("'(1 2)")), "(quote (1 2))");
  assert.equal(formText(read1("'[1 2]")), "(quote [1 2])");
  assert.equal(formText(read1("'{:a 1}")), "(quote {:a 1})");
});

Deno.test("reader: rejected syntax has tailored messages", () => {
  assert.match(readErr("@x").message, /Deref/);
  assert.match(readErr("#_ 1 2").message, /discard/);
  assert.match(readErr("^:meta x").message, /metadata/);
  assert.match(readErr("`x").message, /syntax-quote/);
  assert.match(readErr('#inst "2020"').message, /tagged literals/);
});

Deno.test("reader: comments and stray closers", () => {
  assert.equal(readForms("; only a comment").length, 0);
  assert.equal(readForms("(+ 1 2)))").length, 1);
  assert.equal(readForms("1 ] 2").length, 2);
});

Deno.test("reader: errors carry line and column", () => {
  const e = readErr("(+ 1\n   (foo ]");
  assert.equal(e.line, 2);
  assert.match(e.message, /line 2, column 9/);
  assert.match(e.message, /Mismatched delimiter/);
  const u = readErr("(let [x 1]\n  (+ x");
  assert.match(u.message, /2 unclosed/);
  assert.match(u.message, /line 2, column 3/);
});

Deno.test("reader: nesting depth limit", () => {
  const deep = "[".repeat(300) + "]".repeat(300);
  assert.match(readErr(deep).message, /Nesting too deep/);
  assert.equal(readForms("[".repeat(100) + "]".repeat(100)).length, 1);
  assert.throws(() => readForms("(((1)))", { maxDepth: 2 }), /Nesting too deep/);
});

Deno.test("readerStatus classifies REPL input", () => {
  assert.equal(readerStatus("(+ 1 2)"), "complete");
  assert.equal(readerStatus("(+ 1"), "incomplete");
  assert.equal(readerStatus('(str "abc'), "incomplete");
  const s = readerStatus("(+ 1 ]");
  assert.ok(typeof s === "object" && /Mismatched/.test(s.error));
});
