import assert from "node:assert/strict";
import { main, usage } from "../../src/cli/mod.ts";

Deno.test("usage lists every command", () => {
  const text = usage();
  for (const cmd of ["eval", "repl", "mcp", "catalog", "permissions", "doctor", "fixture", "demo"]) {
    assert.ok(text.includes(`  ${cmd} `), `usage mentions ${cmd}`);
  }
});

Deno.test("unknown command exits 2", async () => {
  const original = console.error;
  const seen: string[] = [];
  console.error = (...a: unknown[]) => seen.push(a.join(" "));
  try {
    assert.equal(await main(["no-such-command"]), 2);
  } finally {
    console.error = original;
  }
  assert.ok(seen.join("\n").includes("unknown command 'no-such-command'"));
});
