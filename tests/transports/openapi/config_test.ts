import assert from "node:assert/strict";
import openapi from "../../../transports/openapi/mod.ts";
import { parseOpenApiConfig } from "../../../transports/openapi/config.ts";
import { configContext } from "./helpers.ts";

const base = {
  transport: "openapi",
  base_url: "https://api.example.com/v1",
  schema_file: "doc.yaml",
  include_operations: ["a"],
};

function errors(raw: Record<string, unknown>, creds: string[] = []): string[] {
  const r = parseOpenApiConfig(raw, configContext("obs", creds));
  assert.ok(Array.isArray(r), "expected errors");
  return r.map((e) => `${e.path}: ${e.message}`);
}

Deno.test("config: a valid entry is normalized", () => {
  const r = parseOpenApiConfig({ ...base, base_url: "https://api.example.com/v1/" }, configContext());
  assert.ok(!Array.isArray(r));
  assert.equal(r.baseUrl, "https://api.example.com/v1");
  assert.equal(r.schemaFile, "/tmp/doc.yaml");
  assert.equal(r.requestTimeoutMs, 30_000);
  assert.equal(r.maxResponseBytes, 2 * 1024 * 1024);
  // a YAML document: the yaml package reads its two debug variables while parsing
  assert.deepEqual(openapi.permissions(r), {
    net: ["api.example.com:443"],
    read: ["/tmp/doc.yaml"],
    env: ["LOG_STREAM", "LOG_TOKENS"],
    run: [],
  });
  const u = parseOpenApiConfig(
    { ...base, schema_file: undefined, schema_url: "https://specs.example.org:8443/x.json" },
    configContext(),
  );
  assert.ok(!Array.isArray(u));
  assert.deepEqual(openapi.permissions(u).net, ["api.example.com:443", "specs.example.org:8443"]);
  // a URL's answer is parsed as YAML unless it says JSON: a URL not named .json needs the YAML parser's variables
  assert.deepEqual(openapi.permissions(u).env, []);
  const y = parseOpenApiConfig(
    { ...base, schema_file: undefined, schema_url: "https://specs.example.org/openapi" },
    configContext(),
  );
  assert.ok(!Array.isArray(y));
  assert.deepEqual(openapi.permissions(y).env, ["LOG_STREAM", "LOG_TOKENS"]);
});

Deno.test("config: every rule names its key path", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...base, include_operations: [] }, /^upstreams\.obs\.include_operations: is required/],
    [{ ...base, include_operations: undefined }, /^upstreams\.obs\.include_operations: is required/],
    [{ ...base, include_operations: ["a", 3] }, /^upstreams\.obs\.include_operations\[1\]: must be a non-empty/],
    [{ ...base, include_operations: ["a", "a"] }, /include_operations\[1\]: "a" is listed twice/],
    [
      { ...base, schema_url: "https://x.example/doc.json" },
      /^upstreams\.obs: set only one of schema_file and schema_url/,
    ],
    [{ ...base, schema_file: undefined }, /^upstreams\.obs: must set exactly one of schema_file/],
    [
      { ...base, schema_file: undefined, schema_url: "http://x.example/d" },
      /schema_url: uses http:\/\/ without allow_insecure_http/,
    ],
    [{ ...base, base_url: "ftp://x" }, /base_url: unsupported URL scheme "ftp"/],
    [{ ...base, base_url: "http://x.example" }, /base_url: uses http:\/\/ without allow_insecure_http/],
    [{ ...base, request_timeout_ms: 0 }, /request_timeout_ms: must be a positive integer/],
    [{ ...base, max_response_bytes: "big" }, /max_response_bytes: must be a positive integer/],
    [{ ...base, operation_overrides: [] }, /operation_overrides: must be an object/],
    [{ ...base, operation_overrides: { b: {} } }, /operation_overrides\.b: "b" is not in include_operations/],
    [
      { ...base, operation_overrides: { a: { nmae: "x" } } },
      /operation_overrides\.a\.nmae: unknown key \(did you mean "name"\?\)/,
    ],
    [
      { ...base, operation_overrides: { a: { default_args: 1 } } },
      /operation_overrides\.a\.default_args: must be an object/,
    ],
    [
      { ...base, operation_overrides: { a: { max_response_bytes: -1 } } },
      /a\.max_response_bytes: must be a positive integer/,
    ],
    [{ ...base, operation_overrides: { a: { name: "" } } }, /a\.name: must be a non-empty string/],
    [
      { ...base, include_operation: ["a"] },
      /upstreams\.obs\.include_operation: unknown key \(did you mean "include_operations"\?\)/,
    ],
    [
      { ...base, auth: [{ scheme: "bearer", binding: "nope" }] },
      /auth\[0\]\.binding: references unknown credential "nope"/,
    ],
    [
      { ...base, static_headers: { Authorization: "x" } },
      /static_headers\.Authorization: header "Authorization" is reserved/,
    ],
    [{ ...base, description: 5 }, /description: must be a string/],
  ];
  for (const [raw, re] of cases) {
    const e = errors(raw);
    assert.ok(e.some((line) => re.test(line)), `${re}: ${e.join(" | ")}`);
  }
});

Deno.test("config: the JSON Schema describes the entry", () => {
  const schema = openapi.configSchema as { properties: Record<string, unknown>; required: string[] };
  for (const k of ["base_url", "schema_file", "schema_url", "include_operations", "operation_overrides", "auth"]) {
    assert.ok(k in schema.properties, k);
  }
  assert.deepEqual(schema.required, ["transport", "base_url", "include_operations"]);
});

Deno.test("config: schema_max_bytes defaults fit real documents for files, stay bounded for URLs", () => {
  const file = parseOpenApiConfig(base, configContext());
  assert.ok(!Array.isArray(file));
  assert.equal(file.schemaMaxBytes, 64 * 1024 * 1024);
  const url = parseOpenApiConfig(
    { ...base, schema_file: undefined, schema_url: "https://x.example/o.json" },
    configContext(),
  );
  assert.ok(!Array.isArray(url));
  assert.equal(url.schemaMaxBytes, 16 * 1024 * 1024);
  const set = parseOpenApiConfig({ ...base, schema_max_bytes: 1000 }, configContext());
  assert.ok(!Array.isArray(set));
  assert.equal(set.schemaMaxBytes, 1000);
});

Deno.test("config: allow_insecure_loopback admits literal loopback base and schema URLs, never https or auth", () => {
  const ok = parseOpenApiConfig({
    ...base,
    base_url: "http://127.0.0.1:8080",
    schema_file: undefined,
    schema_url: "http://127.0.0.1:8080/openapi.json",
    allow_insecure_loopback: true,
  }, configContext());
  assert.ok(!Array.isArray(ok), JSON.stringify(ok));
  assert.equal(ok.http.insecure, true);
  assert.deepEqual(errors({ ...base, allow_insecure_loopback: true }), [
    "upstreams.obs.allow_insecure_loopback: only admits http:// loopback URLs and base_url is https://; remove it",
  ]);
  assert.match(
    errors({ ...base, base_url: "http://localhost:8080", allow_insecure_loopback: true }).join("\n"),
    /allow_insecure_loopback admits only http:\/\/127\.0\.0\.1/,
  );
  assert.match(
    errors({
      ...base,
      base_url: "http://127.0.0.1:8080",
      allow_insecure_loopback: true,
      auth: [{ scheme: "bearer", binding: "t" }],
    }, ["t"]).join("\n"),
    /allow_insecure_loopback: admits only unauthenticated loopback servers/,
  );
});
