/**
 * `login` against the real authorization server, for the keys that shape it: a pre-registered client
 * (`client_id_binding`: no registration), `scopes` (what the token is granted, else the server's challenge), and
 * `authorization_server` (a server the resource names that is not the configured one is refused before any browser).
 */
import assert from "node:assert/strict";
import { registerBuiltins } from "../../../transports/mod.ts";
import { makeCtx, makeDeps, parseOk } from "../mcp_common/helpers.ts";
import { loginWithBrowser, type OAuthBench, startBench } from "./oauth_setup.ts";
import type { McpHttpConfig } from "../../../transports/mcp_http/mod.ts";
import type { JsonObject } from "../../../src/core/json.ts";
import { OAuthFailure, OAuthSession } from "../../../transports/http_common/oauth/session.ts";
import { oauthFetch } from "../../../transports/http_common/oauth/fetch.ts";

const transport = registerBuiltins().get("mcp_http")!;

function oauthOf(bench: OAuthBench, auth: JsonObject) {
  const c = parseOk(transport, {
    transport: "mcp_http",
    url: bench.rs.mcpUrl,
    allow_insecure_http: true,
    allow_insecure_auth: true,
    auth: [{ scheme: "oauth2", token_file: bench.tokenFile, ...auth }],
  }, makeCtx({ credentials: ["cid"] })) as McpHttpConfig;
  return c.oauth!;
}

Deno.test("oauth login: a pre-registered client (client_id_binding) is used as is, no registration", async () => {
  const bench = await startBench();
  try {
    const clientId = await bench.as.registerNativeClient();
    const registrations = bench.as.hits("/reg");
    const deps = makeDeps({ credentials: { cid: clientId } });
    const config = oauthOf(bench, { client_id_binding: "cid" });
    const result = await loginWithBrowser(bench, { config, credentials: deps.credentials, redactor: deps.redactor });
    assert.equal(result.registered, false);
    assert.equal(bench.as.hits("/reg"), registrations, "no dynamic registration");
    assert.equal((bench.record().client as { client_id: string }).client_id, clientId);
  } finally {
    await bench.close();
  }
});

Deno.test("oauth login: scopes are asked for as configured, else as the server's challenge says", async () => {
  const bench = await startBench();
  try {
    const deps = makeDeps();
    const plain = await loginWithBrowser(bench, {
      config: oauthOf(bench, {}),
      credentials: deps.credentials,
      redactor: deps.redactor,
    });
    const asked = (r: typeof plain) => r.authorizationUrl.searchParams.get("scope")?.split(" ").sort();
    // offline_access: the SDK asks for a refresh token where the server offers one
    assert.deepEqual(asked(plain), ["mcp:tools", "offline_access"], "the challenge's scope");
    assert.equal(plain.scope, "mcp:tools");
    const wider = await loginWithBrowser(bench, {
      config: oauthOf(bench, { scopes: ["openid", "mcp:tools"] }),
      credentials: deps.credentials,
      redactor: deps.redactor,
    });
    assert.deepEqual(asked(wider), ["mcp:tools", "offline_access", "openid"]);
  } finally {
    await bench.close();
  }
});

Deno.test("oauth login: an authorization server other than the configured one is refused before the browser", async () => {
  const bench = await startBench();
  try {
    const deps = makeDeps();
    const other = "http://127.0.0.1:9/";
    await assert.rejects(
      loginWithBrowser(bench, {
        config: oauthOf(bench, { authorization_server: other }),
        credentials: deps.credentials,
        redactor: deps.redactor,
      }),
      (e: Error) =>
        e instanceof OAuthFailure &&
        e.message.includes(`names authorization server ${bench.as.issuer}, not the configured ${other}`),
    );
    await assert.rejects(Deno.stat(bench.tokenFile), "nothing was written");
  } finally {
    await bench.close();
  }
});

Deno.test("oauth refresh: two sessions on one token file (two faces) spend the rotating refresh token once", async () => {
  const bench = await startBench();
  try {
    const deps = makeDeps();
    const config = oauthOf(bench, {});
    await loginWithBrowser(bench, { config, credentials: deps.credentials, redactor: deps.redactor });
    const before = bench.record();
    const session = () =>
      new OAuthSession(config, bench.rs.mcpUrl, {
        upstreamName: "fx",
        credentials: deps.credentials,
        redactor: deps.redactor,
        fetchFn: oauthFetch(fetch, 10_000),
      });
    const [a, b] = [session(), session()];
    bench.as.expireAccessTokens();
    const tokenCalls = bench.as.hits("/token");
    // both were told 401 at once: without the file lock the second refresh would spend a rotated-away token
    await Promise.all([a.unauthorized(), b.unauthorized()]);
    assert.equal(bench.as.hits("/token"), tokenCalls + 1, "one refresh");
    const after = bench.record();
    assert.notEqual(after.tokens!.refresh_token, before.tokens!.refresh_token);
    assert.equal(await a.accessToken(), after.tokens!.access_token);
    assert.equal(await b.accessToken(), after.tokens!.access_token);
  } finally {
    await bench.close();
  }
});
