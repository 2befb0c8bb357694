import assert from "node:assert/strict";
import { fixedQueryString, splitPathTemplate } from "../../../transports/openapi/path_template.ts";
import { buildUrl } from "../../../transports/openapi/request.ts";
import { compileDocument, CompileError } from "../../../transports/openapi/compiler.ts";
import { parseConfig } from "./helpers.ts";

Deno.test("path template: fragments stripped, query strings split into fixed items and query parameters", () => {
  assert.deepEqual(splitPathTemplate("/folders/{id}#get"), { path: "/folders/{id}", fixedQuery: [], queryParams: [] });
  assert.deepEqual(splitPathTemplate("/?Action=Describe&Version=2016-11-15#x=1"), {
    path: "/",
    fixedQuery: [["Action", "Describe"], ["Version", "2016-11-15"]],
    queryParams: [],
  });
  assert.deepEqual(splitPathTemplate("/{Bucket}?uploads&list-type=2"), {
    path: "/{Bucket}",
    fixedQuery: [["uploads", undefined], ["list-type", "2"]],
    queryParams: [],
  });
  assert.deepEqual(splitPathTemplate("/alerts?lat={lat}&lon={lon}"), {
    path: "/alerts",
    fixedQuery: [],
    queryParams: ["lat", "lon"],
  });
  for (const bad of ["/a?x={y}", "/a?x=pre{x}", "/a?{x}", "/a?x=%zz", "/a?x={x}&x={x}"]) {
    const r = splitPathTemplate(bad);
    assert.ok("error" in r, bad);
    assert.match(r.error, /query part of the path template/);
  }
  assert.equal(fixedQueryString([["a b", "c&d"], ["flag", undefined]]), "a%20b=c%26d&flag");
});

Deno.test("path template: fixed items come first in the URL, then the sorted arguments", () => {
  const p = { name: "n", in: "query" as const, required: false, schema: {}, style: "form", explode: true };
  assert.deepEqual(buildUrl("https://h.example", "/", [p], { n: 2 }, [["Action", "List"], ["uploads", undefined]]), {
    ok: true,
    url: "https://h.example/?Action=List&uploads&n=2",
  });
});

Deno.test("path template: the compiler blames the path, never the arguments", () => {
  const doc = (path: string, parameters: unknown[] = []) => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { [path]: { get: { operationId: "op", parameters, responses: { "204": { description: "none" } } } } },
  });
  const config = parseConfig({
    base_url: "https://api.example.com",
    schema_file: "x.json",
    include_operations: ["op"],
  });
  const problems = (d: Record<string, unknown>) => {
    try {
      compileDocument(d, "3.1", config);
    } catch (e) {
      if (e instanceof CompileError) return e.problems.join("\n");
      throw e;
    }
    return "";
  };
  assert.match(
    problems(doc("/a?x={y}")),
    /^GET \/a\?x=\{y\} \(op\): the query part of the path template has "x=\{y\}"/,
  );
  assert.match(problems(doc("/a?x={x}")), /query part of the path template uses undeclared parameter\(s\): x/);
  assert.match(
    problems(doc("/a?fixed=1", [{ name: "fixed", in: "query", schema: { type: "string" } }])),
    /fixes query item "fixed", which is also a declared parameter/,
  );
  const ok = compileDocument(
    doc("/a/{id}?q={q}#frag", [
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      { name: "q", in: "path", required: true, schema: { type: "string" } },
    ]),
    "3.1",
    config,
  );
  const op = ok.operations[0];
  assert.equal(op.requestPath, "/a/{id}");
  assert.deepEqual(op.params.map((p) => [p.name, p.in, p.required]), [["id", "path", true], ["q", "query", true]]);
  assert.equal(op.accept, "application/json");
  assert.deepEqual(ok.warnings, []);
});
