import assert from "node:assert/strict";
import { buildUrl } from "../../../transports/openapi/request.ts";
import type { CompiledParam } from "../../../transports/openapi/schema.ts";

const p = (name: string, where: "path" | "query", extra: Partial<CompiledParam> = {}): CompiledParam => ({
  name,
  in: where,
  required: where === "path",
  schema: { type: "string" },
  style: where === "path" ? "simple" : "form",
  explode: where === "query",
  ...extra,
});

Deno.test("request: base path prefix, percent-encoded segments, sorted query, no ? when empty", () => {
  const params = [p("id", "path"), p("b", "query"), p("a", "query")];
  assert.deepEqual(buildUrl("https://h.example/proxy", "/items/{id}", params, { id: "org/42", b: "x y", a: true }), {
    ok: true,
    url: "https://h.example/proxy/items/org%2F42?a=true&b=x%20y",
  });
  assert.deepEqual(buildUrl("https://h.example", "/items/{id}", params, { id: 7 }), {
    ok: true,
    url: "https://h.example/items/7",
  });
});

Deno.test("request: array styles", () => {
  const arr = { type: "array", items: { type: "string" } };
  const cases: [Partial<CompiledParam>, string][] = [
    [{ explode: true }, "t=a&t=b"],
    [{ explode: false }, "t=a,b"],
    [{ style: "pipeDelimited", explode: false }, "t=a|b"],
    [{ style: "spaceDelimited", explode: false }, "t=a%20b"],
  ];
  for (const [extra, want] of cases) {
    const r = buildUrl("https://h.example", "/x", [p("t", "query", { schema: arr, ...extra })], { t: ["a", "b"] });
    assert.ok(r.ok);
    assert.equal(new URL(r.url).search, `?${want}`);
  }
});

Deno.test("request: traversal and non-scalar values are refused", () => {
  const params = [p("id", "path"), p("q", "query")];
  for (const id of ["..", ".", ""]) {
    const r = buildUrl("https://h.example/base", "/items/{id}", params, { id });
    assert.equal(r.ok, false);
  }
  assert.equal(buildUrl("https://h.example", "/items/{id}", params, {}).ok, false);
  assert.equal(buildUrl("https://h.example", "/items/{id}", params, { id: "a", q: { x: 1 } }).ok, false);
  assert.equal(buildUrl("https://h.example", "/items/{id}", params, { id: "a", q: [{ x: 1 }] }).ok, false);
  const ok = buildUrl("https://h.example/base", "/items/{id}", params, { id: "../../etc/passwd" });
  assert.deepEqual(ok, { ok: true, url: "https://h.example/base/items/..%2F..%2Fetc%2Fpasswd" });
});
