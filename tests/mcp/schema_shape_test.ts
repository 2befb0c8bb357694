import assert from "node:assert/strict";
import { schemaProblem } from "../../src/mcp/schema_shape.ts";
import { ArgsError, checkOutputSchema } from "../../src/mcp/tool_args.ts";
import { checkOutput } from "../../src/sandbox/child_core.ts";

Deno.test("well-formed schemas have no problem", () => {
  for (
    const s of [
      true,
      {},
      { type: "object", required: ["a"], properties: { a: { type: ["integer", "null"] } } },
      { type: "array", items: { type: "string", pattern: "^a" }, minItems: 1 },
      { anyOf: [{ type: "string" }, { const: 3 }], $defs: { x: { type: "number", minimum: 0 } } },
    ]
  ) assert.equal(schemaProblem(s), undefined, JSON.stringify(s));
});

Deno.test("malformed schemas name the JSON pointer of the bad keyword", () => {
  assert.match(schemaProblem({ type: 12 })!, /^\/type: must be one of/);
  assert.match(schemaProblem({ type: "text" })!, /^\/type: /);
  assert.match(schemaProblem({ properties: { a: { type: "int" } } })!, /^\/properties\/a\/type: /);
  assert.match(schemaProblem({ required: "a" })!, /^\/required: must be a list of strings/);
  assert.match(schemaProblem({ items: [1] })!, /^\/items: must be a schema/);
  assert.match(schemaProblem({ anyOf: [] })!, /^\/anyOf: must be a non-empty list/);
  assert.match(schemaProblem({ minLength: -1 })!, /^\/minLength: must be a non-negative integer/);
  assert.match(schemaProblem({ pattern: "(" })!, /^\/pattern: not a valid regular expression/);
  assert.match(schemaProblem({ properties: { "a/b": 3 } })!, /^\/properties\/a~1b: a schema must be/);
  assert.match(schemaProblem("x")!, /^\/: a schema must be an object or a boolean/);
});

Deno.test("checkOutputSchema reports a malformed schema as an args error; values are checked in the sandbox", () => {
  assert.throws(() => checkOutputSchema({ type: 12 }), (e) => {
    assert.ok(e instanceof ArgsError);
    assert.match(e.message, /^argument `output_schema` is invalid: \/type: /);
    return true;
  });
  const schema = checkOutputSchema({ type: "object", required: ["n"] })!;
  assert.deepEqual(checkOutput(schema, { n: 1 }), { valid: true });
  assert.equal(checkOutput(schema, []).valid, false);
});
