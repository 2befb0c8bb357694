// deno-lint-ignore-file no-explicit-any -- tests poke at nested JSON Schema objects
import assert from "node:assert/strict";
import { compileDocument } from "../../../transports/openapi/compiler.ts";
import { compileProblems, parseConfig, sampleDoc } from "./helpers.ts";

function compile(include: string[], extra: Record<string, unknown> = {}, doc = sampleDoc()) {
  const config = parseConfig(
    { base_url: "https://api.example.com", schema_file: "x.json", include_operations: include, ...extra },
  );
  return compileDocument(doc, "3.0", config);
}

const problems = compileProblems;

Deno.test("compiler: a GET becomes a tool entry with schemas, annotations and provenance", () => {
  const { operations, warnings } = compile(["list_traces"]);
  assert.equal(operations.length, 1);
  const { entry } = operations[0];
  assert.equal(entry.name, "list-traces");
  assert.equal(entry.description, "List traces\n\nLists the traces of an organization.");
  assert.equal(entry.annotations.readOnlyHint, true);
  assert.deepEqual(entry._ptc, {
    transport: "openapi",
    upstreamName: "list_traces",
    operationId: "list_traces",
    method: "GET",
    path: "/api/v1/traces",
    defaultArgs: {},
  });
  const props = entry.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(props), ["org_id", "environment", "limit", "tag", "page-size", "flag"]);
  assert.deepEqual(props.org_id, { type: "string", minLength: 1, pattern: "^[a-z]+$", description: "Organization id" });
  assert.deepEqual(props.limit, { type: "integer", minimum: 1, maximum: 100, default: 20 });
  assert.deepEqual(props.environment.enum, ["production", "staging"]);
  assert.deepEqual(entry.inputSchema.required, ["org_id"]);
  const out = entry.outputSchema as any;
  assert.deepEqual(out.properties.next_cursor, { type: ["string", "null"] });
  assert.deepEqual(out.properties.traces.items.properties.cost_usd, { type: ["number", "null"] });
  assert.equal(out.properties.traces.items.example, undefined);
  assert.match(warnings.join("\n"), /optional header parameter "X-Request-Id" .* not exposed/);
});

Deno.test("compiler: x-ptc-name, path-item params required, x-ptc extensions read and not leaked", () => {
  const { operations } = compile(["getTrace", "listTraceSteps"]);
  const [trace, steps] = operations;
  assert.equal(trace.entry.name, "fetch-trace");
  assert.deepEqual(trace.entry.inputSchema.required, ["trace_id", "org_id"]);
  assert.equal(steps.entry.name, "list-trace-steps");
  assert.deepEqual(steps.defaultArgs, { summary: true });
  assert.deepEqual(steps.entry.inputSchema.required, ["trace_id"]);
  assert.equal((steps.entry.inputSchema.properties as any).summary.default, true);
  assert.equal(steps.maxResponseBytes, 4096);
  assert.equal(steps.resultPath?.source, "steps");
  assert.match(
    (steps.entry.outputSchema as any).properties.steps.items.properties.children.items.description,
    /recursive: Node/,
  );
  assert.ok(!JSON.stringify(steps.entry.inputSchema).includes("x-ptc"));
});

Deno.test("compiler: operator overrides win; the narrower byte cap wins", () => {
  const { operations } = compile(["listTraceSteps"], {
    max_response_bytes: 1000,
    operation_overrides: {
      listTraceSteps: {
        name: "steps",
        description: "Steps!",
        default_args: { summary: false },
        max_response_bytes: 9999,
        notes: "n",
      },
    },
  });
  const op = operations[0];
  assert.equal(op.entry.name, "steps");
  assert.equal(op.entry.description, "Steps!");
  assert.deepEqual(op.defaultArgs, { summary: false });
  assert.equal(op.maxResponseBytes, 1000);
  assert.equal(op.entry._ptc.notes, "n");
});

Deno.test("compiler: 204 → null output; derived ids for operations without operationId", () => {
  const { operations } = compile(["ping", "list-pets", "get-pets-pet-id"]);
  assert.deepEqual(operations[0].entry.outputSchema, { type: "null" });
  assert.equal(operations[0].emptyResponse, true);
  assert.equal(operations[1].entry.name, "list-pets");
  assert.equal(operations[1].entry._ptc.operationId, undefined);
  assert.equal(operations[1].entry._ptc.upstreamName, "list-pets");
  assert.equal(operations[2].entry.name, "get-pets-pet-id");
  assert.deepEqual(operations[2].entry.inputSchema.required, ["petId"]);
  assert.equal(operations[2].entry.outputSchema, undefined);
});

Deno.test("compiler: deprecated operations compile when explicitly included but are not suggested", () => {
  assert.equal(compile(["old_thing"]).operations[0].entry.name, "old-thing");
  const p = problems(() => compile(["old_thin"]));
  assert.doesNotMatch(p[0], /old_thing/);
});

Deno.test("compiler: every refusal is one clear line naming the operation", () => {
  const cases: [string, RegExp][] = [
    [
      "create_trace",
      /POST \/api\/v1\/traces \(create_trace\): a POST may change the service, .*set upstreams\.obs\.operation_overrides\.create_trace\.effect to "write"/,
    ],
    ["get_with_body", /get_with_body\): has a requestBody/],
    ["get_tenant", /required header parameter "X-Tenant" is not supplied by the config; .*add it to static_headers/],
    ["get_elsewhere", /declares servers on another origin \(https:\/\/evil\.example\.net\)/],
    ["get_external", /external \$ref "other\.yaml#\/components\/parameters\/X" is not supported/],
    [
      "list_trace",
      /include_operations\[0\]: operation "list_trace" is not in the document \(did you mean "list_traces"\?\)/,
    ],
  ];
  for (const [id, re] of cases) {
    const p = problems(() => compile([id]));
    assert.equal(p.length, 1, `${id}: ${p.join(" | ")}`);
    assert.match(p[0], re);
    assert.doesNotMatch(p[0], /\n|at .*\.ts:\d+/);
  }
  assert.equal(compile(["get_same_origin"]).operations.length, 1);
  // a text/csv answer compiles: the program gets the text
  const report = compile(["get_report"]).operations[0];
  assert.deepEqual([report.textResponse, report.accept], [true, "text/csv"]);
  assert.deepEqual(report.entry.outputSchema, { type: "string", contentMediaType: "text/csv" });
});

Deno.test("compiler: required headers supplied by config, set by ptc, or naming credentials are accepted", () => {
  const doc = sampleDoc();
  const tenant = (doc.paths as any)["/tenant"].get;
  const config = parseConfig({
    base_url: "https://api.example.com",
    schema_file: "x.json",
    include_operations: ["get_tenant"],
  });
  const withHeaders = { ...config, suppliedHeaders: new Set(["x-tenant"]) };
  assert.equal(compileDocument(doc, "3.0", withHeaders).operations.length, 1);
  tenant.parameters = [
    { name: "Accept", in: "header", required: true, schema: { type: "string" } },
    { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
    { name: "X-Api-Key", in: "header", required: true, schema: { type: "string" } },
  ];
  const r = compileDocument(doc, "3.0", config);
  assert.equal(r.operations.length, 1);
  assert.deepEqual(r.operations[0].entry.inputSchema.properties, {});
  assert.equal(r.warnings.filter((w) => /expects credential header/.test(w)).length, 2);
  tenant.parameters = [{ name: "session", in: "cookie", required: true, schema: { type: "string" } }];
  assert.match(
    problems(() => compileDocument(doc, "3.0", config))[0],
    /required cookie parameter "session" is a cookie parameter; cookies are config-owned: an API key in a cookie is an auth emitter/,
  );
  // a cookie (or query parameter) the config's auth sends is not an argument
  const supplied = { ...config, suppliedCookies: new Set(["session"]) };
  assert.deepEqual(compileDocument(doc, "3.0", supplied).operations[0].entry.inputSchema.properties, {});
  tenant.parameters = [{ name: "api_key", in: "query", required: true, schema: { type: "string" } }];
  const keyed = { ...config, suppliedQuery: new Set(["api_key"]) };
  assert.deepEqual(compileDocument(doc, "3.0", keyed).operations[0].entry.inputSchema.properties, {});
});

Deno.test("compiler: all problems are reported together", () => {
  const p = problems(() => compile(["create_trace", "get_with_body", "nope"]));
  assert.equal(p.length, 3);
});

Deno.test("compiler: name collisions name both operations unless an override separates them", () => {
  const doc = sampleDoc();
  const paths = doc.paths as any;
  paths["/api/v1/traces"].get["x-ptc-name"] = "ping";
  const p = problems(() => compile(["list_traces", "ping"], {}, doc));
  assert.match(
    p[0],
    /tool name "ping" is produced by both list_traces \(GET \/api\/v1\/traces\) and ping \(GET \/api\/v1\/ping\)/,
  );
  const ok = compile(["list_traces", "ping"], { operation_overrides: { ping: { name: "health" } } }, doc);
  assert.deepEqual(ok.operations.map((o) => o.entry.name), ["ping", "health"]);
});

Deno.test("compiler: default args must name parameters and match their schema", () => {
  const p = problems(() =>
    compile(["list_traces"], { operation_overrides: { list_traces: { default_args: { nope: 1, limit: 1000 } } } })
  );
  assert.equal(p.length, 2);
  assert.match(p[0], /operation_overrides\.list_traces\.default_args\.nope: not a parameter/);
  assert.match(p[1], /default_args\.limit: /);
  const ok = compile(["list_traces"], {
    operation_overrides: { list_traces: { default_args: { org_id: "acme", page_size: 5 } } },
  });
  assert.deepEqual(ok.operations[0].defaultArgs, { org_id: "acme", "page-size": 5 });
  assert.equal(ok.operations[0].entry.inputSchema.required, undefined);
});

Deno.test("compiler: long names shortened; descriptions capped; a side-effecting GET is annotated so", () => {
  const long = "a_very_long_operation_identifier_that_keeps_going_and_going_and_going_forever";
  const { operations } = compile(["ping"], {
    operation_overrides: { ping: { name: long, description: "d".repeat(5000) } },
  });
  assert.ok(operations[0].entry.name.length <= 64);
  assert.ok(operations[0].entry.description.length <= 800);
  const doc = sampleDoc();
  (doc.paths as any)["/api/v1/ping"].get["x-ptc-read-only"] = false;
  assert.equal(compile(["ping"], {}, doc).operations[0].entry.annotations.readOnlyHint, false);
  const overridden = compile(["ping"], { operation_overrides: { ping: { read_only: false } } });
  assert.deepEqual(overridden.operations[0].entry.annotations, { readOnlyHint: false, openWorldHint: true });
});

Deno.test("compiler: a non-Latin operationId keeps a readable, stable name from its method and path", () => {
  const doc = sampleDoc() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  doc.paths["/api/v1/ping"].get.operationId = "检查";
  const { operations, warnings } = compile(["检查"], {}, doc);
  assert.equal(operations[0].entry.name, "list-api-v1-ping");
  assert.ok(
    warnings.some((w) => /"检查" has no Latin letters; exposed as list-api-v1-ping/.test(w)),
    warnings.join("\n"),
  );
  const accented = sampleDoc() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  accented.paths["/api/v1/ping"].get.operationId = "getÜber";
  assert.equal(compile(["getÜber"], {}, accented).operations[0].entry.name, "get-uber");
});

Deno.test("compiler: an optional, property-less GET body (Stripe's form body) is ignored with a warning", () => {
  const body = (requestBody: unknown) => ({
    openapi: "3.0.0",
    info: { title: "t", version: "1" },
    paths: {
      "/v1/charges": {
        get: { operationId: "GetCharges", requestBody, responses: { "204": { description: "none" } } },
      },
    },
    components: { schemas: { Empty: { type: "object", properties: {}, additionalProperties: false } } },
  });
  const stripe = {
    content: {
      "application/x-www-form-urlencoded": {
        encoding: {},
        schema: { additionalProperties: false, properties: {}, type: "object" },
      },
    },
    required: false,
  };
  for (const rb of [stripe, { content: { "application/json": { schema: { $ref: "#/components/schemas/Empty" } } } }]) {
    const r = compile(["GetCharges"], {}, body(rb));
    assert.equal(r.operations.length, 1);
    assert.deepEqual(r.warnings, [
      "GET /v1/charges (GetCharges): declares an optional request body without properties; ignored (GETs send no body)",
    ]);
  }
  for (
    const rb of [
      { ...stripe, required: true },
      { content: { "application/json": { schema: { type: "object", properties: { q: { type: "string" } } } } } },
      { content: { "application/json": { schema: { type: "object", required: ["q"] } } } },
    ]
  ) {
    assert.match(problems(() => compile(["GetCharges"], {}, body(rb))).join("\n"), /has a requestBody/);
  }
});

Deno.test("compiler: an unknown include id with nothing near still lists the closest valid ids and how to see all", () => {
  const lines = problems(() => compile(["zzzzzzzzzzzzzzzz"])).join("\n");
  assert.match(
    lines,
    /operation "zzzzzzzzzzzzzzzz" is not in the document; closest: [\w-]+, [\w-]+, [\w-]+ \(the document has \d+ operations; `ptc catalog --operations DOC` lists them\)/,
  );
});

Deno.test("compiler: x-mcp-enabled: false skips an operation with a warning; x-mcp-tool-name names it below x-ptc-name", () => {
  const doc = sampleDoc();
  const paths = doc.paths as any;
  paths["/api/v1/ping"].get["x-mcp-enabled"] = false;
  paths["/api/v1/traces"].get["x-mcp-tool-name"] = "traces_list";
  paths["/api/v1/traces/{trace_id}"].get["x-mcp-tool-name"] = "ignored-below-x-ptc-name";
  const r = compile(["list_traces", "getTrace", "ping"], {}, doc);
  assert.deepEqual(r.operations.map((o) => o.entry.name), ["traces-list", "fetch-trace"]);
  assert.ok(
    r.warnings.includes(
      "GET /api/v1/ping (ping): disabled by x-mcp-enabled: false (in the document or an overlay); not exposed",
    ),
  );
  const over = compile(["list_traces"], { operation_overrides: { list_traces: { name: "mine" } } }, doc);
  assert.equal(over.operations[0].entry.name, "mine", "operator config wins over both extensions");
});

Deno.test("compiler: a safety extension that is not a boolean or a positive integer is refused, not ignored", () => {
  // `x-mcp-enabled: "false"` (quoted in YAML) was read as "not false": the operation the author disabled compiled;
  // `x-ptc-read-only: "false"` made a side-effecting GET a read; a cap of "5000" or 0 left the responses uncapped.
  const cases: [string, unknown, RegExp][] = [
    ["x-mcp-enabled", "false", /^GET \/api\/v1\/ping \(ping\): x-mcp-enabled must be true or false, got "false"/],
    ["x-ptc-read-only", "false", /^GET \/api\/v1\/ping \(ping\): x-ptc-read-only must be true or false, got "false"/],
    ["x-ptc-max-response-bytes", "5000", /\(ping\): x-ptc-max-response-bytes must be a positive integer, got "5000"/],
    ["x-ptc-max-response-bytes", 0, /\(ping\): x-ptc-max-response-bytes must be a positive integer, got 0/],
  ];
  for (const [key, value, re] of cases) {
    const doc = sampleDoc();
    (doc.paths as any)["/api/v1/ping"].get[key] = value;
    const p = problems(() => compile(["ping"], {}, doc));
    assert.equal(p.length, 1, p.join("\n"));
    assert.match(p[0], re);
  }
  // booleans and integers still work as before
  const doc = sampleDoc();
  (doc.paths as any)["/api/v1/ping"].get["x-mcp-enabled"] = true;
  (doc.paths as any)["/api/v1/ping"].get["x-ptc-max-response-bytes"] = 1234;
  assert.equal(compile(["ping"], {}, doc).operations[0].maxResponseBytes, 1234);
});

Deno.test("compiler: conflicts error | first_wins | skip, each naming both sides", () => {
  const doc = sampleDoc();
  const paths = doc.paths as any;
  paths["/api/v1/traces"].get["x-ptc-name"] = "ping";
  const both =
    /tool name "ping" is produced by both list_traces \(GET \/api\/v1\/traces\) and ping \(GET \/api\/v1\/ping\)/;
  assert.match(problems(() => compile(["list_traces", "ping"], { conflicts: "error" }, doc))[0], both);
  const first = compile(["list_traces", "ping", "getTrace"], { conflicts: "first_wins" }, doc);
  assert.deepEqual(first.operations.map((o) => o.id), ["list_traces", "getTrace"]);
  assert.ok(first.warnings.some((w) => both.test(w) && w.endsWith("kept list_traces (conflicts: first_wins)")));
  const skip = compile(["list_traces", "ping", "getTrace"], { conflicts: "skip" }, doc);
  assert.deepEqual(skip.operations.map((o) => o.id), ["getTrace"]);
  assert.ok(skip.warnings.some((w) => both.test(w) && w.endsWith("exposed neither (conflicts: skip)")));
});

Deno.test("compiler: max_description_chars sets the description length (default 800)", () => {
  const doc = sampleDoc();
  const paths = doc.paths as any;
  paths["/api/v1/traces"].get.description = "d".repeat(3000);
  assert.equal(compile(["list_traces"], {}, doc).operations[0].entry.description.length, 800);
  const long = compile(["list_traces"], { max_description_chars: 2500 }, doc).operations[0].entry.description;
  assert.equal(long.length, 2500);
  assert.ok(long.endsWith("…"));
  assert.throws(() => compile(["list_traces"], { max_description_chars: 10 }, doc), /max_description_chars: must be/);
  assert.throws(() => compile(["list_traces"], { conflicts: "merge" }, doc), /conflicts: must be "error"/);
});
