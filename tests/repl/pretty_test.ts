import assert from "node:assert/strict";
import { prettyPrinted } from "../../src/repl/pretty.ts";

Deno.test("short values stay on one line, exactly as printed", () => {
  assert.equal(prettyPrinted('{:a 1 :b [1 2 3] :c "x y"}'), '{:a 1 :b [1 2 3] :c "x y"}');
  assert.equal(prettyPrinted("42"), "42");
  assert.equal(prettyPrinted('#{1 2} #"a b" "(["'), '#{1 2} #"a b" "(["');
});

Deno.test("long maps break one entry per line, aligned", () => {
  const printed = `{:alpha "${"a".repeat(30)}" :beta [1 2 3] :gamma {:x "${"b".repeat(30)}" :y 2}}`;
  const out = prettyPrinted(printed, { width: 40, maxItems: 100, maxChars: 10_000 });
  const lines = out.split("\n");
  assert.ok(lines.length >= 3);
  assert.ok(lines[0].startsWith("{:alpha "));
  assert.ok(lines[1].startsWith(" :beta [1 2 3]"));
  assert.equal(out.replace(/\s+/g, " "), printed.replace(/\s+/g, " "));
});

Deno.test("collections beyond maxItems and output beyond maxChars are cut visibly", () => {
  const v = `[${Array.from({ length: 10 }, (_, i) => i).join(" ")}]`;
  assert.equal(prettyPrinted(v, { width: 100, maxItems: 3, maxChars: 1000 }), "[0 1 2 ... (+7 more)]");
  const m = "{:a 1 :b 2 :c 3}";
  assert.equal(prettyPrinted(m, { width: 100, maxItems: 2, maxChars: 1000 }), "{:a 1 :b 2 ... (+1 more)}");
  const long = prettyPrinted(`"${"z".repeat(500)}"`, { width: 1000, maxItems: 10, maxChars: 50 });
  assert.match(long, /output cut at 50 of 502 characters/);
});

Deno.test("long runs of scalars are filled across lines within the width", () => {
  const v = `[${Array.from({ length: 40 }, (_, i) => i).join(" ")}]`;
  const out = prettyPrinted(v, { width: 30, maxItems: 100, maxChars: 10_000 });
  const lines = out.split("\n");
  assert.ok(lines.length > 1 && lines.length < 10, out);
  for (const line of lines) assert.ok(line.length <= 30, `line too long: ${line}`);
  assert.equal(out.replace(/\s+/g, " "), v);
  assert.ok(lines[1].startsWith(" "));
});

Deno.test("character literals are atoms even when the character is a bracket", () => {
  assert.equal(prettyPrinted("[\\( \\] \\a]"), "[\\( \\] \\a]");
  const out = prettyPrinted(`[\\( "${"x".repeat(30)}" \\)]`, { width: 20, maxItems: 100, maxChars: 10_000 });
  assert.equal(out.replace(/\s+/g, " "), `[\\( "${"x".repeat(30)}" \\)]`);
});
