/**
 * An OpenAPI upstream whose document declares an `oauth2` client-credentials scheme, against a real authorization
 * server (oidc-provider) and a REST API that introspects each token and checks its audience (the base URL, sent as
 * the resource indicator): the token is fetched with the client id and secret from credentials, reused, replaced
 * after the server expires it (401 → new token → one retry), and a wrong secret is `auth_failed` before any request.
 */
import assert from "node:assert/strict";
import openapi from "../../../transports/openapi/mod.ts";
import { callCtx, configContext, makeDeps } from "./helpers.ts";
import { startBench } from "../http_common/oauth_setup.ts";

Deno.test("openapi oauth2: client credentials from a token_url, renewed after expiry, refused with a bad secret", async () => {
  const bench = await startBench();
  try {
    const schemaFile = `${bench.dir}/doc.json`;
    await Deno.writeTextFile(schemaFile, JSON.stringify(bench.rs.openapi()));
    const idFile = `${bench.dir}/client_id`;
    const secretFile = `${bench.dir}/client_secret`;
    await Deno.writeTextFile(idFile, bench.as.ciClient.client_id);
    await Deno.writeTextFile(secretFile, bench.as.ciClient.client_secret);
    const deps = makeDeps([
      { name: "cid", source: "file", path: idFile },
      { name: "csecret", source: "file", path: secretFile },
    ]);
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: bench.rs.apiUrl,
      schema_file: schemaFile,
      allow_insecure_http: true,
      allow_insecure_auth: true,
      auth: [{
        scheme: "oauth2",
        client_id_binding: "cid",
        client_secret_binding: "csecret",
        token_url: `${bench.as.issuer}/token`,
        scopes: ["mcp:tools"],
      }],
      include_operations: ["whoami"],
    }, configContext("api", ["cid", "csecret"]));
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    assert.equal(parsed.http.oauth?.grant, "client_credentials", "the openapi default grant");
    const upstream = await openapi.start(parsed, deps);
    try {
      const first = await upstream.call("whoami", {}, callCtx());
      assert.equal(first.ok, true, JSON.stringify(first));
      if (first.ok) assert.equal((first.value as { client_id: string }).client_id, bench.as.ciClient.client_id);
      const tokens = bench.as.hits("/token");
      assert.equal((await upstream.call("whoami", {}, callCtx())).ok, true);
      assert.equal(bench.as.hits("/token"), tokens, "the token is reused while valid");
      bench.as.expireAccessTokens();
      const renewed = await upstream.call("whoami", {}, callCtx());
      assert.equal(renewed.ok, true, JSON.stringify(renewed));
      assert.equal(bench.as.hits("/token"), tokens + 1, "a new token after the 401");
      const presented = bench.rs.presented();
      assert.notEqual(presented.at(-1), presented[0]);
      for (const line of deps.logs) {
        for (const t of [...presented, bench.as.ciClient.client_secret]) assert.ok(!line.includes(t), line);
      }

      // a wrong secret: the token endpoint refuses, the call is auth_failed and never sent
      await Deno.writeTextFile(secretFile, "not-the-secret");
      bench.as.expireAccessTokens();
      const sent = bench.rs.presented().length;
      const refused = await upstream.call("whoami", {}, callCtx());
      assert.equal(refused.ok, false);
      if (!refused.ok) {
        assert.equal(refused.reason, "auth_failed", refused.message);
        assert.match(refused.message, /invalid_client/);
        assert.ok(!refused.message.includes("not-the-secret"));
      }
      assert.equal(bench.rs.presented().length, sent + 1, "only the expired token reached the API");
    } finally {
      await upstream.stop();
    }
  } finally {
    await bench.close();
  }
});
