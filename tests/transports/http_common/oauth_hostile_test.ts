/**
 * Hostile input to ptc's OAuth client: a token endpoint that answers a huge body, never answers, answers garbage or
 * an error that quotes the client secret; a token file anyone may read, or that is not JSON; a redirect that comes
 * back with another `state`. Each ends in a bounded, clear failure that names no secret.
 */
import assert from "node:assert/strict";
import { OAuthFailure, OAuthSession } from "../../../transports/http_common/oauth/session.ts";
import { oauthFetch } from "../../../transports/http_common/oauth/fetch.ts";
import { login } from "../../../transports/http_common/oauth/login.ts";
import { makeDeps } from "../mcp_common/helpers.ts";
import { startBench } from "./oauth_setup.ts";

const SECRET = `s3cret-${crypto.randomUUID()}`;

async function withTokenEndpoint(
  handler: (req: Request) => Response | Promise<Response>,
  fn: (tokenUrl: string) => Promise<void>,
) {
  const ac = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/token`);
  } finally {
    ac.abort();
    await server.finished;
  }
}

function ccSession(tokenUrl: string, timeoutMs = 2_000) {
  const deps = makeDeps({ name: "api", credentials: { cid: "ptc", csecret: SECRET } });
  const session = new OAuthSession(
    {
      grant: "client_credentials",
      clientIdBinding: "cid",
      clientSecretBinding: "csecret",
      scopes: [],
      tokenUrl,
    },
    "http://127.0.0.1:1/api",
    {
      upstreamName: "api",
      credentials: deps.credentials,
      redactor: deps.redactor,
      fetchFn: oauthFetch(fetch, timeoutMs),
    },
  );
  return session;
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof OAuthFailure, String(e));
    assert.ok(!e.message.includes(SECRET), e.message);
    return e.message;
  }
  throw new Error("expected a failure");
}

Deno.test("hostile token endpoint: a huge answer is cut at the cap", async () => {
  await withTokenEndpoint(
    () =>
      new Response(JSON.stringify({ access_token: "x".repeat(2_000_000) }), {
        headers: { "content-type": "application/json" },
      }),
    async (url) => assert.match(await failure(ccSession(url).accessToken()), /token failed .*(large|bytes)/),
  );
});

Deno.test("hostile token endpoint: no answer ends at the time bound", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await withTokenEndpoint(
    async () => (await held, new Response("late")),
    async (url) => {
      try {
        assert.match(await failure(ccSession(url, 300).accessToken()), /token failed .*(time|within|ms)/i);
      } finally {
        release();
      }
    },
  );
});

Deno.test("hostile token endpoint: garbage, and an error quoting the secret, say only the error code", async () => {
  await withTokenEndpoint(
    () => new Response("<html>not json</html>", { headers: { "content-type": "text/html" } }),
    async (url) => assert.match(await failure(ccSession(url).accessToken()), /token failed/),
  );
  await withTokenEndpoint(
    () =>
      Response.json({ error: "invalid_client", error_description: `client secret ${SECRET} is wrong` }, {
        status: 401,
      }),
    async (url) => assert.match(await failure(ccSession(url).accessToken()), /answered invalid_client/),
  );
});

Deno.test("hostile token file: readable by others, or not JSON, is refused naming the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tokenFile = `${dir}/t.json`;
    const deps = makeDeps({ name: "notes" });
    const session = new OAuthSession({ grant: "authorization_code", tokenFile, scopes: [] }, "https://n/mcp", {
      upstreamName: "notes",
      credentials: deps.credentials,
      redactor: deps.redactor,
      fetchFn: oauthFetch(fetch, 1000),
    });
    await Deno.writeTextFile(tokenFile, JSON.stringify({ version: 1, server_url: "https://n/mcp" }), { mode: 0o644 });
    await Deno.chmod(tokenFile, 0o644);
    assert.match(await failure(session.accessToken()), /can be read by others \(mode 644\); run chmod 600/);
    await Deno.writeTextFile(tokenFile, "{not json", { mode: 0o600 });
    await Deno.chmod(tokenFile, 0o600);
    assert.match(await failure(session.accessToken()), /is not JSON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile redirect: a callback with another state is refused and nothing is stored", async () => {
  const bench = await startBench();
  try {
    const deps = makeDeps();
    let forged: Promise<void> | undefined;
    const err = await login({
      upstreamName: "notes",
      serverUrl: bench.rs.mcpUrl,
      config: { grant: "authorization_code", tokenFile: bench.tokenFile, scopes: [] },
      credentials: deps.credentials,
      redactor: deps.redactor,
      fetchFn: oauthFetch(fetch, 5_000),
      show: (url) => {
        const redirect = new URL(new URL(url).searchParams.get("redirect_uri")!);
        redirect.search = new URLSearchParams({ code: "stolen", state: "not-this-one" }).toString();
        forged = fetch(redirect).then((r) => r.body?.cancel());
      },
      timeoutMs: 10_000,
    }).then(() => undefined, (e: Error) => e);
    await forged;
    assert.ok(err instanceof OAuthFailure);
    assert.match(err.message, /another state/);
    await assert.rejects(Deno.stat(bench.tokenFile));
  } finally {
    await bench.close();
  }
});
