/** Numbers inside error messages are written as the language writes them (never `[object Object]` or `1e+300.0`). */
import assert from "node:assert/strict";
import { err } from "./helpers.ts";
import { assertReadable } from "../helpers.ts";

Deno.test("number messages: int out of range names the number readably", () => {
  const cases: [string, string][] = [
    ["(int 1e300)", "int: 1.0E300 is outside the 32-bit integer range"],
    ["(int -3e10)", "int: -3.0E10 is outside the 32-bit integer range"],
    ["(int ##Inf)", "int: ##Inf is outside the 32-bit integer range"],
    ["(int ##-Inf)", "int: ##-Inf is outside the 32-bit integer range"],
    ["(int 100000000000000000000000000000)", "int: 100000000000000000000000000000 is outside the 32-bit integer range"],
    ["(int 3000000000)", "int: 3000000000 is outside the 32-bit integer range"],
  ];
  for (const [src, want] of cases) {
    const e = err(src);
    assert.equal(e.reason, "arithmetic_error", src);
    assert.equal(e.message, `${want} (line 1, column 1)`, src);
  }
});

Deno.test("number messages: type errors describe floats in printer style", () => {
  const cases: [string, string][] = [
    ["(bit-and 1e300 1)", "got a number (1.0E300)"],
    ['(subs "abc" ##Inf)', "got a number (##Inf)"],
    ['(subs "abc" ##NaN)', "got a number (##NaN)"],
    ["(nth [1] 1.5)", "got a number (1.5)"],
    ["(bit-and 2.0 1)", "got a number (2.0)"],
  ];
  for (const [src, want] of cases) {
    const e = err(src);
    assert.equal(e.reason, "type_error", src);
    assert.ok(e.message.includes(want), `${src}: ${e.message}`);
    assertReadable(e.message);
    assert.ok(!e.message.includes("e+"), `${src}: ${e.message}`);
  }
});
