/**
 * Upstream patterns are matched by RE2 (re2js) after a translation from ECMA-262 syntax: the same answers as V8's
 * `u`-flag engine on every pattern it accepts, refusals with a reason for what RE2 cannot express, and linear time on
 * the classic catastrophic inputs (no test here times anything: these would not finish with backtracking).
 */
import assert from "node:assert/strict";
import { linearPattern, MAX_PATTERN_CHARS } from "../../src/upstream/linear_pattern.ts";
import { ecmaToRe2 } from "../../src/core/ecma_pattern.ts";

const PATTERNS = [
  "^\\d+$",
  "^[a-z][a-z0-9_-]*$",
  "a.c",
  "^\\s*$",
  "\\S+",
  "^[^]$",
  "^[]$",
  "\\bfoo\\b",
  "^(?<y>\\d{4})-(\\d{2})$",
  "^\\p{Lu}\\p{Ll}+$",
  "^\\p{Script=Greek}+$",
  "^\\p{General_Category=Uppercase_Letter}$",
  "[\\p{L}\\d]+",
  "^\\u{1F600}$",
  "^\\uD83D\\uDE00$",
  "a{2,3}?",
  "^a{2}$",
  "x|y|z",
  "^\\x41\\cJ$",
  "[\\s\\S]",
  "[^\\s]",
  "^[\\-a-]$",
  "\\/",
  "\\.\\*",
  "$",
  "^$",
  "[\\b]",
  "\\P{ASCII}",
  "[\\P{Any}]",
  "^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$",
  "^[\\t -~]*$",
  "^(a+)+$",
  "^a*a*a*a*a*a*a*a*a*b$",
];
const INPUTS = [
  "",
  "a",
  "abc",
  "a\nc",
  "a\u2028c",
  "123",
  "Ab",
  "Abc",
  "ΑΒγ",
  "😀",
  "\n",
  " ",
  "\u00a0",
  "\u200b",
  "foo bar",
  "2024-01",
  "A\n",
  "-",
  "a-",
  "/",
  "[",
  ".*",
  "\b",
  "é",
  "aa",
  "aaa",
  "\u000b",
  "\ufeff",
  "\uD800",
  "a@b.co",
  "tab\there",
  "Q\\E",
  "aaaab",
];

Deno.test("linear pattern: the same answers as V8's u-flag engine on every pattern it translates", () => {
  for (const p of PATTERNS) {
    const linear = linearPattern(p);
    assert.ok(linear.ok, `${p}: ${!linear.ok && linear.reason}`);
    const v8 = new RegExp(p, "u");
    for (const s of INPUTS) assert.equal(linear.test(s), v8.test(s), `${p} on ${JSON.stringify(s)}`);
  }
});

Deno.test("linear pattern: ECMA-only meanings are spelled out for RE2", () => {
  const t = (p: string) => (ecmaToRe2(p) as { source: string }).source;
  assert.match(t("\\s"), /\\x\{A0\}/, "ECMA \\s includes the no-break space");
  assert.match(t("."), /\\x\{2027\}\\x\{202A\}/, "ECMA . stops at U+2028 and U+2029 too");
  assert.equal(t("[[:a]"), "[\\x{5B}\\x{3A}a]", "RE2's [[:alpha:]] syntax is plain text in ECMA");
});

Deno.test("linear pattern: what RE2 cannot express is refused with the reason", () => {
  const cases: [string, RegExp][] = [
    ["(a)\\1", /backreference/],
    ["(?<n>a)\\k<n>", /backreference/],
    ["(?=a)b", /lookahead/],
    ["(?<!a)b", /lookbehind/],
    ["\\p{Emoji}", /Unicode property/],
    ["(?i:a)", /inline modifiers/],
    ["a{1001}", /more than 1000 times/],
    ["[", /not a valid ECMA-262/],
    ["Q\\E", /not a valid ECMA-262/],
    ["\\uD800", /lone surrogate/],
    ["a".repeat(MAX_PATTERN_CHARS + 1), /longer than/],
  ];
  for (const [p, why] of cases) {
    const linear = linearPattern(p);
    assert.equal(linear.ok, false, p.slice(0, 40));
    assert.match(!linear.ok ? linear.reason : "", why, p.slice(0, 40));
  }
});

Deno.test("linear pattern: the catastrophic cases answer (they would not finish on a backtracking engine)", () => {
  const nested = linearPattern("^(a+)+$");
  assert.ok(nested.ok && !nested.test("a".repeat(100_000) + "!"));
  const poly = linearPattern("^a*a*a*a*a*a*a*a*a*b$");
  assert.ok(poly.ok && !poly.test("a".repeat(100_000)));
  const alt = linearPattern("^(a|a)*$");
  assert.ok(alt.ok && !alt.test("a".repeat(100_000) + "!"));
});

Deno.test("linear pattern: generated patterns agree with V8 on generated inputs (seeded)", () => {
  let seed = 20;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pick = <T>(xs: T[]) => xs[rand(xs.length)];
  const ATOMS = ["a", "b", ".", "\\d", "\\s", "\\S", "\\w", "\\W", "[ab]", "[^a]", "[a-c\\s]", "\\.", "\\u00e9", "é"];
  const QUANTS = ["", "", "*", "+", "?", "{1,2}", "*?", "{2}"];
  const gen = (depth: number): string => {
    const n = 1 + rand(3);
    let out = "";
    for (let i = 0; i < n; i++) {
      const r = rand(10);
      const unit = r < 7 || depth > 2
        ? pick(ATOMS)
        : r < 9
        ? `(${gen(depth + 1)})`
        : `(?:${gen(depth + 1)}|${gen(depth + 1)})`;
      out += unit + pick(QUANTS);
    }
    return (rand(4) === 0 ? "^" : "") + out + (rand(4) === 0 ? "$" : "") + (rand(6) === 0 ? "|\\bb" : "");
  };
  const CHARS = ["a", "b", "c", "1", " ", "\n", "_", ".", "\u00a0", "é", "\u2028", "😀"];
  for (let i = 0; i < 400; i++) {
    const p = gen(0);
    const linear = linearPattern(p);
    assert.ok(linear.ok, `${p}: ${!linear.ok && linear.reason}`);
    const v8 = new RegExp(p, "u");
    for (let j = 0; j < 25; j++) {
      const s = Array.from({ length: rand(7) }, () => pick(CHARS)).join("");
      assert.equal(linear.test(s), v8.test(s), `${p} on ${JSON.stringify(s)}`);
    }
  }
});
