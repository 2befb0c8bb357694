import assert from "node:assert/strict";
import {
  derivedOperationId,
  kebabCase,
  MAX_TOOL_NAME,
  shortenName,
  toolName,
} from "../../../transports/openapi/names.ts";

Deno.test("kebabCase: operationId spellings", () => {
  const cases: [string, string][] = [
    ["list_traces", "list-traces"],
    ["getTraceSteps", "get-trace-steps"],
    ["MyWidgets", "my-widgets"],
    ["HTTPServerStatus", "http-server-status"],
    ["getV2Items", "get-v2-items"],
    ["repos/list-for-org", "repos-list-for-org"],
    ["traces.list", "traces-list"],
    ["  Get  Pet By Id ", "get-pet-by-id"],
    ["__weird__--name__", "weird-name"],
    ["already-kebab", "already-kebab"],
    ["***", ""],
    ["getÜber", "get-uber"],
    ["straßeListe", "strasse-liste"],
    ["naïveCafé", "naive-cafe"],
    ["Ørsted_data", "orsted-data"],
    ["获取用户", ""],
  ];
  for (const [input, want] of cases) assert.equal(kebabCase(input), want, input);
});

Deno.test("derivedOperationId: method and path", () => {
  assert.equal(derivedOperationId("GET", "/pets"), "list-pets");
  assert.equal(derivedOperationId("GET", "/current?city={city}&country={country}"), "list-current-city-country");
  assert.equal(derivedOperationId("GET", "/files/{id}#get_shared_link"), "get-files-id-get-shared-link");
  assert.equal(derivedOperationId("GET", "/pets/{petId}"), "get-pets-pet-id");
  assert.equal(derivedOperationId("GET", "/pets/{petId}/toys"), "list-pets-pet-id-toys");
  assert.equal(derivedOperationId("GET", "/"), "list-root");
  assert.equal(derivedOperationId("POST", "/pets"), "post-pets");
});

Deno.test("shortenName: deterministic, bounded, distinct", () => {
  const a = "a".repeat(40) + "-" + "very-long-operation-name-that-goes-on";
  const b = a + "-x";
  assert.ok(a.length > MAX_TOOL_NAME);
  const sa = shortenName(a);
  assert.equal(sa, shortenName(a));
  assert.ok(sa.length <= MAX_TOOL_NAME);
  assert.notEqual(sa, shortenName(b));
  assert.match(sa, /-[0-9a-f]{8}$/);
  assert.equal(shortenName("short"), "short");
  assert.equal(toolName("getTraceSteps"), "get-trace-steps");
});

Deno.test("kebabCase: letters of other scripts are never dropped silently: a stable hash keeps names distinct", () => {
  const a = kebabCase("获取User"), b = kebabCase("删除User");
  assert.match(a, /^user-[0-9a-f]{8}$/);
  assert.notEqual(a, b);
  assert.equal(a, kebabCase("获取User"), "stable");
  assert.match(kebabCase("getПользователь"), /^get-[0-9a-f]{8}$/);
});
