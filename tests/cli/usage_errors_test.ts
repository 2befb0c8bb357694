import assert from "node:assert/strict";
import { main } from "../../src/cli/mod.ts";

/** Run `ptc …args`, capturing stderr; returns the exit code and the first stderr line. */
async function firstErrorLine(args: string[]): Promise<[number, string]> {
  const original = console.error;
  const seen: string[] = [];
  console.error = (...a: unknown[]) => seen.push(a.join(" "));
  try {
    const code = await main(args);
    return [code, seen.join("\n").split("\n")[0]];
  } finally {
    console.error = original;
  }
}

Deno.test("usage errors name the command they come from", async () => {
  const cases: [string[], RegExp][] = [
    [["doctor", "--bogus"], /^ptc doctor: .*bogus/],
    [["doctor", "--format", "yaml", "--upstreams-config", "x.jsonc"], /^ptc doctor: --format must be text or json/],
    [["fixture", "observatory", "--port", "abc"], /^ptc fixture: .*port/],
    [["fixture"], /^ptc fixture: missing fixture name/],
    [["demo", "--bogus"], /^ptc demo: .*bogus/],
    [["mcp", "--bogus"], /^ptc mcp: .*bogus/],
    [["docs", "nope"], /^ptc docs: unknown topic 'nope'/],
  ];
  for (const [args, re] of cases) {
    const [code, line] = await firstErrorLine(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(line, re, args.join(" "));
  }
});
