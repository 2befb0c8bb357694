/**
 * Hostile programs full of unknown names: analysis names the first few (with suggestions) and counts the rest, so the
 * message stays short and the suggestion work stays bounded however many names a program holds.
 */
import assert from "node:assert/strict";
import { evaluate } from "./helpers.ts";

/** A 64 KiB program of distinct unknown names, each wrapped by `wrap`. */
function manyUnknown(wrap: (name: string) => string): { source: string; count: number } {
  const parts: string[] = [];
  let length = 0;
  while (length < 65_536) {
    const part = wrap(`zq${parts.length.toString(36)}x`);
    parts.push(part);
    length += part.length + 1;
  }
  return { source: `[${parts.join(" ")}]`, count: parts.length };
}

for (const [label, wrap] of [["values", (n: string) => n], ["call heads", (n: string) => `(${n} 1)`]] as const) {
  Deno.test(`unknown names (${label}): 64 KiB of them end in one short unbound_var naming ten and counting the rest`, () => {
    const { source, count } = manyUnknown(wrap);
    const r = evaluate(source);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.reason, "unbound_var");
    assert.match(r.message, /^Undefined variables: zq0x, zq1x, .*zq9x and (\d+) more \(line 1, column \d+\)$/);
    assert.equal(Number(/and (\d+) more/.exec(r.message)![1]), count - 10);
    assert.ok(r.message.length < 400, r.message);
  });
}

Deno.test("unknown names: a few keep their suggestions", () => {
  const r = evaluate("(fliter odd? [1 2])");
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /fliter \(did you mean "filter"\?\)/);
});
