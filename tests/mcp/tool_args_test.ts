/** `lisp_eval`'s `context` argument: its shape, keys, nesting and size are checked before anything walks it. */
import assert from "node:assert/strict";
import { ArgsError, checkContext } from "../../src/mcp/tool_args.ts";

const LIMITS = { maxProgramBytes: 1_000_000, maxContextBytes: 100_000 };

function refusal(context: unknown): string {
  try {
    checkContext(context, LIMITS);
  } catch (e) {
    assert.ok(e instanceof ArgsError, String(e));
    return e.message;
  }
  return "accepted";
}

Deno.test("context: objects pass; other shapes, bad keys, deep nesting and size are refused by name", () => {
  assert.equal(refusal(undefined), "accepted");
  assert.equal(refusal({ a: [1, { b: 2 }] }), "accepted");
  assert.match(refusal([1]), /argument `context` must be a JSON object/);
  assert.match(refusal({ "a/b": 1 }), /key "a\/b" must be non-empty and contain no '\/'/);
  // Hostile: 200,000 levels parse fine but JSON.stringify (the size check) would throw an engine stack error.
  const deep = JSON.parse('{"a":' + "[".repeat(200_000) + "]".repeat(200_000) + "}");
  assert.equal(refusal(deep), "argument `context` nests arrays and objects deeper than 1000 levels; flatten it");
  assert.match(refusal({ a: "x".repeat(200_000) }), /exceeds max_context_bytes/);
});
