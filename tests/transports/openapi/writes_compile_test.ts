// deno-lint-ignore-file no-explicit-any -- tests poke at nested JSON Schema objects
/**
 * Compiling OpenAPI writes: which non-GET operations are included (only those the operator declares in
 * `operation_overrides.<id>.effect`), how the effect combines with the document's `x-ptc-read-only`, JSON request
 * bodies as arguments, header arguments of writes, and every refusal as one line naming the operation or key path.
 */
import assert from "node:assert/strict";
import { compileDocument } from "../../../transports/openapi/compiler.ts";
import { parseOpenApiConfig } from "../../../transports/openapi/config.ts";
import { argsOf } from "../../../src/upstream/signature.ts";
import { buildConfigSchema } from "../../../src/upstream/config_schema.ts";
import { listTransports } from "../../../transports/mod.ts";
import { Validator } from "@cfworker/json-schema";
import { compileProblems, configContext, exponentialRefsDoc, parseConfig } from "./helpers.ts";
import { notesDoc, notesOverrides } from "./write_fixture.ts";
import { HEADER_VALUE_PATTERN, MAX_HEADER_VALUE } from "../../../transports/openapi/request.ts";
import { linearPattern } from "../../../src/upstream/linear_pattern.ts";

function compile(include: string[], overrides: Record<string, unknown> = {}, doc = notesDoc(), extra = {}) {
  const config = parseConfig({
    base_url: "https://api.example.com",
    schema_file: "x.json",
    include_operations: include,
    // only included operations may have overrides
    operation_overrides: Object.fromEntries(Object.entries(overrides).filter(([id]) => include.includes(id))),
    ...extra,
  });
  return compileDocument(doc, "3.1", config);
}

const problems = compileProblems;

function only<T>(list: T[]): T {
  assert.equal(list.length, 1, JSON.stringify(list));
  return list[0];
}

Deno.test("writes: an undeclared non-GET is refused, naming the operation and the key to add", () => {
  const lines = problems(() => compile(["create-note", "delete-note", "query-notes"]));
  assert.equal(lines.length, 3);
  assert.match(
    lines[0],
    /^POST \/notes \(create-note\): a POST may change the service, so it is included only when the operator declares it: set upstreams\.obs\.operation_overrides\.create-note\.effect to "write" \(or "read" if it is a safe query\); a write tool also needs allow_writes: true and ptc started with --allow-writes$/,
  );
  assert.match(lines[1], /^DELETE \/notes\/\{note_id\} \(delete-note\): a DELETE .*effect to "write"; a write/);
  assert.match(lines[2], /query-notes\): .*the document's x-ptc-read-only: true alone does not make it a read/);
});

Deno.test("writes: declared effects, annotations per method, and read only on a POST", () => {
  const { operations } = compile(Object.keys(notesOverrides()), notesOverrides());
  const by = Object.fromEntries(operations.map((o) => [o.id, o]));
  assert.deepEqual(by["create-note"].entry.annotations, {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.equal(by["create-note"].entry.effect, "write");
  assert.equal(by["create-note"].method, "POST");
  assert.deepEqual(by["delete-note"].entry.annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.equal(by["patch-note"].entry.annotations.idempotentHint, false);
  assert.equal(by["query-notes"].entry.effect, "read");
  assert.deepEqual(by["query-notes"].entry.annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    openWorldHint: true,
  });
  assert.deepEqual(by["delete-note"].entry.outputSchema, { type: "null" });
  assert.equal(by["delete-note"].body, undefined);
  // provenance says which arguments travel outside the URL (introspection's curl template reads it)
  const sent = (id: string) => {
    const { body, headerArgs } = by[id].entry._ptc as Record<string, unknown>;
    return { body, headerArgs };
  };
  assert.deepEqual(sent("create-note"), {
    body: { mediaType: "application/json", args: ["title", "body_text", "tag-list", "meta"] },
    headerArgs: ["idempotency-key"],
  });
  assert.deepEqual(sent("delete-note"), { body: undefined, headerArgs: undefined });
});

Deno.test("writes: effect read on PUT/PATCH/DELETE is an error naming the key path; HEAD is unsupported", () => {
  for (const [id, method] of [["replace-note", "PUT"], ["patch-note", "PATCH"], ["delete-note", "DELETE"]]) {
    const line = only(problems(() => compile([id], { [id]: { effect: "read" } })));
    assert.equal(
      line,
      `upstreams.obs.operation_overrides.${id}.effect: "read" is not allowed on a ${method} ` +
        `(${method} /notes/{note_id} (${id})); only a POST can be declared a safe query — declare it "write"`,
    );
  }
  const doc = notesDoc() as any;
  doc.paths["/notes"].head = { operationId: "head-notes", responses: { "200": { description: "ok" } } };
  assert.equal(
    only(problems(() => compile(["head-notes"], { "head-notes": { effect: "write" } }, doc))),
    "HEAD /notes (head-notes): HEAD operations are not supported (only GET, POST, PUT, PATCH, DELETE)",
  );
});

Deno.test("writes: on a GET the narrower effect wins — write over read, from the config or the document", () => {
  const doc = notesDoc() as any;
  assert.equal(only(compile(["list-notes"]).operations).entry.effect, "read");
  assert.equal(only(compile(["list-notes"], { "list-notes": { effect: "write" } }).operations).entry.effect, "write");
  assert.equal(
    only(compile(["list-notes"], { "list-notes": { read_only: false } }).operations).entry.effect,
    "write",
    "the older read_only: false still marks side effects",
  );
  doc.paths["/notes"].get["x-ptc-read-only"] = false;
  const r = compile(["list-notes"], { "list-notes": { effect: "read" } }, doc);
  assert.equal(only(r.operations).entry.effect, "write");
  assert.match(
    only(r.warnings),
    /list-notes\): upstreams\.obs\.operation_overrides\.list-notes\.effect is "read" but the document marks it x-ptc-read-only: false; the narrower effect \(write\) is in force/,
  );
  // the same narrowing on a POST declared a read
  doc.paths["/notes/query"].post["x-ptc-read-only"] = false;
  assert.equal(
    only(compile(["query-notes"], { "query-notes": { effect: "read" } }, doc).operations).entry.effect,
    "write",
  );
});

Deno.test("writes: the effect key in the config — values, and contradicting read_only in one override", () => {
  const parse = (override: unknown) =>
    parseOpenApiConfig({
      transport: "openapi",
      base_url: "https://api.example.com",
      schema_file: "x.json",
      include_operations: ["a"],
      operation_overrides: { a: override },
    }, configContext());
  assert.deepEqual(parse({ effect: "delete" }), [
    { path: "upstreams.obs.operation_overrides.a.effect", message: 'must be "read" or "write"' },
  ]);
  assert.deepEqual(parse({ effect: "read", read_only: false }), [{
    path: "upstreams.obs.operation_overrides.a.effect",
    message: '"read" contradicts read_only: false in the same override; keep one of them',
  }]);
  assert.ok(!Array.isArray(parse({ effect: "write", read_only: false })));
  // the published config schema declares the key with its values
  const published = new Validator(buildConfigSchema(listTransports()) as never, "2020-12", false);
  const withEffect = (effect: string) => ({
    upstreams: {
      obs: {
        transport: "openapi",
        base_url: "https://api.example.com",
        schema_file: "x.json",
        include_operations: ["a"],
        operation_overrides: { a: { effect } },
      },
    },
  });
  assert.equal(published.validate(withEffect("write")).valid, true);
  assert.equal(published.validate(withEffect("read")).valid, true);
  assert.equal(published.validate(withEffect("delete")).valid, false);
});

Deno.test("writes: JSON body properties become arguments named as the document names them", () => {
  const { operations } = compile(["create-note", "replace-note"], notesOverrides());
  const [create, replace] = operations;
  const schema = create.entry.inputSchema as any;
  assert.deepEqual(Object.keys(schema.properties), [
    "idempotency-key",
    "dry-run",
    "title",
    "body_text",
    "tag-list",
    "meta",
  ]);
  assert.deepEqual(schema.required, ["title"], "the readOnly id is response-only; a required body's required props");
  assert.deepEqual(schema.properties.title, { type: "string", minLength: 1, description: "The note's title" });
  assert.deepEqual(schema.properties.meta, { type: "object", properties: { pinned: { type: "boolean" } } });
  assert.deepEqual(create.body, { mediaType: "application/json", required: true });
  assert.deepEqual(create.params.map((p) => [p.name, p.in]), [
    ["idempotency-key", "header"],
    ["dry-run", "query"],
    ["title", "body"],
    ["body_text", "body"],
    ["tag-list", "body"],
    ["meta", "body"],
  ]);
  // allOf of objects merged, the If-Match header required
  const r = replace.entry.inputSchema as any;
  assert.deepEqual(r.required, ["note_id", "if-match", "title", "version"]);
  assert.ok(r.properties.version && r.properties["tag-list"]);
  // doc/meta show body arguments like any other
  assert.deepEqual(
    argsOf(create.entry).map((a) => `${a.keyword} ${a.type}${a.required ? "" : "?"}`),
    [
      ":title string",
      ":body-text string?",
      ":dry-run bool?",
      ":idempotency-key string?",
      ":meta {pinned bool?}?",
      ":tag-list [string]?",
    ],
  );
});

Deno.test("writes: an optional body's properties are optional; a +json media type is kept to send", () => {
  const { operations } = compile(["query-notes", "patch-note"], notesOverrides());
  assert.equal(operations[0].entry.inputSchema.required, undefined);
  assert.deepEqual(operations[0].body, { mediaType: "application/json", required: false });
  assert.deepEqual(operations[1].body, { mediaType: "application/merge-patch+json", required: false });
  assert.deepEqual(operations[1].entry.inputSchema.required, ["note_id"]);
});

Deno.test("writes: default_args may name body properties", () => {
  const { operations } = compile(["create-note"], {
    "create-note": { effect: "write", default_args: { title: "untitled", "tag-list": ["x"] } },
  });
  assert.deepEqual(operations[0].defaultArgs, { title: "untitled", "tag-list": ["x"] });
  assert.equal(operations[0].entry.inputSchema.required, undefined);
});

Deno.test("writes: a body property that clashes with a parameter is an error naming both", () => {
  const doc = notesDoc() as any;
  doc.paths["/notes"].post.parameters.push({ name: "title", in: "query", schema: { type: "string" } });
  doc.components.schemas.NewNote.properties["dry_run"] = { type: "boolean" };
  doc.components.schemas.NewNote.properties["Idempotency_Key"] = { type: "string" };
  const lines = problems(() => compile(["create-note"], notesOverrides(), doc));
  assert.deepEqual(lines, [
    'POST /notes (create-note): request body property "title" and query parameter "title" would be the same ' +
    "argument; ptc cannot tell them apart",
    'POST /notes (create-note): request body property "dry_run" and query parameter "dry-run" would be the same ' +
    "argument; ptc cannot tell them apart",
  ]);
});

Deno.test("writes: non-JSON and non-object bodies are refused naming the operation and what it declares", () => {
  const withBody = (requestBody: unknown) => {
    const doc = notesDoc() as any;
    doc.paths["/notes"].post.requestBody = requestBody;
    return only(problems(() => compile(["create-note"], notesOverrides(), doc)));
  };
  const schema = { type: "object", properties: { a: { type: "string" } } };
  for (const type of ["multipart/form-data", "application/octet-stream"]) {
    assert.equal(
      withBody({ content: { [type]: { schema } } }),
      `POST /notes (create-note): request body media type "${type}" is not supported; ptc sends JSON bodies ` +
        "(application/json or a +json type) and application/x-www-form-urlencoded",
    );
  }
  assert.equal(
    withBody({ content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } }),
    "POST /notes (create-note): the application/json request body is of type array, not an object; only object " +
      "bodies are supported (their properties become arguments)",
  );
  assert.match(withBody({ content: { "application/json": { schema: { type: "string" } } } }), /is of type string/);
  assert.match(
    withBody({ content: { "application/json": { schema: { oneOf: [schema, schema] } } } }),
    /request body uses oneOf \(alternatives cannot become arguments\)/,
  );
  assert.match(
    withBody({ content: { "application/json": { schema: { allOf: [schema, { type: "array" }] } } } }),
    /request body has an allOf member that is of type array, not an object/,
  );
  assert.match(
    withBody({ required: true, content: { "application/json": {} } }),
    /the required application\/json request body has no schema/,
  );
  // JSON wins when the document offers it beside a form body
  const doc = notesDoc() as any;
  doc.paths["/notes"].post.requestBody.content["application/x-www-form-urlencoded"] = { schema };
  assert.equal(compile(["create-note"], notesOverrides(), doc).operations[0].body?.mediaType, "application/json");
});

Deno.test("writes: a GET keeps its body rules (an optional property-less body is ignored with a warning)", () => {
  const doc = notesDoc() as any;
  doc.paths["/notes"].get.requestBody = { content: { "application/json": { schema: { type: "object" } } } };
  const r = compile(["list-notes"], {}, doc);
  assert.equal(r.operations.length, 1);
  assert.match(only(r.warnings), /declares an optional request body without properties; ignored/);
  doc.paths["/notes"].get.requestBody = { content: { "application/json": { schema: { properties: { q: {} } } } } };
  assert.match(only(problems(() => compile(["list-notes"], {}, doc))), /has a requestBody; GET operations/);
});

Deno.test("writes: header parameters of a write are arguments; credential and config headers are not", () => {
  const doc = notesDoc() as any;
  doc.paths["/notes"].post.parameters.push(
    { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
    { name: "X-Api-Key", in: "header", schema: { type: "string" } },
    { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } },
    { name: "X-Trace", in: "header", schema: { type: "array", items: { type: "string" } } },
  );
  const config = {
    ...parseConfig({
      base_url: "https://api.example.com",
      schema_file: "x.json",
      include_operations: ["create-note"],
      operation_overrides: { "create-note": { effect: "write" } },
    }),
    suppliedHeaders: new Set(["x-tenant"]),
  };
  const r = compileDocument(doc, "3.1", config);
  const names = r.operations[0].params.filter((p) => p.in === "header").map((p) => p.name);
  assert.deepEqual(names, ["idempotency-key"]);
  assert.ok(r.warnings.some((w) => /expects credential header "Authorization"/.test(w)), r.warnings.join("\n"));
  assert.ok(r.warnings.some((w) => /optional header parameter "X-Api-Key" .* not exposed/.test(w)));
  assert.ok(r.warnings.some((w) => /optional header parameter "X-Trace" is a list; header arguments must be/.test(w)));
});

Deno.test("writes: a hostile body schema is bounded by the resolver's limits", () => {
  const doc = exponentialRefsDoc() as any;
  doc.paths["/boom"].post = {
    operationId: "boom-write",
    requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/L0" } } } },
    responses: { "204": { description: "none" } },
  };
  const line = only(problems(() => compile(["boom-write"], { "boom-write": { effect: "write" } }, doc)));
  assert.match(line, /^POST \/boom \(boom-write\): .*schema_too_complex/);
  const deep: Record<string, unknown> = { type: "object", properties: {} };
  let node = deep;
  for (let i = 0; i < 200; i++) {
    const next = { type: "object", properties: {} };
    (node.properties as Record<string, unknown>)[`p${i}`] = next;
    node = next;
  }
  const nested = notesDoc() as any;
  nested.paths["/notes"].post.requestBody = { content: { "application/json": { schema: deep } } };
  assert.equal(compile(["create-note"], notesOverrides(), nested).operations.length, 1);
});

Deno.test("writes: header arguments carry the header bounds in the input schema (a tighter maxLength kept)", () => {
  const { operations } = compile(["create-note", "replace-note"], notesOverrides());
  const [create, replace] = operations;
  const key = (create.entry.inputSchema as any).properties["idempotency-key"];
  const match = (replace.entry.inputSchema as any).properties["if-match"];
  assert.deepEqual(key, { type: "string", maxLength: 64, pattern: HEADER_VALUE_PATTERN });
  assert.deepEqual(match, { type: "string", maxLength: MAX_HEADER_VALUE, pattern: HEADER_VALUE_PATTERN });
  assert.equal(linearPattern(HEADER_VALUE_PATTERN).ok, true, "the host matches the pattern itself, with RE2");
  const re = new RegExp(HEADER_VALUE_PATTERN, "u");
  assert.equal(re.test('"v1"\twith tab'), true);
  for (const bad of ["a\nb", "a\rb", "a\u0000b", "a\u007fb", "\u001b[31m"]) assert.equal(re.test(bad), false, bad);
  // a pattern of the document's own is kept beside ours
  const doc = notesDoc() as any;
  doc.paths["/notes"].post.parameters[0].schema = { type: "string", pattern: "^k-" };
  const own = (compile(["create-note"], notesOverrides(), doc).operations[0].entry.inputSchema as any)
    .properties["idempotency-key"];
  assert.deepEqual(own, {
    type: "string",
    pattern: "^k-",
    maxLength: MAX_HEADER_VALUE,
    allOf: [{ pattern: HEADER_VALUE_PATTERN }],
  });
});
