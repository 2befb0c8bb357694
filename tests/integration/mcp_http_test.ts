import assert from "node:assert/strict";
import http from "../../transports/mcp_http/mod.ts";
import { clearVerdictCache } from "../../transports/mcp_common/session.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { installTools } from "../../src/upstream/install.ts";
import { startMcpHttpFixture } from "../../fixtures/mcp/http.ts";
import { callCtx, makeCtx, makeDeps, startUpstream } from "../transports/mcp_common/helpers.ts";

const ERAS = ["both", "modern", "legacy"] as const;
const MODES = ["auto", "2026-07-28", "legacy"] as const;

function cfg(url: string, more: Record<string, unknown> = {}) {
  return { transport: "mcp_http", url, allow_insecure_loopback: true, ...more };
}

for (const era of ERAS) {
  for (const protocol of MODES) {
    const expectFail = (era === "legacy" && protocol === "2026-07-28") || (era === "modern" && protocol === "legacy");
    Deno.test(`mcp_http: ${era} server × protocol ${protocol}`, async () => {
      clearVerdictCache();
      const fx = await startMcpHttpFixture({ era });
      try {
        if (expectFail) {
          const err = await startUpstream(http, cfg(fx.url, { protocol })).then(async (u) => {
            await u.stop();
          }, (e) => e);
          assert.ok(err instanceof UpstreamStartError, `expected a start error, got ${err}`);
          if (protocol === "legacy") assert.equal(err.code, "protocol_legacy_rejected");
          else assert.ok(["protocol_method_not_found", "protocol_probe_rejected"].includes(err.code), err.code);
          assert.ok(!err.message.includes(String(fx.port)), "no endpoint in the diagnostic");
          return;
        }
        const u = await startUpstream(http, cfg(fx.url, { protocol }));
        try {
          const modern = protocol !== "legacy" && era !== "legacy";
          assert.equal(u.diagnostics().era, modern ? "modern" : "legacy");
          const r = await u.call("echo", { x: "y" }, callCtx());
          assert.deepEqual(r.ok && r.value, { x: "y" });
          const user = await u.call("get-user", { user_id: "u2" }, callCtx());
          assert.deepEqual(user.ok && user.value, { id: "u2", name: "Grace Hopper", email: "grace@example.org" });
        } finally {
          await u.stop();
        }
      } finally {
        await fx.close();
      }
    });
  }
}

Deno.test("mcp_http: modern-only pin distinguishes 'version not advertised' from 'method not found'", async () => {
  // A server that implements server/discover but advertises another revision.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const msg = await req.json();
    if (msg.method === "server/discover") {
      return Response.json({
        jsonrpc: "2.0",
        id: msg.id,
        result: { supportedVersions: ["2099-01-01"], capabilities: {}, resultType: "complete", ttlMs: 0 },
      });
    }
    return Response.json({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no" } }, { status: 404 });
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/mcp`;
    const err = await startUpstream(http, cfg(url, { protocol: "2026-07-28" })).catch((e) => e);
    assert.ok(err instanceof UpstreamStartError);
    assert.equal(err.code, "protocol_version_not_advertised");
    assert.match(err.message, /upstream fx: requires protocol 2026-07-28/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("mcp_http: paging, normalization, caps, timeout, read-only", async () => {
  const fx = await startMcpHttpFixture({ pageSize: 5, extraTools: 20 });
  try {
    const u = await startUpstream(http, cfg(fx.url, { max_response_bytes: 300_000 }));
    try {
      assert.equal(u.listTools().length, 16 + 20 - 1);
      const fail = await u.call("fail", {}, callCtx());
      assert.equal(!fail.ok && fail.reason, "tool_error");
      const text = await u.call("plain-text", {}, callCtx());
      assert.equal(text.ok && text.valueKind, "text");
      const capped = await u.call("big", { bytes: 60_000 }, callCtx({ maxResponseBytes: 50_000 }));
      assert.equal(!capped.ok && capped.reason, "response_too_large");
      assert.match(!capped.ok ? capped.message : "", /response exceeded 50000 bytes/, "cut while streaming");
      const hard = await u.call("big", { bytes: 1_000_000 }, callCtx());
      assert.equal(!hard.ok && hard.reason, "response_too_large");
      const slow = await u.call("sleep", { ms: 2000 }, callCtx({ timeoutMs: 100 }));
      assert.equal(!slow.ok && slow.reason, "timeout");
      const after = await u.call("echo", { ok: 1 }, callCtx());
      assert.deepEqual(after.ok && after.value, { ok: 1 });
    } finally {
      await u.stop();
    }
    for (const limit of [{ max_list_pages: 3 }, { max_tools: 10 }]) {
      const capped = await startUpstream(http, cfg(fx.url, limit)).catch((e) => e);
      assert.ok(capped instanceof UpstreamStartError, JSON.stringify(limit));
      assert.equal(capped.code, "tool_list_too_long");
      assert.match(capped.hint ?? "", /max_list_pages|max_tools/);
    }
    const listed = await startUpstream(http, cfg(fx.url));
    try {
      assert.ok(listed.listTools().some((t) => t.name === "delete-item"), "the transport lists every tool");
      const names = installTools(listed.listTools(), { readOnly: true }).installed.map((t) => t.name);
      assert.ok(!names.includes("delete-item") && names.includes("echo"), "read-only mode withholds delete-item");
    } finally {
      await listed.stop();
    }
  } finally {
    await fx.close();
  }
});

Deno.test("mcp_http: auth emitters and static headers are sent, secrets never in diagnostics", async () => {
  const fx = await startMcpHttpFixture({});
  try {
    const deps = makeDeps({ credentials: { tok: "tok-value-123" } });
    const raw = {
      transport: "mcp_http",
      url: fx.url,
      allow_insecure_http: true,
      allow_insecure_auth: true,
      auth: [{ scheme: "bearer", binding: "tok" }],
      static_headers: { "X-Tenant": "acme" },
    };
    const u = await startUpstream(http, raw, deps, makeCtx({ credentials: ["tok"] }));
    try {
      await u.call("echo", {}, callCtx());
      assert.equal(fx.lastHeaders()["authorization"], "Bearer tok-value-123");
      assert.equal(fx.lastHeaders()["x-tenant"], "acme");
      assert.ok(!JSON.stringify(u.diagnostics()).includes("tok-value-123"));
    } finally {
      await u.stop();
    }
  } finally {
    await fx.close();
  }
});

Deno.test("mcp_http: closed connection diagnostics never show the endpoint", async () => {
  // connection refused: a port that was just closed
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const refused = await startUpstream(http, cfg(`http://127.0.0.1:${port}/mcp`)).catch((e) => e);
  assert.ok(refused instanceof UpstreamStartError);
  assert.equal(refused.code, "connection_refused");
  assert.ok(!refused.message.includes(String(port)));
  // name unresolved
  const dns = await startUpstream(http, { transport: "mcp_http", url: "https://no-such-host.invalid/mcp" }).catch((
    e,
  ) => e);
  assert.ok(dns instanceof UpstreamStartError);
  assert.equal(dns.code, "name_unresolved");
  assert.ok(!dns.message.includes("no-such-host"));
  // TLS failure: an https URL pointed at a plain-HTTP port
  const plain = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response("{}"));
  try {
    const r = await startUpstream(http, {
      transport: "mcp_http",
      url: `https://127.0.0.1:${plain.addr.port}/mcp`,
      start_timeout_ms: 3000,
    }).catch((e) => e);
    assert.ok(r instanceof UpstreamStartError);
    assert.equal(r.code, "tls_failed");
    assert.match(r.message, /plain-HTTP port/);
  } finally {
    await plain.shutdown();
  }
  // TLS failure: a server with a self-signed certificate (generated with openssl)
  const dir = await Deno.makeTempDir();
  const gen = await new Deno.Command("openssl", {
    args: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
      .concat(["-keyout", `${dir}/k.pem`, "-out", `${dir}/c.pem`]),
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  if (gen?.success) {
    const tlsServer = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      cert: await Deno.readTextFile(`${dir}/c.pem`),
      key: await Deno.readTextFile(`${dir}/k.pem`),
      onListen: () => {},
    }, () => new Response("{}"));
    try {
      const tls = await startUpstream(http, {
        transport: "mcp_http",
        url: `https://127.0.0.1:${tlsServer.addr.port}/mcp`,
        start_timeout_ms: 3000,
      }).catch((e) => e);
      assert.ok(tls instanceof UpstreamStartError);
      assert.equal(tls.code, "tls_failed");
      assert.ok(!tls.message.includes(String(tlsServer.addr.port)));
      assert.ok(!/certificate authority|issuer|CN=/i.test(tls.message), "no certificate details");
    } finally {
      await tlsServer.shutdown();
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("mcp_http: config checks (https by default, loopback opt-in, key paths, permissions)", () => {
  const plain = http.parseConfig({ transport: "mcp_http", url: "http://example.com/mcp" }, makeCtx());
  assert.ok(Array.isArray(plain));
  assert.equal(plain[0].path, "upstreams.fx.url");
  const notLiteral = http.parseConfig(
    { transport: "mcp_http", url: "http://localhost:8080/mcp", allow_insecure_loopback: true },
    makeCtx(),
  );
  assert.ok(Array.isArray(notLiteral), "localhost is not a literal loopback address");
  const v6 = http.parseConfig(
    { transport: "mcp_http", url: "http://[::1]:8080/mcp", allow_insecure_loopback: true },
    makeCtx(),
  );
  assert.ok(!Array.isArray(v6));
  const bad = http.parseConfig({ transport: "mcp_http", url: "https://x.example/mcp", protocol: "2025" }, makeCtx());
  assert.ok(Array.isArray(bad));
  assert.equal(bad[0].path, "upstreams.fx.protocol");
  const ok = http.parseConfig({ transport: "mcp_http", url: "https://mcp.example.com/v1/mcp" }, makeCtx());
  assert.ok(!Array.isArray(ok));
  assert.deepEqual(http.permissions(ok), { net: ["mcp.example.com:443"], read: [], env: [], run: [] });
});
