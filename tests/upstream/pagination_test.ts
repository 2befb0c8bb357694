/**
 * `inferPagination`: cursor paging read off an undeclared read tool's schemas only when nothing is ambiguous, and never
 * unbounded work on a hostile schema (alternatives nested without end).
 */
import assert from "node:assert/strict";
import { describePagination, inferPagination, parsePagination } from "../../src/upstream/pagination.ts";
import type { JsonSchema } from "../../src/upstream/types.ts";

const input = (props: Record<string, unknown>): JsonSchema => ({ type: "object", properties: props });
const page = (props: Record<string, unknown>): JsonSchema => ({ type: "object", properties: props });
const LIST = { type: "array", items: { type: "object" } };

Deno.test("inferPagination: one cursor argument, one next-cursor field and one list — else nothing", () => {
  const tool = (inputSchema: JsonSchema, outputSchema?: JsonSchema, effect = "read") => ({
    inputSchema,
    outputSchema,
    effect,
  });
  const ok = inferPagination(
    tool(input({ page_token: { type: "string" } }), page({ data: LIST, nextPageToken: { type: ["string", "null"] } })),
  );
  assert.deepEqual(ok, {
    style: "cursor",
    items: ["data"],
    cursorParam: "page_token",
    nextCursor: ["nextPageToken"],
    inferred: true,
  });
  assert.match(describePagination(ok!), /^inferred from page_token\/nextPageToken \(the operator declared none/);
  const nullable = page({ items: LIST, next_cursor: { anyOf: [{ type: "string" }, { type: "null" }] } });
  assert.ok(inferPagination(tool(input({ cursor: { type: "string" } }), nullable)), "anyOf string|null is a cursor");
  const refused: [string, ReturnType<typeof tool>][] = [
    ["a write tool", tool(input({ cursor: { type: "string" } }), nullable, "write")],
    ["no declared result", tool(input({ cursor: { type: "string" } }))],
    ["no cursor argument", tool(input({ q: { type: "string" } }), nullable)],
    ["two cursor arguments", tool(input({ cursor: { type: "string" }, page_token: { type: "string" } }), nullable)],
    ["a numeric cursor argument", tool(input({ cursor: { type: "integer" } }), nullable)],
    [
      "two lists",
      tool(input({ cursor: { type: "string" } }), page({ a: LIST, b: LIST, next_cursor: { type: "string" } })),
    ],
    ["no list", tool(input({ cursor: { type: "string" } }), page({ next_cursor: { type: "string" } }))],
    [
      "a next cursor that is an object",
      tool(input({ cursor: { type: "string" } }), page({ a: LIST, next_cursor: {} })),
    ],
    ["a result that is a list", tool(input({ cursor: { type: "string" } }), LIST)],
  ];
  for (const [why, t] of refused) assert.equal(inferPagination(t), undefined, why);
});

Deno.test("inferPagination: alternatives nested 100,000 deep are bounded work, and no inference (hostile schema)", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 100_000; i++) deep = { anyOf: [deep] };
  const t = {
    inputSchema: input({ cursor: deep }),
    outputSchema: page({ items: LIST, next_cursor: deep }),
    effect: "read",
  };
  assert.equal(inferPagination(t), undefined);
});

Deno.test("parsePagination: false declares no paging; anything else that is not a descriptor names the key", () => {
  assert.equal(parsePagination(false, "x", ["cursor"]), false);
  assert.deepEqual(parsePagination(true, "ops.p.pagination", []), [
    'ops.p.pagination: must be false or an object like {"style": "cursor", "items": "…", "cursor_param": "…", ' +
    '"next_cursor": "…"}',
  ]);
});
