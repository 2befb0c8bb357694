/**
 * OAuth 2.1 for mcp_http against a real authorization server (oidc-provider) and a protected MCP server that
 * introspects every token and checks its audience: login (discovery from the 401, OIDC metadata, dynamic client
 * registration, PKCE, resource indicator), then calls with the stored token, refresh after the server expired the
 * token, a failed refresh answered auth_failed with the login hint, a revoked access token, and client credentials
 * by discovery and by token_url.
 */
import assert from "node:assert/strict";
import { registerBuiltins } from "../../../transports/mod.ts";
import { callCtx, makeCtx, makeDeps, parseOk } from "../mcp_common/helpers.ts";
import { loginWithBrowser, type OAuthBench, startBench } from "../http_common/oauth_setup.ts";
import type { McpHttpConfig } from "../../../transports/mcp_http/mod.ts";
import type { JsonObject } from "../../../src/core/json.ts";
import { UpstreamStartError } from "../../../src/upstream/types.ts";

const transport = registerBuiltins().get("mcp_http")!;

function config(bench: OAuthBench, auth: JsonObject, url = bench.rs.mcpUrl): McpHttpConfig {
  return parseOk(transport, {
    transport: "mcp_http",
    url,
    allow_insecure_http: true,
    allow_insecure_auth: true,
    auth: [auth],
    tools: { echo: { effect: "read" } },
  }, makeCtx({ credentials: ["cid", "csecret"] })) as McpHttpConfig;
}

async function withBench(fn: (bench: OAuthBench) => Promise<void>) {
  const bench = await startBench();
  try {
    await fn(bench);
  } finally {
    await bench.close();
  }
}

Deno.test("mcp_http oauth2: login, call, refresh after expiry, failed refresh, revoked token", async () => {
  await withBench(async (bench) => {
    const c = config(bench, { scheme: "oauth2", token_file: bench.tokenFile });
    const deps = makeDeps();
    const result = await loginWithBrowser(bench, {
      config: c.oauth!,
      credentials: deps.credentials,
      redactor: deps.redactor,
    });
    assert.equal(result.issuer, bench.as.issuer);
    assert.equal(result.registered, true, "no client id configured: the client registers dynamically");
    assert.equal(result.refreshable, true);
    assert.equal((await Deno.stat(bench.tokenFile)).mode! & 0o777, 0o600);
    const first = bench.record();
    assert.ok(first.tokens?.access_token && first.tokens.refresh_token);
    assert.equal(first.discovery?.resourceMetadata?.resource, bench.rs.mcpUrl, "the resource indicator");

    const upstream = await transport.start(c, deps);
    try {
      const ok = await upstream.call("echo", { text: "hi" }, callCtx());
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.ok(bench.rs.presented().includes(first.tokens!.access_token), "the stored token was presented");

      // the authorization server expires the token: the 401 makes ptc refresh and retry
      const tokenCalls = bench.as.hits("/token");
      bench.as.expireAccessTokens();
      const again = await upstream.call("echo", { text: "after expiry" }, callCtx());
      assert.equal(again.ok, true, JSON.stringify(again));
      assert.equal(bench.as.hits("/token"), tokenCalls + 1, "one refresh");
      const second = bench.record();
      assert.notEqual(second.tokens!.access_token, first.tokens!.access_token);
      assert.notEqual(second.tokens!.refresh_token, first.tokens!.refresh_token, "the refresh token rotated");

      // the token is revoked (which ends its grant, refresh token included): auth_failed until a new login
      await revoke(bench, second.tokens!.access_token, second);
      const afterRevoke = await upstream.call("echo", { text: "after revoke" }, callCtx());
      assert.equal(afterRevoke.ok, false);
      if (!afterRevoke.ok) {
        assert.equal(afterRevoke.reason, "auth_failed", afterRevoke.message);
        assert.match(afterRevoke.message, /invalid_grant.*ptc auth login fx/);
      }
      await loginWithBrowser(bench, { config: c.oauth!, credentials: deps.credentials, redactor: deps.redactor });
      const relogged = await upstream.call("echo", { text: "after a new login" }, callCtx());
      assert.equal(relogged.ok, true, JSON.stringify(relogged));

      // refresh fails (the server forgot the refresh token): auth_failed, saying how to log in again
      bench.as.dropRefreshTokens();
      bench.as.expireAccessTokens();
      const failed = await upstream.call("echo", { text: "no" }, callCtx());
      assert.equal(failed.ok, false);
      if (!failed.ok) {
        assert.equal(failed.reason, "auth_failed", failed.message);
        assert.match(failed.message, /ptc auth login fx/);
      }
      // no token in any log line or message
      const third = bench.record();
      const secrets = [first, second, third].flatMap((r) => [r.tokens!.access_token, r.tokens!.refresh_token!]);
      for (const line of [...deps.logs, failed.ok ? "" : failed.message]) {
        for (const s of secrets) assert.ok(!line.includes(s), `a token leaked into: ${line.slice(0, 80)}`);
      }
    } finally {
      await upstream.stop();
    }
  });
});

Deno.test("mcp_http oauth2 over legacy HTTP+SSE: login, the fallback from Streamable HTTP, refresh after a 401", async () => {
  await withBench(async (bench) => {
    const c = config(bench, { scheme: "oauth2", token_file: bench.tokenFile }, bench.rs.sseUrl);
    const deps = makeDeps();
    // the unauthenticated POST to /sse answers 405: the login asks the stream's GET, whose 401 starts the discovery
    await loginWithBrowser(bench, {
      config: c.oauth!,
      credentials: deps.credentials,
      redactor: deps.redactor,
      serverUrl: bench.rs.sseUrl,
    });
    const first = bench.record();
    assert.equal(first.discovery?.resourceMetadata?.resource, bench.rs.sseUrl);
    const upstream = await transport.start(c, deps);
    try {
      // the POST answered 405 again: the spec's fallback to the event stream's GET, with the token
      assert.equal(upstream.diagnostics().wire, "sse");
      assert.ok(bench.rs.statuses().includes(405), "Streamable HTTP was tried first");
      const ok = await upstream.call("echo", { text: "over sse" }, callCtx());
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.ok(bench.rs.presented().includes(first.tokens!.access_token));
      // the token expires: the message POST's 401 makes ptc refresh and send it again
      const tokenCalls = bench.as.hits("/token");
      bench.as.expireAccessTokens();
      const again = await upstream.call("echo", { text: "after expiry" }, callCtx());
      assert.equal(again.ok, true, JSON.stringify(again));
      assert.equal(bench.as.hits("/token"), tokenCalls + 1, "one refresh");
      assert.notEqual(bench.record().tokens!.access_token, first.tokens!.access_token);
    } finally {
      await upstream.stop();
    }
    // the stream's GET answers 401 and the refresh is refused: the start says to log in, not "check the credential"
    bench.as.dropRefreshTokens();
    bench.as.expireAccessTokens();
    const pinned = config(bench, { scheme: "oauth2", token_file: bench.tokenFile }, bench.rs.sseUrl);
    const refused = await transport.start({ ...pinned, wire: "sse" }, makeDeps()).catch((e) => e);
    assert.ok(refused instanceof UpstreamStartError, String(refused));
    assert.equal(refused.code, "login_required", refused.message);
    assert.match(`${refused.message} ${refused.hint}`, /ptc auth login fx/);
  });
});

Deno.test("mcp_http oauth2: an expired token is refreshed before the request (no 401 first)", async () => {
  await withBench(async (bench) => {
    const c = config(bench, { scheme: "oauth2", token_file: bench.tokenFile });
    const deps = makeDeps();
    await loginWithBrowser(bench, { config: c.oauth!, credentials: deps.credentials, redactor: deps.redactor });
    const upstream = await transport.start(c, deps);
    try {
      const record = bench.record();
      // the file says the token expired an hour ago
      record.obtained_at = Date.now() - 2 * 3600_000;
      await Deno.writeTextFile(bench.tokenFile, JSON.stringify(record), { mode: 0o600 });
      const before401 = bench.rs.statuses().filter((s) => s === 401).length;
      const ok = await upstream.call("echo", { text: "hi" }, callCtx());
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.equal(bench.rs.statuses().filter((s) => s === 401).length, before401, "refreshed before sending");
      assert.notEqual(bench.record().tokens!.access_token, record.tokens!.access_token);
    } finally {
      await upstream.stop();
    }
  });
});

Deno.test("mcp_http oauth2: without a login the upstream answers auth_failed with the login hint", async () => {
  await withBench(async (bench) => {
    const c = config(bench, { scheme: "oauth2", token_file: bench.tokenFile });
    const deps = makeDeps({ name: "notion" });
    const upstream = await transport.start(c, deps).catch((e) => e as Error);
    if (upstream instanceof Error) {
      assert.match(upstream.message, /ptc auth login notion/);
      return;
    }
    try {
      const r = await upstream.call("echo", {}, callCtx());
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.reason, "auth_failed", r.message);
        assert.match(r.message, /not logged in.*ptc auth login notion/);
      }
    } finally {
      await upstream.stop();
    }
  });
});

Deno.test("mcp_http oauth2: client credentials, by discovery and by token_url", async () => {
  await withBench(async (bench) => {
    for (const extra of [{}, { token_url: `${bench.as.issuer}/token` }] as JsonObject[]) {
      const c = config(bench, {
        scheme: "oauth2",
        grant: "client_credentials",
        client_id_binding: "cid",
        client_secret_binding: "csecret",
        scopes: ["mcp:tools"],
        ...extra,
      });
      const deps = makeDeps({
        credentials: { cid: bench.as.ciClient.client_id, csecret: bench.as.ciClient.client_secret },
      });
      const upstream = await transport.start(c, deps);
      try {
        const ok = await upstream.call("echo", { text: "machine" }, callCtx());
        assert.equal(ok.ok, true, JSON.stringify(ok));
        bench.as.expireAccessTokens();
        const again = await upstream.call("echo", { text: "machine again" }, callCtx());
        assert.equal(again.ok, true, JSON.stringify(again));
        for (const line of deps.logs) assert.ok(!line.includes(bench.as.ciClient.client_secret));
      } finally {
        await upstream.stop();
      }
    }
  });
});

/** RFC 7009 revocation with the registered client's credentials from the token file. */
async function revoke(bench: OAuthBench, token: string, record: ReturnType<OAuthBench["record"]>) {
  const client = record.client as { client_id: string; client_secret?: string };
  const res = await fetch(`${bench.as.issuer}/token/revocation`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret ?? ""}`)}`,
    },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 200);
}

Deno.test("mcp_http oauth2: client credentials refuse an authorization server other than the configured one", async () => {
  await withBench(async (bench) => {
    const c = config(bench, {
      scheme: "oauth2",
      grant: "client_credentials",
      client_id_binding: "cid",
      client_secret_binding: "csecret",
      authorization_server: "http://127.0.0.1:9",
    });
    const deps = makeDeps({
      name: "notes",
      credentials: { cid: bench.as.ciClient.client_id, csecret: bench.as.ciClient.client_secret },
    });
    const tokenCalls = bench.as.hits("/token");
    const started = await transport.start(c, deps).catch((e: Error) => e);
    const message = started instanceof Error
      ? started.message
      : await started.call("echo", {}, callCtx()).then((r) => (r.ok ? "" : r.message)).finally(() => started.stop());
    assert.match(message, new RegExp(`names authorization server ${bench.as.issuer}/?, not the configured`));
    assert.equal(bench.as.hits("/token"), tokenCalls, "the secret never went to the token endpoint");
  });
});
