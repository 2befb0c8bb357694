import assert from "node:assert/strict";
import { buildPayload, buildUrl, MAX_HEADER_VALUE } from "../../../transports/openapi/request.ts";
import type { CompiledParam } from "../../../transports/openapi/schema.ts";

const p = (name: string, where: CompiledParam["in"], extra: Partial<CompiledParam> = {}): CompiledParam => ({
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
  assert.equal(buildUrl("https://h.example", "/items/{id}", params, { id: "a", q: { x: { y: 1 } } }).ok, false);
  assert.equal(buildUrl("https://h.example", "/items/{id}", params, { id: "a", q: [{ x: 1 }] }).ok, false);
  const ok = buildUrl("https://h.example/base", "/items/{id}", params, { id: "../../etc/passwd" });
  assert.deepEqual(ok, { ok: true, url: "https://h.example/base/items/..%2F..%2Fetc%2Fpasswd" });
});

Deno.test("request: header and body arguments stay out of the URL and go to the payload", () => {
  const params = [p("id", "path"), p("q", "query"), p("idempotency-key", "header"), p("title", "body"), p("n", "body")];
  const values = { id: "7", q: "x", "idempotency-key": "k-1", title: "T", n: 0 };
  assert.deepEqual(buildUrl("https://h.example", "/items/{id}", params, values), {
    ok: true,
    url: "https://h.example/items/7?q=x",
  });
  assert.deepEqual(buildPayload(params, values, { required: true }), {
    ok: true,
    headers: { "idempotency-key": "k-1" },
    body: '{"title":"T","n":0}',
  });
});

Deno.test("request: a required body is sent as {} at least; an optional one only when a body argument is given", () => {
  const params = [p("title", "body")];
  assert.deepEqual(buildPayload(params, {}, { required: true }), { ok: true, headers: {}, body: "{}" });
  assert.deepEqual(buildPayload(params, {}, { required: false }), { ok: true, headers: {} });
  assert.deepEqual(buildPayload(params, { title: null }, { required: false }), { ok: true, headers: {} });
  assert.deepEqual(buildPayload(params, { title: "x" }, { required: false }), {
    ok: true,
    headers: {},
    body: '{"title":"x"}',
  });
  assert.deepEqual(buildPayload([], {}), { ok: true, headers: {} }, "no body declared: nothing sent");
});

Deno.test("request: header arguments are bounded scalars without control characters", () => {
  const params = [p("if-match", "header")];
  for (const bad of ["a\r\nx-injected: 1", "a\u0000b", "x".repeat(MAX_HEADER_VALUE + 1)]) {
    const r = buildPayload(params, { "if-match": bad });
    assert.equal(r.ok, false);
    assert.match(
      (r as { problems: string[] }).problems[0],
      /header argument "if-match" must be at most 4096 characters/,
    );
  }
  const list = buildPayload(params, { "if-match": ["a"] });
  assert.match((list as { problems: string[] }).problems[0], /must be a string, number or boolean/);
  assert.deepEqual(buildPayload(params, { "if-match": 3 }), { ok: true, headers: { "if-match": "3" } });
  assert.deepEqual(buildPayload(params, { "if-match": "a\tb" }), { ok: true, headers: { "if-match": "a\tb" } });
});

Deno.test("request: object query parameters in style form and deepObject; keys cannot add items", () => {
  const obj = (name: string, style: string, explode: boolean) => ({ ...p(name, "query"), style, explode });
  const params = [obj("filter", "deepObject", true), obj("range", "form", true), obj("color", "form", false)];
  const r = buildUrl("https://h.example", "/w", params, {
    filter: { "a&b=c": "x y", nested: { list: [1, true] } },
    range: { min: 1, max: 9 },
    color: { r: "1", g: "a,b" },
  });
  assert.ok(r.ok);
  assert.equal(
    new URL(r.url).search,
    "?color=r,1,g,a%2Cb&filter[a%26b%3Dc]=x%20y&filter[nested][list][0]=1&filter[nested][list][1]=true&min=1&max=9",
  );
  const nested = buildUrl("https://h.example", "/w", params, { range: { min: { deep: 1 } } });
  assert.equal(nested.ok, false);
  assert.equal(buildUrl("https://h.example", "/w", params, { filter: [1, 2] }).ok, false);
});

Deno.test("request: a form body in bracket encoding; style form fields as repeated keys", async () => {
  const { formBody } = await import("../../../transports/openapi/form_encoding.ts");
  assert.equal(
    decodeURIComponent(formBody({
      amount: 2000,
      metadata: { order: "o-1", gone: null },
      items: [{ price: "p_1", qty: 2 }],
      expand: ["customer"],
      tags: ["x", "y"],
      empty: [],
    }, { tags: { style: "form", explode: true } })),
    "amount=2000&metadata[order]=o-1&metadata[gone]=&items[0][price]=p_1&items[0][qty]=2&expand[0]=customer&tags=x&tags=y",
  );
  assert.equal(formBody({ "k]&x=": { "a[b": "v&w" } }), "k%5D%26x%3D[a%5Bb]=v%26w");
  assert.equal(formBody({ t: ["a", "b"] }, { t: { style: "form", explode: false } }), "t=a,b");
});
