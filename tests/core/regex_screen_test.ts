import assert from "node:assert/strict";
import { nestedRepetition } from "../../src/core/regex_screen.ts";

Deno.test("regex screen: the language refuses nested repetition, not ordinary patterns", () => {
  for (const p of ["^(a+)+$", "(x*)*", "(a{2,})+", "((ab)+c)*"]) assert.ok(nestedRepetition(p), p);
  for (const p of ["^trc_[0-9a-f]{16}$", "^[a-z]+(-[a-z]+)?$", "(a|b){2}", "[(a+)+]", "\\(a+\\)+", "(a|aa)*"]) {
    assert.equal(nestedRepetition(p), false, p);
  }
});
