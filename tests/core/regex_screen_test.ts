import assert from "node:assert/strict";
import { backtrackingRisk, nestedRepetition, withoutRiskyPatterns } from "../../src/core/regex_screen.ts";

Deno.test("regex screen: nested repetition and repeated alternation are risky; ordinary patterns are not", () => {
  for (const p of ["^(a+)+$", "(x*)*", "(a{2,})+", "^(a|aa)*$", "(?:ab|a)+c", "((a|b)c)+"]) {
    assert.ok(backtrackingRisk(p), p);
  }
  for (const p of ["^trc_[0-9a-f]{16}$", "^[a-z]+(-[a-z]+)?$", "(a|b){2}", "[(a+)+]", "\\(a+\\)+", "^\\d+$"]) {
    assert.equal(backtrackingRisk(p), undefined, p);
  }
  assert.equal(nestedRepetition("(a|aa)*"), false, "the language's screen is unchanged");
});

Deno.test("regex screen: a schema's risky patterns are removed from a copy, however deep", () => {
  const safe = { type: "object", properties: { q: { type: "string", pattern: "^a+$" } } };
  assert.equal(withoutRiskyPatterns(safe), safe, "a schema without risky patterns is used as is");
  let deep: Record<string, unknown> = { type: "string", pattern: "(a+)+" };
  for (let i = 0; i < 50_000; i++) deep = { items: deep };
  const screened = withoutRiskyPatterns(deep);
  let node = screened;
  while (node.items) node = node.items as Record<string, unknown>;
  assert.deepEqual(node, { type: "string" });
  let original = deep;
  while (original.items) original = original.items as Record<string, unknown>;
  assert.equal(original.pattern, "(a+)+", "the upstream's schema itself is unchanged");
});
