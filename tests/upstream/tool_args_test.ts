import assert from "node:assert/strict";
import { argumentProblems, declaredArgNames, matchArgNames } from "../../src/upstream/tool_args.ts";
import type { JsonObject } from "../../src/core/json.ts";
import type { JsonSchema, ToolEntry } from "../../src/upstream/types.ts";

const TRACES: JsonSchema = {
  type: "object",
  properties: {
    "org-id": { type: "string" },
    status: { type: "string", enum: ["ok", "error"] },
    since: { type: "string", format: "date-time" },
  },
  required: ["org-id"],
};

function entry(inputSchema: JsonSchema): ToolEntry {
  return {
    name: "t",
    description: "",
    inputSchema,
    annotations: {},
    _ptc: { server: "s", transport: "fake" },
  } as unknown as ToolEntry;
}

/** Problems for program args (keys as the language sends them: `-` already turned into `_`). */
function problems(schema: JsonSchema, args: JsonObject): string[] {
  return argumentProblems(entry(schema), matchArgNames(args, schema));
}

Deno.test("tool args: an undeclared key is refused by name, with did-you-mean and the accepted names", () => {
  const p = problems(TRACES, { org_id: "acme", sttus: "error" });
  assert.deepEqual(p, [
    'sttus: unknown argument (did you mean "status"?)',
    "accepted arguments: org-id, status, since",
  ]);
});

Deno.test("tool args: a typo of a required key names the typo first, then the missing key", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { path: { type: "string" }, head: { type: "number" } },
    required: ["path"],
  };
  const p = problems(schema, { pth: "x" });
  assert.match(p[0], /^pth: unknown argument \(did you mean "path"\?\)$/);
  assert.ok(p.some((x) => /^path: is required/.test(x)));
  assert.equal(p.at(-1), "accepted arguments: path, head");
});

Deno.test("tool args: additionalProperties false reports each unknown key once", () => {
  const p = problems({ ...TRACES, additionalProperties: false }, { org_id: "a", zzz: 1 });
  assert.deepEqual(p, ["zzz: unknown argument", "accepted arguments: org-id, status, since"]);
});

Deno.test("tool args: extra keys pass when the schema allows them or declares no properties", () => {
  assert.deepEqual(problems({ ...TRACES, additionalProperties: true }, { org_id: "a", extra: 1 }), []);
  assert.deepEqual(problems({ ...TRACES, additionalProperties: { type: "number" } }, { org_id: "a", extra: 1 }), []);
  assert.deepEqual(problems({ type: "object" }, { anything: 1 }), []);
  assert.deepEqual(problems({}, { anything: 1 }), []);
  assert.deepEqual(problems({ ...TRACES, patternProperties: { "^x_": {} } }, { org_id: "a", x_1: 1 }), []);
});

Deno.test("tool args: declared names come from properties and top-level allOf members", () => {
  assert.deepEqual(declaredArgNames({ properties: { a: {} }, allOf: [{ properties: { b: {} } }] }), ["a", "b"]);
  assert.equal(declaredArgNames({ type: "object" }), undefined);
  assert.deepEqual(problems({ type: "object", properties: {} }, { x: 1 }), [
    "x: unknown argument",
    "this tool takes no arguments",
  ]);
});

Deno.test("tool args: format errors show the value received and an example", () => {
  assert.deepEqual(problems(TRACES, { org_id: "a", since: "yesterday" }), [
    'since: must be a valid date-time such as 2026-10-24T00:00:00Z, got "yesterday"',
  ]);
  const p = problems({ properties: { day: { type: "string", format: "date" } } }, { day: "24/10" });
  assert.deepEqual(p, ['day: must be a valid date such as 2026-10-24, got "24/10"']);
  const mail = problems({ properties: { to: { type: "string", format: "email" } } }, { to: "bob" });
  assert.deepEqual(mail, ['to: must be a valid email such as name@example.com, got "bob"']);
});

Deno.test("tool args: names mixing - and _ are reached under the language's spelling; ambiguous folds are not guessed", () => {
  const mixed: JsonSchema = {
    type: "object",
    properties: { "page-size_max": { type: "integer" }, "sort_order-key": { type: "string" }, "x-id": {} },
  };
  assert.deepEqual(matchArgNames({ page_size_max: 3, sort_order_key: "a", x_id: 1 }, mixed), {
    "page-size_max": 3,
    "sort_order-key": "a",
    "x-id": 1,
  });
  assert.deepEqual(problems(mixed, { page_size_max: 3 }), []);
  const both: JsonSchema = { type: "object", properties: { "a-b": {}, "a_b_c": {}, "a-b_c": {} } };
  assert.deepEqual(matchArgNames({ a_b: 1 }, both), { "a-b": 1 });
  assert.deepEqual(matchArgNames({ a_b_c: 1 }, both), { a_b_c: 1 }, "exact match wins over a fold");
  const twin: JsonSchema = { type: "object", properties: { "a-b_c": {}, "a_b-c": {} } };
  assert.deepEqual(matchArgNames({ a_b_c: 1 }, twin), { a_b_c: 1 });
  assert.match(problems(twin, { a_b_c: 1 }).join("\n"), /a_b_c: unknown argument/);
});

Deno.test("tool args: upstream patterns, catastrophic ones included, are checked on the host in linear time", () => {
  // An upstream (or a recording's manifest) controls its input schema; `(a+)+` against "aaa…!" takes 2^n steps on a
  // backtracking engine, `a*a*…a*b` n^9. RE2 answers both at once (core/linear_pattern.ts).
  const bad = "a".repeat(40) + "!";
  const risky: JsonSchema = {
    type: "object",
    properties: {
      q: { type: "string", pattern: "^(a+)+$" },
      r: { type: "string", pattern: "^(a|aa)*$" },
      p: { type: "string", pattern: "^a*a*a*a*a*a*a*a*a*b$" },
    },
    patternProperties: { "^(x+)+$": { type: "integer" } },
    additionalProperties: false,
  };
  assert.deepEqual(problems(risky, { q: bad, r: bad, p: "a".repeat(80) }), [
    "q: must match the pattern ^(a+)+$",
    "r: must match the pattern ^(a|aa)*$",
    "p: must match the pattern ^a*a*a*a*a*a*a*a*a*b$",
  ]);
  assert.deepEqual(problems(risky, { q: "aaaa", r: "aaa", p: "aab" }), []);
  assert.deepEqual(problems(risky, { q: 1 }), ["q: must be a string, got 1"], "the rest of the schema still applies");
  // a key a patternProperties pattern matches is accepted (its value is the upstream's to judge), another is not
  assert.deepEqual(problems(risky, { xxxx: "not checked by the host" }), []);
  assert.match(problems(risky, { ["x".repeat(40) + "!"]: 1 }).join("\n"), /unknown argument/);
  // the validator's own url format backtracks exponentially: ptc's linear stand-in keeps its name in messages
  const url: JsonSchema = { type: "object", properties: { link: { type: "string", format: "url" } } };
  assert.deepEqual(problems(url, { link: "http://" + "a".repeat(60) + "!" }), []);
  assert.match(
    problems(url, { link: "nope" }).join(),
    /^link: must be a valid url such as https:\/\/example.com\/path, got "nope"$/,
  );
  // a pattern RE2 cannot express is left to the upstream
  const lookahead: JsonSchema = { type: "object", properties: { q: { type: "string", pattern: "^(?=a)a+$" } } };
  assert.deepEqual(problems(lookahead, { q: "b" }), []);
});
