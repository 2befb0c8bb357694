/**
 * Plant canary secrets in every credential source (env, file, literal, basic) and exercise every failure path the
 * runtime has; the canaries and their encodings must appear nowhere in any output.
 */
import assert from "node:assert/strict";
import { startSettled } from "./settled.ts";
import { join } from "node:path";
import { loadConfigFile, parseConfigText } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { catalogJson, catalogText, renderCatalog } from "../../src/upstream/catalog.ts";
import { base64Utf8 } from "../../src/upstream/redact.ts";
import { formatConfigError } from "../../src/upstream/messages.ts";
import { config, memoryIo, registry } from "./helpers.ts";

const ENV = "CANARY-env-9f8e7d6c";
const FILE = "CANARY-file-1a2b3c4d";
const LIT = "CANARY-lit-5e6f7a8b";
const USER = "canary-user";
const PASS = "CANARY-pass-0c1d2e3f";
const CANARIES = [ENV, FILE, LIT, PASS, `${USER}:${PASS}`];
const FORBIDDEN = [...CANARIES, ...CANARIES.map(base64Utf8), base64Utf8(`${USER}:${PASS}`), "CANARY"];

function assertClean(label: string, output: unknown) {
  const text = typeof output === "string" ? output : JSON.stringify(output);
  for (const f of FORBIDDEN) assert.ok(!text.includes(f), `${label} leaked ${f.slice(0, 12)}…: ${text.slice(0, 300)}`);
}

function doc(extra: Record<string, unknown> = {}) {
  const tools = [
    { name: "echo", description: `Echo (mentions ${ENV} by accident)` },
    { name: "headers", behavior: "headers" },
    { name: "fail", behavior: "error_headers" },
    { name: "boom", behavior: "throw" },
    { name: "slow", behavior: "slow" },
  ];
  return {
    credentials: {
      env_tok: { source: "env", var: "CANARY_TOKEN" },
      file_tok: { source: "file", path: "/secrets/tok" },
      lit_tok: { source: "literal", value: LIT },
      basic_tok: { source: "env", var: "CANARY_BASIC" },
    },
    upstreams: {
      a: {
        transport: "fake",
        description: `uses ${FILE}`,
        base_url: "https://a.example.com",
        tools,
        auth: [{ scheme: "bearer", binding: "env_tok" }],
      },
      b: {
        transport: "fake",
        base_url: "https://b.example.com",
        tools,
        auth: [{ scheme: "basic", binding: "basic_tok" }, {
          scheme: "custom_header",
          binding: "file_tok",
          header: "X-Obs-Key",
        }],
      },
      c: {
        transport: "fake",
        base_url: "https://c.example.com",
        tools,
        auth: [{ scheme: "custom_header", binding: "lit_tok", header: "X-Lit" }],
      },
    },
    limits: { call_timeout_ms: 30 },
    ...extra,
  };
}

const io = memoryIo({ CANARY_TOKEN: ENV, CANARY_BASIC: `${USER}:${PASS}` }, { "/secrets/tok": `${FILE}\n` });

Deno.test("canary: bad configs never echo secrets written in the wrong place", async () => {
  const bad = parseConfigText(
    JSON.stringify({
      credentials: {
        a: { source: "env", var: ENV },
        b: { source: ENV },
        c: { source: "literal", value: LIT, extra: LIT },
      },
      upstreams: {
        x: {
          transport: "fake",
          base_url: `https://h/${LIT}?q=${LIT}`,
          tools: [{ name: "t" }],
          static_headers: { "X-Token": LIT, "X-Ok": 5 },
        },
        y: { transport: "fake", base_url: "https://h", tools: [{ name: "t" }], auth: [{ scheme: LIT, binding: LIT }] },
      },
    }),
    "/",
    { registry },
  );
  assert.ok(Array.isArray(bad));
  assertClean("config errors", bad.map(formatConfigError));
  const dir = await Deno.makeTempDir();
  try {
    const f = join(dir, "c.jsonc");
    await Deno.writeTextFile(f, `{"upstreams": {}, "credentials": {"k": {"source": "literal", "value": "${LIT}"}},}}`);
    const r = await loadConfigFile(f, { registry });
    assertClean("syntax errors", r);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("canary: start failures, call failures, records, values, diagnostics, catalog and doc are scrubbed", async () => {
  // start failure echoing the auth headers: its cause, the log line and a call's message
  const failing = config(doc({
    upstreams: {
      z: {
        transport: "fake",
        base_url: "https://z.example.com",
        tools: [{ name: "t" }],
        fail_start: `refused ${ENV}`,
        auth: [{ scheme: "basic", binding: "basic_tok" }, {
          scheme: "custom_header",
          binding: "file_tok",
          header: "X-K",
        }],
      },
    },
  }));
  const failedLogs: string[] = [];
  const down = await startSettled(failing, { registry, credentialIo: io, log: (l) => failedLogs.push(l) });
  try {
    const call = await withRunContext(down, (ctx) => ctx.callTool({ name: "call", args: { server: "z", tool: "t" } }));
    assert.ok(call.value.kind === "tagged" && !call.value.ok && call.value.reason === "upstream_unavailable");
    assert.match(down.catalog()[0].cause!.message, /refused/);
    assertClean("start error", [down.catalog(), down.diagnostics(), failedLogs, call.value, call.calls]);
  } finally {
    await down.stop();
  }

  const logs: string[] = [];
  const rt = await startSettled(config(doc()), { registry, credentialIo: io, log: (l) => logs.push(l) });
  try {
    const report = await withRunContext(rt, async (ctx) => {
      const outs = [];
      for (const server of ["a", "b", "c"]) {
        outs.push(await ctx.callTool({ name: "call", args: { server, tool: "headers" } }));
        outs.push(await ctx.callTool({ name: "call", args: { server, tool: "fail" } }));
        outs.push(await ctx.callTool({ name: "call", args: { server, tool: "boom" } }));
        outs.push(await ctx.callTool({ name: "call", args: { server, tool: "slow" } }));
        outs.push(
          await ctx.callTool({ name: "call", args: { server, tool: "echo", args: { note: `x ${LIT} y ${PASS}` } } }),
        );
        outs.push(await ctx.callTool({ name: "call", args: { server, tool: `no-${ENV}` } }));
        outs.push(await ctx.callTool({ name: "call", args: { server: `s-${FILE}`, tool: "t" } }));
      }
      outs.push(await ctx.discovery("doc", { ref: "a/echo" }));
      outs.push(await ctx.discovery("meta", { ref: "a/echo" }));
      outs.push(await ctx.discovery("dir", { ref: "a" }));
      outs.push(await ctx.discovery("apropos", { query: "echo" }));
      outs.push(await ctx.discovery("servers", {}));
      outs.push(await ctx.discovery("doc", { ref: `a/${LIT}` }));
      return outs;
    });
    // the paths really ran: some failures and some successes
    assert.ok(report.value.some((o) => o.kind === "tagged" && !o.ok && o.reason === "auth_failed"));
    assert.ok(report.value.some((o) => o.kind === "raise"));
    assertClean("outcomes", report.value);
    assertClean("call records", report.calls);
    assertClean("catalog ops", report.catalogOps);
    assertClean("diagnostics", rt.diagnostics());
    assertClean("catalog text", [renderCatalog(rt, "inline"), renderCatalog(rt, "lazy"), catalogText(rt)]);
    assertClean("catalog json", catalogJson(rt));
    assertClean("logs", logs);
  } finally {
    await rt.stop();
  }
});
