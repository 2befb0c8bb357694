/**
 * Schemas from upstreams, prepared for the host's validator: patterns become RE2-backed formats (same verdicts,
 * linear time), what RE2 cannot express is reported for a start warning, data positions are left alone.
 */
import assert from "node:assert/strict";
import { Validator } from "@cfworker/json-schema";
import { hostSchema, plainValidatorError, skippedPatternWarnings } from "../../src/upstream/host_schema.ts";

const check = (schema: unknown, value: unknown) =>
  new Validator(hostSchema(schema).schema as never, "2020-12", false).validate(value);

Deno.test("host schema: a pattern is still enforced, by RE2, with or without a format beside it", () => {
  const schema = {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^trc_[0-9a-f]{4}$" },
      mail: { type: "string", format: "email", pattern: "@example\\.com$" },
      nested: { type: "array", items: { anyOf: [{ type: "string", pattern: "^x" }, { type: "number" }] } },
    },
  };
  assert.equal(check(schema, { id: "trc_00af", mail: "a@example.com", nested: ["xy", 3] }).valid, true);
  assert.equal(check(schema, { id: "trc_00ag" }).valid, false);
  assert.equal(check(schema, { mail: "a@example.org" }).valid, false);
  assert.equal(check(schema, { mail: "not mail@example.com" }).valid, false, "the format still applies");
  assert.equal(check(schema, { nested: ["yx"] }).valid, false);
  const err = check(schema, { id: "nope" }).errors.find((e) => e.keyword === "format")!;
  assert.equal(plainValidatorError(err.error), 'String does not match pattern "^trc_[0-9a-f]{4}$".');
});

Deno.test("host schema: the catastrophic patterns answer at once on the host", () => {
  const out = { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } };
  assert.equal(check(out, { s: "a".repeat(40) + "!" }).valid, false);
  assert.equal(check(out, { s: "a".repeat(40) }).valid, true);
  const input = { type: "object", properties: { q: { type: "string", pattern: "^a*a*a*a*a*a*a*a*a*b$" } } };
  assert.equal(check(input, { q: "a".repeat(80) }).valid, false);
});

Deno.test("host schema: a pattern RE2 cannot express is skipped and reported with its pointer", () => {
  const schema = {
    type: "object",
    properties: { "a/b": { type: "string", pattern: "^(x)\\1$" } },
    patternProperties: { "^(?=y)": { type: "number" } },
    additionalProperties: false,
  };
  const { skipped } = hostSchema(schema);
  assert.deepEqual(skipped.map((s) => s.pointer).sort(), ["/patternProperties/^(?=y)", "/properties/a~1b/pattern"]);
  assert.equal(check(schema, { "a/b": "xy", yes: 1 }).valid, true, "left to the upstream");
  const lines = skippedPatternWarnings("status", { outputSchema: schema });
  assert.equal(lines.length, 2);
  assert.match(
    lines.join("\n"),
    /tool status: outputSchema \/properties\/a~1b\/pattern "\^\(x\)\\\\1\$" .*backreference/,
  );
});

Deno.test("host schema: data positions, an upstream's own use of ptc's format names, deep schemas", () => {
  const schema = {
    type: "object",
    default: { pattern: "(a+)+" },
    properties: { p: { const: { pattern: "x" }, format: "ptc-linear-pattern:^$" } },
  };
  const safe = hostSchema(schema).schema as { default: unknown; properties: { p: unknown } };
  assert.deepEqual(safe.default, { pattern: "(a+)+" });
  assert.deepEqual(safe.properties.p, { const: { pattern: "x" } }, "a smuggled format name is removed");
  const plain = { type: "object", properties: { n: { type: "number" } } };
  assert.equal(hostSchema(plain).schema, plain, "a schema without patterns is used as is");
  let deep: Record<string, unknown> = { type: "string", pattern: "^a$" };
  for (let i = 0; i < 50_000; i++) deep = { items: deep };
  let node = hostSchema(deep).schema;
  while (node.items) node = node.items as Record<string, unknown>;
  assert.equal(node.pattern, undefined);
  let original = deep;
  while (original.items) original = original.items as Record<string, unknown>;
  assert.equal(original.pattern, "^a$", "the upstream's schema itself is unchanged");
});

Deno.test("host schema: the validator's url format, exponential on a hostile value, is replaced by a linear test", () => {
  const schema = { type: "object", properties: { link: { type: "string", format: "url" } } };
  const hostile = "http://" + "a".repeat(5000) + "!"; // the validator's own url regex would not finish
  assert.equal(check(schema, { link: hostile }).valid, true, "looser than the validator: the upstream judges");
  assert.equal(check(schema, { link: "https://example.com/a?b=c" }).valid, true);
  const bad = check(schema, { link: "not a url" });
  assert.equal(bad.valid, false);
  assert.equal(
    plainValidatorError(bad.errors.find((e) => e.keyword === "format")!.error),
    'String does not match format "url".',
  );
});
