/**
 * The `oauth2` auth emitter's keys: what each parses to, the defaults per transport, and one error per rule naming
 * its key path; plus the permissions an emitter adds (token file read and written, the authorization server's
 * host from the config and from the token file) and the published schema.
 */
import assert from "node:assert/strict";
import { type HttpCommonConfig, parseHttpCommon } from "../../../transports/http_common/config.ts";
import { oauthPermissions } from "../../../transports/http_common/oauth/mod.ts";
import type { ConfigContext, ConfigError } from "../../../src/upstream/types.ts";
import { buildConfigSchema } from "../../../src/upstream/config_schema.ts";
import { listTransports } from "../../../transports/mod.ts";

const ctx: ConfigContext = {
  upstreamName: "notes",
  path: "upstreams.notes",
  configDir: "/etc/ptc",
  credentialNames: new Set(["cid", "csecret"]),
};

type Kind = "mcp_http" | "openapi";

function parse(auth: Record<string, unknown>, kind: Kind = "mcp_http", extra: Record<string, unknown> = {}) {
  const urlKey = kind === "mcp_http" ? "url" : "base_url";
  return parseHttpCommon({ [urlKey]: "https://notes.example.com/mcp", auth: [auth], ...extra }, ctx, {
    urlKey,
    loopbackFlag: true,
  });
}
function ok(auth: Record<string, unknown>, kind: Kind = "mcp_http", extra: Record<string, unknown> = {}) {
  const r = parse(auth, kind, extra);
  assert.ok(!Array.isArray(r), JSON.stringify(r));
  return r as HttpCommonConfig;
}
function errs(auth: Record<string, unknown>, kind: Kind = "mcp_http", extra: Record<string, unknown> = {}) {
  const r = parse(auth, kind, extra);
  assert.ok(Array.isArray(r), "expected errors");
  return (r as ConfigError[]).map((e) => `${e.path}: ${e.message}`);
}

Deno.test("oauth2 emitter: each key parses, defaults per transport, the token file resolves against the config", () => {
  const code = ok({ scheme: "oauth2", token_file: "tokens/notes.json", scopes: ["read", "write", "read"] });
  assert.deepEqual(code.oauth, {
    grant: "authorization_code",
    tokenFile: "/etc/ptc/tokens/notes.json",
    scopes: ["read", "write"],
  });
  assert.deepEqual(code.auth, [], "the oauth2 emitter is not a credential emitter");
  const cc = ok({
    scheme: "oauth2",
    client_id_binding: "cid",
    client_secret_binding: "csecret",
    token_url: "https://as.example.com/oauth/token",
    authorization_server: "https://as.example.com",
  }, "openapi");
  assert.deepEqual(cc.oauth, {
    grant: "client_credentials",
    clientIdBinding: "cid",
    clientSecretBinding: "csecret",
    scopes: [],
    tokenUrl: "https://as.example.com/oauth/token",
    authorizationServer: "https://as.example.com/",
  });
  assert.equal(
    ok({ scheme: "oauth2", grant: "client_credentials", client_id_binding: "cid", client_secret_binding: "csecret" })
      .oauth?.grant,
    "client_credentials",
    "mcp_http client credentials by discovery (no token_url)",
  );
});

Deno.test("oauth2 emitter: one error per rule, each naming its key path", () => {
  const p = "upstreams.notes.auth[0]";
  const cases: [Record<string, unknown>, Kind, RegExp][] = [
    [{ scheme: "oauth2" }, "mcp_http", /auth\[0\]\.token_file: is required for the authorization_code grant/],
    [{ scheme: "oauth2", token_file: "t", tokn_url: "x" }, "mcp_http", /tokn_url: unknown key.*token_url/],
    [{ scheme: "oauth2", token_file: "t", grant: "password" }, "mcp_http", /grant: must be "authorization_code" or/],
    [{ scheme: "oauth2", grant: "authorization_code", token_file: "t" }, "openapi", /grant: OpenAPI upstreams/],
    [{ scheme: "oauth2", token_file: "t", token_url: "https://a/t" }, "mcp_http", /token_url: is for client_cred/],
    [
      { scheme: "oauth2", grant: "client_credentials", client_id_binding: "cid" },
      "mcp_http",
      /client_secret_binding: is required for the client_credentials grant/,
    ],
    [
      { scheme: "oauth2", client_id_binding: "cid", client_secret_binding: "csecret" },
      "openapi",
      /token_url: is required: the token endpoint/,
    ],
    [
      {
        scheme: "oauth2",
        grant: "client_credentials",
        client_id_binding: "cid",
        client_secret_binding: "csecret",
        token_file: "t",
      },
      "mcp_http",
      /token_file: is for authorization_code/,
    ],
    [{ scheme: "oauth2", token_file: "t", client_id_binding: "cdi" }, "mcp_http", /unknown credential "cdi".*"cid"/],
    [{ scheme: "oauth2", token_file: "t", scopes: "read" }, "mcp_http", /scopes: must be a list/],
    [{ scheme: "oauth2", token_file: "t", scopes: ["a b"] }, "mcp_http", /scopes: must be a list/],
    [
      { scheme: "oauth2", token_file: "t", authorization_server: "http://as.example.com" },
      "mcp_http",
      /authorization_server: uses http:\/\/ without allow_insecure_http/,
    ],
    [{ scheme: "oauth2", token_file: "" }, "mcp_http", /token_file: must be a file path/],
    [
      { scheme: "kerberos", binding: "cid" },
      "mcp_http",
      /scheme: must be "bearer", "basic", "custom_header", "query" .*, "cookie" .* or "oauth2"/,
    ],
  ];
  for (const [auth, kind, re] of cases) {
    const found = errs(auth, kind);
    assert.ok(found.some((e) => e.startsWith(p) && re.test(e)), `${JSON.stringify(auth)} → ${found.join(" | ")}`);
  }
  // two emitters of Authorization
  const both = parseHttpCommon(
    {
      url: "https://n.example.com/mcp",
      auth: [{ scheme: "bearer", binding: "cid" }, { scheme: "oauth2", token_file: "t" }],
    },
    ctx,
    { urlKey: "url" },
  );
  assert.ok(Array.isArray(both) && both.some((e) => /already emitted by .*auth\[0\]/.test(e.message)));
});

Deno.test("oauth2 emitter: an http:// authorization server needs both insecure opt-ins, like the upstream", () => {
  const c = ok({ scheme: "oauth2", token_file: "t", authorization_server: "http://127.0.0.1:9000" }, "mcp_http", {
    url: "http://127.0.0.1:8000/mcp",
    allow_insecure_http: true,
    allow_insecure_auth: true,
  });
  assert.equal(c.oauth?.authorizationServer, "http://127.0.0.1:9000/");
  const loopbackOnly = parse({ scheme: "oauth2", token_file: "t" }, "mcp_http", {
    url: "http://127.0.0.1:8000/mcp",
    allow_insecure_loopback: true,
  });
  assert.ok(Array.isArray(loopbackOnly), "allow_insecure_loopback never sends credentials, OAuth ones included");
});

Deno.test("oauth2 permissions: the token file read and written (with its temporary file), the servers' hosts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tokenFile = `${dir}/t.json`;
    const own = { net: ["mcp.example.com:443"], read: [], env: [], run: [] };
    const before = oauthPermissions({
      grant: "authorization_code",
      tokenFile,
      scopes: [],
      authorizationServer: "https://login.example.com",
    }, own);
    assert.deepEqual(before.net.sort(), ["login.example.com:443", "mcp.example.com:443"]);
    assert.deepEqual(before.read, [tokenFile, `${tokenFile}.tmp`]);
    assert.deepEqual(before.write, [tokenFile, `${tokenFile}.tmp`]);
    // after a login the file names the issuer and the token endpoint: their hosts are granted too
    await Deno.writeTextFile(
      tokenFile,
      JSON.stringify({
        version: 1,
        server_url: "https://mcp.example.com/mcp",
        issuer: "https://id.example.org",
        discovery: { authorizationServerMetadata: { token_endpoint: "https://tokens.example.org:8443/token" } },
      }),
    );
    const after = oauthPermissions({ grant: "authorization_code", tokenFile, scopes: [] }, own);
    assert.deepEqual(after.net.sort(), ["id.example.org:443", "mcp.example.com:443", "tokens.example.org:8443"]);
    const cc = oauthPermissions({
      grant: "client_credentials",
      scopes: [],
      clientIdBinding: "a",
      clientSecretBinding: "b",
      tokenUrl: "https://as.example.net/token",
    }, own);
    assert.deepEqual(cc.net.sort(), ["as.example.net:443", "mcp.example.com:443"]);
    assert.deepEqual([cc.read, cc.write], [[], []]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the published schema knows the oauth2 emitter's keys", () => {
  const text = JSON.stringify(buildConfigSchema(listTransports()));
  for (const key of ["client_id_binding", "client_secret_binding", "token_file", "token_url", "authorization_server"]) {
    assert.ok(text.includes(`"${key}"`), key);
  }
  assert.ok(text.includes('"oauth2"'));
});
