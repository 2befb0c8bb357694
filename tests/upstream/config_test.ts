import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfigFile, parseConfigText, type PtcConfig, resolveConfigPath } from "../../src/upstream/config.ts";
import type { ConfigError } from "../../src/upstream/types.ts";
import { fakeRegistry, fakeTransport } from "./fake_transport.ts";
import { TransportRegistry } from "../../src/upstream/registry.ts";
import { BUILTIN_TRANSPORTS } from "../../transports/mod.ts";

const registry = fakeRegistry();
/** The built-ins and the fake: what `ptc` itself registers, plus the test transport. */
const builtins = new TransportRegistry();
for (const t of [...BUILTIN_TRANSPORTS, fakeTransport]) builtins.register(t);
const TOOLS = [{ name: "echo" }];

function base(overrides: Record<string, unknown> = {}, upstream: Record<string, unknown> = {}) {
  return {
    credentials: { tok: { source: "env", var: "OBS_TOKEN" } },
    upstreams: {
      obs: { transport: "fake", base_url: "https://obs.example.com", tools: TOOLS, ...upstream },
    },
    ...overrides,
  };
}

function parse(doc: unknown, transports = registry): PtcConfig | ConfigError[] {
  return parseConfigText(typeof doc === "string" ? doc : JSON.stringify(doc), "/cfg", {
    registry: transports,
    label: "ptc.jsonc",
  });
}

/** Assert that exactly one rule fired (at least one error at `path` whose message matches). */
function rejects(doc: unknown, path: string, re: RegExp, transports = registry) {
  const r = parse(doc, transports);
  assert.ok(Array.isArray(r), `expected errors for ${JSON.stringify(doc)}`);
  const errs = r as ConfigError[];
  assert.ok(
    errs.some((e) => e.path === path && re.test(e.message)),
    `expected ${path} ~ ${re} in ${JSON.stringify(errs)}`,
  );
  for (const e of errs) assert.ok(!/\n| {4}at /.test(e.message), "no stack traces or multi-line messages");
}

function upstreamWith(upstream: Record<string, unknown>) {
  return base({}, upstream);
}

// ---- valid -----------------------------------------------------------------------------------------------------

Deno.test("config: a valid file gets defaults, warnings for literal and unused credentials", () => {
  const r = parse({
    $schema: "./ptc.schema.json",
    credentials: { tok: { source: "env", var: "OBS_TOKEN" }, lit: { source: "literal", value: "x" } },
    upstreams: {
      obs: {
        transport: "fake",
        description: "Observatory",
        base_url: "https://obs.example.com",
        auth: [{ scheme: "bearer", binding: "tok" }],
        tools: TOOLS,
      },
    },
  });
  assert.ok(!Array.isArray(r), JSON.stringify(r));
  const c = r as PtcConfig;
  assert.equal(c.upstreams[0].name, "obs");
  assert.equal(c.upstreams[0].description, "Observatory");
  assert.equal(c.limits.maxToolCalls, 50);
  assert.equal(c.limits.maxCatalogOps, 25);
  assert.equal(c.limits.callTimeoutMs, 5000);
  assert.equal(c.limits.maxResponseBytes, 2 * 1024 * 1024);
  assert.equal(c.limits.maxCatalogResultBytes, 262144);
  assert.deepEqual(c.catalog, { exposure: "auto", snapshot: "frozen", inlineMaxChars: 800, inlineMaxTools: 8 });
  assert.equal(c.readOnly, false);
  assert.ok(c.warnings.some((w) => /credentials\.lit: literal secret/.test(w)));
  assert.ok(c.warnings.some((w) => /credentials\.lit: declared but not used/.test(w)));
});

Deno.test("config: JSONC comments and trailing commas are accepted; limits and catalog read", () => {
  const r = parse(`// ptc
  { "upstreams": {}, /* none */ "read_only": true,
    "limits": {"max_tool_calls": 3, "call_timeout_ms": 100,},
    "catalog": {"exposure": "lazy", "snapshot": "live"}, }`);
  assert.ok(!Array.isArray(r), JSON.stringify(r));
  const c = r as PtcConfig;
  assert.equal(c.readOnly, true);
  assert.equal(c.limits.maxToolCalls, 3);
  assert.equal(c.catalog.exposure, "lazy");
  assert.equal(c.catalog.snapshot, "live");
});

// ---- syntax and top level ---------------------------------------------------------------------------------------

Deno.test("config rule: JSON syntax errors give line and column", () => {
  const r = parse('{\n  "upstreams": {\n    "a" 1\n  }\n}') as ConfigError[];
  assert.ok(Array.isArray(r));
  assert.match(r[0].path, /^ptc\.jsonc:3:\d+$/);
  assert.match(r[0].message, /invalid JSONC \(ColonExpected\)/);
});

Deno.test("config rule: an unclosed object is one problem, not one per enclosing value", () => {
  const r = parse('{ "upstreams": { ') as ConfigError[];
  assert.deepEqual(r.map((e) => `${e.path}: ${e.message}`), ["ptc.jsonc:1:18: invalid JSONC (CloseBraceExpected)"]);
});

Deno.test("config rule: the root must be an object", () => rejects("[1]", "ptc.jsonc", /must be a JSON object/));
Deno.test("config rule: upstreams is required", () => rejects({ credentials: {} }, "upstreams", /is required/));
Deno.test("config rule: upstreams must be an object", () => rejects({ upstreams: [] }, "upstreams", /an object/));
Deno.test("config rule: unknown top-level key with did-you-mean", () =>
  rejects({ upstreams: {}, limit: {} }, "limit", /unknown key \(did you mean "limits"\?\)/));
Deno.test("config rule: read_only must be boolean", () =>
  rejects({ upstreams: {}, read_only: "yes" }, "read_only", /true or false/));

// ---- limits and catalog -----------------------------------------------------------------------------------------

Deno.test("config rule: limits unknown key", () =>
  rejects({ upstreams: {}, limits: { max_calls: 3 } }, "limits.max_calls", /did you mean "max_tool_calls"/));
Deno.test("config rule: limits must be whole numbers", () =>
  rejects({ upstreams: {}, limits: { max_tool_calls: 1.5 } }, "limits.max_tool_calls", /whole number/));
Deno.test("config rule: limits cannot be negative", () =>
  rejects({ upstreams: {}, limits: { max_catalog_ops: -1 } }, "limits.max_catalog_ops", /at least 0/));
Deno.test("config rule: call timeout must be positive", () =>
  rejects({ upstreams: {}, limits: { call_timeout_ms: 0 } }, "limits.call_timeout_ms", /at least 1/));
Deno.test("config rule: max_response_bytes upper bound", () =>
  rejects({ upstreams: {}, limits: { max_response_bytes: 2 ** 40 } }, "limits.max_response_bytes", /at most/));
Deno.test("config rule: catalog.exposure enum with did-you-mean", () =>
  rejects({ upstreams: {}, catalog: { exposure: "inlne" } }, "catalog.exposure", /one of .*did you mean "inline"/));
Deno.test("config rule: catalog.snapshot enum", () =>
  rejects({ upstreams: {}, catalog: { snapshot: "thawed" } }, "catalog.snapshot", /"frozen", "live"/));
Deno.test("config rule: catalog unknown key", () =>
  rejects({ upstreams: {}, catalog: { mode: "lazy" } }, "catalog.mode", /unknown key/));

// ---- credentials ------------------------------------------------------------------------------------------------

Deno.test("config rule: credentials must be an object", () =>
  rejects({ upstreams: {}, credentials: [] }, "credentials", /an object/));
Deno.test("config rule: credential source enum", () =>
  rejects(
    { upstreams: {}, credentials: { a: { source: "vault" } } },
    "credentials.a.source",
    /"env", "file", "literal"/,
  ));
Deno.test("config rule: credential source required", () =>
  rejects({ upstreams: {}, credentials: { a: { var: "X" } } }, "credentials.a.source", /is required/));
Deno.test("config rule: env credential needs var", () =>
  rejects({ upstreams: {}, credentials: { a: { source: "env" } } }, "credentials.a.var", /environment variable/));
Deno.test("config rule: env var name must be a valid identifier", () =>
  rejects({ upstreams: {}, credentials: { a: { source: "env", var: "MY-TOKEN" } } }, "credentials.a.var", /MY_TOKEN/));
Deno.test("config rule: file credential needs a non-empty path", () =>
  rejects({ upstreams: {}, credentials: { a: { source: "file", path: "" } } }, "credentials.a.path", /not be empty/));
Deno.test("config rule: literal credential value must be a string", () =>
  rejects({ upstreams: {}, credentials: { a: { source: "literal", value: 42 } } }, "credentials.a.value", /a string/));
Deno.test("config rule: credential keys of another source are unknown", () =>
  rejects(
    { upstreams: {}, credentials: { a: { source: "env", var: "X", path: "/p" } } },
    "credentials.a.path",
    /unknown key for a env credential/,
  ));
Deno.test("config rule: credential typo key with did-you-mean", () =>
  rejects(
    { upstreams: {}, credentials: { a: { source: "env", vars: "X" } } },
    "credentials.a.vars",
    /did you mean "var"/,
  ));
Deno.test("config rule: credential names", () =>
  rejects(
    { upstreams: {}, credentials: { "9lives": { source: "env", var: "X" } } },
    "credentials.9lives",
    /start with a letter/,
  ));
Deno.test("config rule: scheme_hint enum", () =>
  rejects(
    { upstreams: {}, credentials: { a: { source: "env", var: "X", scheme_hint: "digest" } } },
    "credentials.a.scheme_hint",
    /"bearer", "basic", "raw"/,
  ));

// ---- upstream entries and transports ----------------------------------------------------------------------------

Deno.test("config rule: upstream names", () =>
  rejects({ upstreams: { "my obs": { transport: "fake" } } }, 'upstreams."my obs"', /start with a letter/));
Deno.test("config rule: an upstream must be an object", () =>
  rejects({ upstreams: { obs: "https://x" } }, "upstreams.obs", /an object/));
Deno.test("config rule: transport is required, with the registered choices", () => {
  rejects(
    { upstreams: { obs: { base_url: "https://x" } } },
    "upstreams.obs.transport",
    /is required: write "transport": "fake", "mcp_http" \(an MCP server over HTTP \(Streamable HTTP or legacy SSE\)\), "mcp_stdio" \(an MCP server run as a child process\) or "openapi" \(an HTTP API described by OpenAPI\)$/,
    builtins,
  );
  rejects({ upstreams: { obs: { base_url: "https://x" } } }, "upstreams.obs.transport", /write "transport": "fake"/);
});
Deno.test("config rule: old transport stdio → mcp_stdio", () =>
  rejects(
    { upstreams: { obs: { transport: "stdio" } } },
    "upstreams.obs.transport",
    /old name; write "transport": "mcp_stdio"/,
    builtins,
  ));
Deno.test("config rule: old transport http → mcp_http", () =>
  rejects(
    { upstreams: { obs: { transport: "http" } } },
    "upstreams.obs.transport",
    /old name; write "transport": "mcp_http"/,
    builtins,
  ));
Deno.test("config rule: unknown transport with did-you-mean", () =>
  rejects(
    { upstreams: { obs: { transport: "fak" } } },
    "upstreams.obs.transport",
    /unsupported transport "fak" \(did you mean "fake"\?\)/,
  ));
Deno.test("config rule: a transport the registry lacks is unsupported, listing the registered ones", () =>
  rejects(
    { upstreams: { obs: { transport: "openapi" } } },
    "upstreams.obs.transport",
    /unsupported transport "openapi"; known: fake$/,
  ));
Deno.test("config rule: transport must be a string", () =>
  rejects({ upstreams: { obs: { transport: 3 } } }, "upstreams.obs.transport", /must be a string/));
Deno.test("config rule: unknown upstream key with did-you-mean", () =>
  rejects(upstreamWith({ base_ur: "https://x" }), "upstreams.obs.base_ur", /did you mean "base_url"/));
Deno.test("config rule: transport-required keys are required", () =>
  rejects({ upstreams: { obs: { transport: "fake", tools: TOOLS } } }, "upstreams.obs.base_url", /is required/));
Deno.test("config rule: description must be a string", () =>
  rejects(upstreamWith({ description: 5 }), "upstreams.obs.description", /a string/));
Deno.test("config rule: transport semantic errors come through with their paths", () =>
  rejects(upstreamWith({ tools: [{ name: "a" }, { name: "a" }] }), "upstreams.obs.tools[1].name", /duplicate tool/));
Deno.test("config rule: nested transport keys are checked (tools[0] unknown key)", () =>
  rejects(upstreamWith({ tools: [{ name: "a", nam: "b" }] }), "upstreams.obs.tools[0].nam", /unknown key/));

// ---- URLs ------------------------------------------------------------------------------------------------------

Deno.test("config rule: http:// needs allow_insecure_http", () =>
  rejects(upstreamWith({ base_url: "http://obs.example.com" }), "upstreams.obs.base_url", /allow_insecure_http/));
Deno.test("config rule: unsupported URL scheme", () =>
  rejects(upstreamWith({ base_url: "file:///etc/passwd" }), "upstreams.obs.base_url", /unsupported URL scheme "file"/));
Deno.test("config rule: malformed URL", () =>
  rejects(upstreamWith({ base_url: "obs.example.com" }), "upstreams.obs.base_url", /malformed URL/));
Deno.test("config rule: no user:pass@ in URLs", () =>
  rejects(
    upstreamWith({ base_url: "https://u:p@obs.example.com" }),
    "upstreams.obs.base_url",
    /must not embed credentials/,
  ));
Deno.test("config rule: base_url has no query", () =>
  rejects(upstreamWith({ base_url: "https://obs.example.com/?k=1" }), "upstreams.obs.base_url", /\?query/));
Deno.test("config rule: http with auth needs allow_insecure_auth", () =>
  rejects(
    upstreamWith({
      base_url: "http://obs.example.com",
      allow_insecure_http: true,
      auth: [{ scheme: "bearer", binding: "tok" }],
    }),
    "upstreams.obs.base_url",
    /allow_insecure_auth is not true/,
  ));
Deno.test("config rule: allow_insecure_auth alone is refused", () =>
  rejects(
    upstreamWith({ allow_insecure_auth: true }),
    "upstreams.obs.allow_insecure_auth",
    /requires allow_insecure_http/,
  ));
Deno.test("config rule: insecure flags must be booleans", () =>
  rejects(upstreamWith({ allow_insecure_http: "yes" }), "upstreams.obs.allow_insecure_http", /true or false/));

// ---- auth -------------------------------------------------------------------------------------------------------

Deno.test("config rule: auth must be a list", () =>
  rejects(upstreamWith({ auth: { scheme: "bearer" } }), "upstreams.obs.auth", /a list/));
Deno.test("config rule: auth scheme enum", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "digest", binding: "tok" }] }),
    "upstreams.obs.auth[0].scheme",
    /"bearer", "basic", "custom_header"/,
  ));
Deno.test("config rule: api_key scheme → custom_header migration", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "api_key", binding: "tok" }] }),
    "upstreams.obs.auth[0].scheme",
    /write "custom_header"/,
  ));
Deno.test("config rule: auth binding required", () =>
  rejects(upstreamWith({ auth: [{ scheme: "bearer" }] }), "upstreams.obs.auth[0].binding", /is required/));
Deno.test("config rule: auth binding must name a declared credential", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "bearer", binding: "tk" }] }),
    "upstreams.obs.auth[0].binding",
    /unknown credential "tk" \(did you mean "tok"\?\)/,
  ));
Deno.test("config rule: custom_header needs header", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "custom_header", binding: "tok" }] }),
    "upstreams.obs.auth[0].header",
    /header name/,
  ));
Deno.test("config rule: custom_header cannot set a protocol header", () => {
  for (const header of ["Authorization", "Cookie", "Host", "Mcp-Session-Id", "X-Forwarded-For", "Accept"]) {
    rejects(
      upstreamWith({ auth: [{ scheme: "custom_header", binding: "tok", header }] }),
      "upstreams.obs.auth[0].header",
      /reserved/,
    );
  }
});
Deno.test("config rule: header only with custom_header", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "basic", binding: "tok", header: "X-A" }] }),
    "upstreams.obs.auth[0].header",
    /only used with scheme "custom_header"/,
  ));
Deno.test("config rule: two emitters of one header", () =>
  rejects(
    upstreamWith({ auth: [{ scheme: "bearer", binding: "tok" }, { scheme: "basic", binding: "tok" }] }),
    "upstreams.obs.auth[1]",
    /already emitted/,
  ));
Deno.test("config rule: scheme_hint must match the emitter", () =>
  rejects(
    {
      credentials: { tok: { source: "env", var: "T", scheme_hint: "basic" } },
      upstreams: {
        obs: { transport: "fake", base_url: "https://h", tools: TOOLS, auth: [{ scheme: "bearer", binding: "tok" }] },
      },
    },
    "upstreams.obs.auth[0].binding",
    /scheme_hint "basic"/,
  ));

// ---- static headers ---------------------------------------------------------------------------------------------

Deno.test("config rule: static_headers must be an object", () =>
  rejects(upstreamWith({ static_headers: ["X-A: 1"] }), "upstreams.obs.static_headers", /an object/));
Deno.test("config rule: static header values are strings", () =>
  rejects(upstreamWith({ static_headers: { "X-A": 1 } }), "upstreams.obs.static_headers.X-A", /a string/));
Deno.test("config rule: static header names are tokens", () =>
  rejects(upstreamWith({ static_headers: { "X A": "1" } }), 'upstreams.obs.static_headers."X A"', /valid header name/));
Deno.test("config rule: protocol headers are reserved (Authorization)", () =>
  rejects(
    upstreamWith({ static_headers: { Authorization: "Bearer x" } }),
    "upstreams.obs.static_headers.Authorization",
    /reserved/,
  ));
Deno.test("config rule: protocol headers are reserved (Host, Mcp-*)", () => {
  rejects(upstreamWith({ static_headers: { Host: "evil" } }), "upstreams.obs.static_headers.Host", /reserved/);
  rejects(
    upstreamWith({ static_headers: { "Mcp-Protocol-Version": "1" } }),
    "upstreams.obs.static_headers.Mcp-Protocol-Version",
    /reserved/,
  );
});
Deno.test("config rule: secret-looking static headers must come from a credential", () =>
  rejects(
    upstreamWith({ static_headers: { "X-Client-Secret": "s" } }),
    "upstreams.obs.static_headers.X-Client-Secret",
    /secret-bearing.*custom_header/,
  ));
Deno.test("config rule: static header duplicates (case-insensitive)", () =>
  rejects(
    upstreamWith({ static_headers: { "X-A": "1", "x-a": "2" } }),
    "upstreams.obs.static_headers.x-a",
    /duplicate/,
  ));
Deno.test("config rule: a header in both auth and static_headers", () =>
  rejects(
    upstreamWith({
      auth: [{ scheme: "custom_header", binding: "tok", header: "X-Tenant" }],
      static_headers: { "X-Tenant": "a" },
    }),
    "upstreams.obs.static_headers.X-Tenant",
    /both auth and static_headers/,
  ));

// ---- many problems at once, files, env -------------------------------------------------------------------------

Deno.test("config: every problem is reported, one line each", () => {
  const r = parse({
    upstreams: {
      a: { transport: "stdio" },
      b: { transport: "fake", base_url: "http://x", tools: TOOLS },
      c: { transport: "fake", base_url: "https://x", tools: TOOLS, static_headers: { Cookie: "1" } },
    },
    limits: { max_tool_calls: -1 },
  }) as ConfigError[];
  assert.ok(Array.isArray(r));
  assert.deepEqual(r.map((e) => e.path).sort(), [
    "limits.max_tool_calls",
    "upstreams.a.transport",
    "upstreams.b.base_url",
    "upstreams.c.static_headers.Cookie",
  ]);
});

Deno.test("loadConfigFile: a missing file is one clear error; relative secret paths resolve against the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = await loadConfigFile(join(dir, "nope.jsonc"), { registry });
    assert.ok(Array.isArray(missing));
    assert.match((missing as ConfigError[])[0].message, /upstreams config: file not found/);
    const file = join(dir, "ptc.jsonc");
    await Deno.writeTextFile(
      file,
      JSON.stringify({ credentials: { f: { source: "file", path: "secrets/t" } }, upstreams: {} }),
    );
    const c = await loadConfigFile(file, { registry }) as PtcConfig;
    assert.equal(c.file, file);
    const spec = c.credentials.get("f");
    assert.ok(spec && spec.source === "file" && spec.path === join(dir, "secrets/t"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveConfigPath: flag wins over PTC_UPSTREAMS; neither → undefined", () => {
  const old = Deno.env.get("PTC_UPSTREAMS");
  try {
    Deno.env.set("PTC_UPSTREAMS", "/tmp/from-env.jsonc");
    assert.equal(resolveConfigPath("/tmp/flag.jsonc"), "/tmp/flag.jsonc");
    assert.equal(resolveConfigPath(undefined), "/tmp/from-env.jsonc");
    Deno.env.delete("PTC_UPSTREAMS");
    assert.equal(resolveConfigPath(undefined), undefined);
  } finally {
    if (old === undefined) Deno.env.delete("PTC_UPSTREAMS");
    else Deno.env.set("PTC_UPSTREAMS", old);
  }
});

Deno.test("config rule: an unknown key with no close match lists the valid keys at that path", () => {
  const r = parse({ upstreams: {}, credentials: { c: { source: "env", name: "X" } } });
  assert.ok(Array.isArray(r));
  const e = (r as ConfigError[]).find((x) => x.path === "credentials.c.name");
  assert.ok(e, JSON.stringify(r));
  assert.match(e.message, /unknown key.*\(valid keys: [^)]*\bvar\b/);
  rejects({ upstreams: {}, catalog: { zzzzzz: 1 } }, "catalog.zzzzzz", /unknown key \(valid keys: \w/);
});

Deno.test("config rule: duplicate keys anywhere are errors naming the key path and both lines", () => {
  const text = `{
  "credentials": { "tok": { "source": "env", "var": "A" } },
  "upstreams": {
    "obs": { "transport": "fake", "base_url": "https://a.example", "tools": [{ "name": "echo" }] },
    // a second definition used to replace the first silently
    "obs": { "transport": "fake", "base_url": "https://b.example", "tools": [{ "name": "echo", "name": "x" }] },
  },
  "limits": { "call_timeout_ms": 1000, "call_timeout_ms": 2000 },
}`;
  const r = parse(text);
  assert.ok(Array.isArray(r));
  assert.deepEqual(r.map((e) => `${e.path}: ${e.message}`), [
    "upstreams.obs: duplicate key (lines 4 and 6); JSON keeps only the last one, so remove or rename one",
    "upstreams.obs.tools[0].name: duplicate key (twice on line 6); JSON keeps only the last one, so remove or rename one",
    "limits.call_timeout_ms: duplicate key (twice on line 8); JSON keeps only the last one, so remove or rename one",
  ]);
  const same = parse(`{"credentials": {}, "upstreams": {"a": {"transport": "fake", "base_url": "https://a.example",
    "tools": [{"name": "x"}], "static_headers": {"X-A": "1", "X-A": "2"}}}}`);
  assert.ok(Array.isArray(same));
  assert.equal(same[0].path, "upstreams.a.static_headers.X-A");
});

Deno.test("config: an ordinary API-key header is a valid custom_header", () => {
  for (const header of ["X-Api-Key", "Api-Key", "X-Auth-Token", "Ocp-Apim-Subscription-Key"]) {
    const r = parse(upstreamWith({ auth: [{ scheme: "custom_header", binding: "tok", header }] }));
    assert.ok(!Array.isArray(r), `${header}: ${JSON.stringify(r)}`);
  }
});
