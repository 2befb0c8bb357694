import assert from "node:assert/strict";
import { hostPortOf, type HttpCommonConfig, parseHttpCommon } from "../../../transports/http_common/config.ts";
import type { ConfigContext, ConfigError } from "../../../src/upstream/types.ts";

const ctx: ConfigContext = {
  upstreamName: "obs",
  path: "upstreams.obs",
  configDir: "/",
  credentialNames: new Set(["tok", "basic_cred", "raw_key"]),
  credentialHints: new Map([["basic_cred", "basic"], ["raw_key", "raw"]]),
};

function errs(raw: Record<string, unknown>, loopback = false): ConfigError[] {
  const r = parseHttpCommon(raw, ctx, { urlKey: loopback ? "url" : "base_url", loopbackFlag: loopback });
  assert.ok(Array.isArray(r), "expected errors");
  return r as ConfigError[];
}
function ok(raw: Record<string, unknown>, loopback = false): HttpCommonConfig {
  const r = parseHttpCommon(raw, ctx, { urlKey: loopback ? "url" : "base_url", loopbackFlag: loopback });
  assert.ok(!Array.isArray(r), JSON.stringify(r));
  return r as HttpCommonConfig;
}

Deno.test("http_common: https with bearer is accepted, headers lowercased, host:port filled", () => {
  const c = ok({
    base_url: "https://obs.example.com/api",
    auth: [{ scheme: "bearer", binding: "tok" }],
    static_headers: { "X-Tenant": "acme" },
  });
  assert.equal(c.hostPort, "obs.example.com:443");
  assert.deepEqual(c.staticHeaders, [["x-tenant", "acme"]]);
  assert.equal(hostPortOf(new URL("http://[::1]:8080/x")), "[::1]:8080");
});

Deno.test("http_common: one error per rule, each naming its key path", () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ base_url: "http://h" }, "upstreams.obs.base_url", /without allow_insecure_http/],
    [{ base_url: "ftp://h" }, "upstreams.obs.base_url", /unsupported URL scheme "ftp"/],
    [{ base_url: "not a url" }, "upstreams.obs.base_url", /malformed URL/],
    [{ base_url: "https://u:p@h" }, "upstreams.obs.base_url", /must not embed credentials/],
    [{ base_url: "https://h/?q=1" }, "upstreams.obs.base_url", /\?query/],
    [
      { base_url: "http://h", allow_insecure_http: true, auth: [{ scheme: "bearer", binding: "tok" }] },
      "upstreams.obs.base_url",
      /allow_insecure_auth is not true/,
    ],
    [{ base_url: "https://h", allow_insecure_auth: true }, "upstreams.obs.allow_insecure_auth", /requires/],
    [{ base_url: "https://h", auth: {} }, "upstreams.obs.auth", /must be a list/],
    [
      { base_url: "https://h", auth: [{ scheme: "api_key", binding: "tok" }] },
      "upstreams.obs.auth[0].scheme",
      /custom_header/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "bearer", binding: "tak" }] },
      "upstreams.obs.auth[0].binding",
      /did you mean "tok"/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "bearer", binding: "basic_cred" }] },
      "upstreams.obs.auth[0].binding",
      /scheme_hint "basic"/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "custom_header", binding: "raw_key" }] },
      "upstreams.obs.auth[0].header",
      /header name/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "custom_header", binding: "raw_key", header: "Cookie" }] },
      "upstreams.obs.auth[0].header",
      /reserved/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "bearer", binding: "tok", header: "X" }] },
      "upstreams.obs.auth[0].header",
      /only used with/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "bearer", binding: "tok", bind: 1 }] },
      "upstreams.obs.auth[0].bind",
      /unknown key/,
    ],
    [
      { base_url: "https://h", auth: [{ scheme: "bearer", binding: "tok" }, { scheme: "bearer", binding: "tok" }] },
      "upstreams.obs.auth[1]",
      /already emitted by upstreams.obs.auth\[0\]/,
    ],
    [{ base_url: "https://h", static_headers: [] }, "upstreams.obs.static_headers", /must be an object/],
    [
      { base_url: "https://h", static_headers: { "X Foo": "a" } },
      'upstreams.obs.static_headers."X Foo"',
      /not a valid header name/,
    ],
    [
      { base_url: "https://h", static_headers: { Authorization: "a" } },
      "upstreams.obs.static_headers.Authorization",
      /reserved/,
    ],
    [
      { base_url: "https://h", static_headers: { "Mcp-Session-Id": "a" } },
      "upstreams.obs.static_headers.Mcp-Session-Id",
      /reserved/,
    ],
    [
      { base_url: "https://h", static_headers: { "X-Api-Token": "a" } },
      "upstreams.obs.static_headers.X-Api-Token",
      /secret-bearing/,
    ],
    [{ base_url: "https://h", static_headers: { "X-A": 1 } }, "upstreams.obs.static_headers.X-A", /must be a string/],
    [
      { base_url: "https://h", static_headers: { "X-A": "a\r\nX: y" } },
      "upstreams.obs.static_headers.X-A",
      /line breaks/,
    ],
    [
      { base_url: "https://h", static_headers: { "X-A": "a", "x-a": "b" } },
      "upstreams.obs.static_headers.x-a",
      /duplicate/,
    ],
    [
      {
        base_url: "https://h",
        auth: [{ scheme: "custom_header", binding: "raw_key", header: "X-Tenant" }],
        static_headers: { "x-tenant": "a" },
      },
      "upstreams.obs.static_headers.X-Tenant",
      /both auth and static_headers/,
    ],
  ];
  for (const [raw, path, re] of cases) {
    const e = errs(raw);
    assert.ok(e.some((x) => x.path === path && re.test(x.message)), `${JSON.stringify(raw)} → ${JSON.stringify(e)}`);
  }
});

Deno.test("http_common: allow_insecure_loopback admits only literal loopback without auth", () => {
  const c = ok({ url: "http://127.0.0.1:9000/mcp", allow_insecure_loopback: true }, true);
  assert.equal(c.insecure, true);
  ok({ url: "http://[::1]:9000/mcp", allow_insecure_loopback: true }, true);
  assert.match(
    errs({ url: "http://localhost:9000/mcp", allow_insecure_loopback: true }, true)[0].message,
    /127\.0\.0\.1/,
  );
  const e = errs({
    url: "http://127.0.0.1:9000/",
    allow_insecure_loopback: true,
    auth: [{ scheme: "bearer", binding: "tok" }],
  }, true);
  assert.ok(e.some((x) => x.path === "upstreams.obs.allow_insecure_loopback"));
});

Deno.test("http_common: allow_insecure_loopback on an https URL is refused, for both URL keys", () => {
  for (const urlKey of ["url", "base_url"] as const) {
    const r = parseHttpCommon({ [urlKey]: "https://127.0.0.1:9000/", allow_insecure_loopback: true }, ctx, {
      urlKey,
      loopbackFlag: true,
    });
    assert.ok(Array.isArray(r), urlKey);
    assert.deepEqual(r.map((e) => `${e.path}: ${e.message}`), [
      `upstreams.obs.allow_insecure_loopback: only admits http:// loopback URLs and ${urlKey} is https://; remove it`,
    ]);
  }
});

Deno.test("http_common: query and cookie emitters name their parameter or cookie; every misuse names its key", () => {
  const c = ok({
    base_url: "https://obs.example.com",
    auth: [
      { scheme: "query", param: "api_key", binding: "raw_key" },
      { scheme: "cookie", cookie: "sid", binding: "tok" },
    ],
  });
  assert.deepEqual(c.auth, [
    { scheme: "query", binding: "raw_key", param: "api_key" },
    { scheme: "cookie", binding: "tok", cookie: "sid" },
  ]);
  const base = { base_url: "https://obs.example.com" };
  const cases: [unknown[], string, RegExp][] = [
    [[{ scheme: "query", binding: "tok" }], "upstreams.obs.auth[0].param", /query needs "param"/],
    [[{ scheme: "query", param: "a&b", binding: "tok" }], "upstreams.obs.auth[0].param", /query parameter name/],
    [[{ scheme: "cookie", cookie: "a;b", binding: "tok" }], "upstreams.obs.auth[0].cookie", /cookie name/],
    [
      [{ scheme: "bearer", param: "x", binding: "tok" }],
      "upstreams.obs.auth[0].param",
      /only used with scheme "query"/,
    ],
    [[{ scheme: "query", param: "k", cookie: "c", binding: "tok" }], "upstreams.obs.auth[0].cookie", /"cookie"/],
    [
      [{ scheme: "query", param: "k", binding: "tok" }, { scheme: "query", param: "k", binding: "raw_key" }],
      "upstreams.obs.auth[1]",
      /emits query parameter "k" already emitted by upstreams\.obs\.auth\[0\]/,
    ],
    [[{ scheme: "query", param: "k", binding: "basic_cred" }], "upstreams.obs.auth[0].binding", /scheme_hint "basic"/],
    [[{ scheme: "api_key", binding: "tok" }], "upstreams.obs.auth[0].scheme", /"query" with "param"/],
  ];
  for (const [auth, path, re] of cases) {
    const e = errs({ ...base, auth });
    assert.ok(e.some((x) => x.path === path && re.test(x.message)), `${path}: ${JSON.stringify(e)}`);
  }
  // an MCP endpoint takes no query credentials
  const mcp = errs(
    { url: "https://mcp.example.com/mcp", auth: [{ scheme: "query", param: "k", binding: "tok" }] },
    true,
  );
  assert.match(mcp[0].message, /"query" emitters are for openapi upstreams/);
});
