/**
 * The hardening of `ptc mcp --http`: bearer auth (401 + WWW-Authenticate, then 429 after repeated failures), Host and
 * Origin checks against DNS rebinding (403), the request body cap (413), `/health` and `/ready`, and start-up refusals
 * (exit 2) for binds that cannot be protected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectHttp, evalLisp, MAIN, ptcMcpArgs, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

function post(url: string, headers: Record<string, string>, body: BodyInit = JSON.stringify(INIT)) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
}

/** fetch() cannot forge a Host header, so the Host checks speak HTTP/1.1 over a raw socket. */
async function rawPost(
  url: string,
  host: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  try {
    const body = JSON.stringify(INIT);
    const lines = [
      `POST ${u.pathname} HTTP/1.1`,
      `Host: ${host}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      `Content-Length: ${new TextEncoder().encode(body).length}`,
      "Connection: close",
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    await conn.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n${body}`));
    let text = "";
    const buf = new Uint8Array(16384);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

async function status(res: Response): Promise<number> {
  await res.body?.cancel();
  return res.status;
}

Deno.test("HTTP face: auth, rate limit, Host/Origin, body cap, health and readiness", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-guard-" });
  const token = "T".repeat(20) + crypto.randomUUID().replaceAll("-", "");
  const tokenFile = join(dir, "token");
  await Deno.writeTextFile(tokenFile, `${token}\n`);
  const server = await spawnHttpServer([
    "--http-auth-token-file",
    tokenFile,
    "--max-body-bytes",
    "4096",
    "--allowed-origins",
    "https://app.example.com",
  ]);
  const bearer = { authorization: `Bearer ${token}` };
  try {
    await t.step("/health and /ready need no token", async () => {
      const health = await fetch(`${server.origin}/health`);
      assert.deepEqual(await health.json(), { status: "ok" });
      const ready = await fetch(`${server.origin}/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: "ready" });
    });

    await t.step("the official client with the token works in both eras", async () => {
      for (const era of ["legacy", "modern"] as const) {
        const c = await connectHttp(era, server.url, token);
        try {
          assert.equal(textOf(await evalLisp(c, "(* 6 7)")), "42");
        } finally {
          await c.close();
        }
      }
    });

    await t.step("Host and Origin are checked before anything else (403)", async () => {
      const rebinding = await rawPost(server.url, "attacker.test:80", bearer);
      assert.equal(rebinding.status, 403);
      assert.match(rebinding.body, /Invalid Host: attacker\.test/);
      assert.equal((await rawPost(server.url, `localhost:${new URL(server.url).port}`, bearer)).status, 200);
      const origin = await post(server.url, { ...bearer, origin: "http://evil.example" });
      assert.equal(origin.status, 403);
      assert.match(JSON.stringify(await origin.json()), /Invalid Origin: http:\/\/evil\.example/);
      // A configured origin matches by scheme, host and port; a loopback page on any port is accepted.
      assert.equal(await status(await post(server.url, { ...bearer, origin: "https://app.example.com" })), 200);
      assert.equal(await status(await post(server.url, { ...bearer, origin: "http://app.example.com" })), 403);
      assert.equal(await status(await post(server.url, { ...bearer, origin: "http://localhost:5173" })), 200);
    });

    await t.step("request bodies over --max-body-bytes get 413 (declared or streamed)", async () => {
      const big = JSON.stringify({ ...INIT, params: { ...INIT.params, pad: "x".repeat(8000) } });
      assert.equal(await status(await post(server.url, bearer, big)), 413);
      const chunks = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
          c.close();
        },
      });
      assert.equal(await status(await post(server.url, bearer, chunks)), 413);
    });

    await t.step(
      "missing or wrong tokens get 401 with a challenge, then 429 after five failures, never for the token",
      async () => {
        const none = await post(server.url, {});
        assert.equal(none.status, 401);
        assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="ptc"');
        await none.body?.cancel();
        const wrong = await post(server.url, { authorization: `Bearer ${"x".repeat(48)}` });
        assert.equal(wrong.status, 401);
        assert.equal(wrong.headers.get("www-authenticate"), 'Bearer realm="ptc", error="invalid_token"');
        const body = await wrong.text();
        assert.ok(!body.includes(token));
        // Three more failures (five in all) block the address; X-Forwarded-For cannot dodge the limiter.
        for (let i = 0; i < 3; i++) {
          assert.equal(await status(await post(server.url, { "x-forwarded-for": `10.0.0.${i}` })), 401);
        }
        const blocked = await post(server.url, {
          authorization: `Bearer ${"y".repeat(48)}`,
          "x-forwarded-for": "10.9",
        });
        assert.equal(blocked.status, 429);
        assert.ok(Number(blocked.headers.get("retry-after")) > 0);
        await blocked.body?.cancel();
        // The rightful client from that same address is never locked out: only failures are refused.
        assert.equal(await status(await post(server.url, bearer)), 200);
        const c = await connectHttp("modern", server.url, token);
        try {
          assert.equal(textOf(await evalLisp(c, "(+ 1 1)")), "2");
        } finally {
          await c.close();
        }
        // Its successes give a guesser at that address no fresh attempts.
        assert.equal(await status(await post(server.url, {})), 429);
      },
    );
  } finally {
    const code = await server.stop();
    await Deno.remove(dir, { recursive: true });
    assert.equal(code, 0, server.stderr());
    assert.ok(!server.stderr().includes(token), "the token never reaches the logs");
  }
});

Deno.test("HTTP face behind --trusted-proxy: the limiter keys on the forwarded client, only from that proxy", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-proxy-" });
  const token = "P".repeat(20) + crypto.randomUUID().replaceAll("-", "");
  const tokenFile = join(dir, "token");
  await Deno.writeTextFile(tokenFile, `${token}\n`);
  // The test connects from 127.0.0.1, which is the trusted proxy here.
  const server = await spawnHttpServer(["--http-auth-token-file", tokenFile, "--trusted-proxy", "127.0.0.1/32"]);
  const bearer = { authorization: `Bearer ${token}` };
  try {
    for (let i = 0; i < 5; i++) {
      assert.equal(await status(await post(server.url, { "x-forwarded-for": "203.0.113.7" })), 401);
    }
    const blocked = await post(server.url, { "x-forwarded-for": "203.0.113.7" });
    assert.equal(blocked.status, 429, "the bad client's failures are refused");
    await blocked.body?.cancel();
    assert.equal(await status(await post(server.url, { ...bearer, "x-forwarded-for": "203.0.113.7" })), 200);
    // Everyone else behind the proxy still gets in, whatever the client claims further left in the chain.
    assert.equal(await status(await post(server.url, { ...bearer, "x-forwarded-for": "198.51.100.2" })), 200);
    assert.equal(
      await status(await post(server.url, { ...bearer, "x-forwarded-for": "203.0.113.7, 198.51.100.3" })),
      200,
    );
    assert.equal(await status(await post(server.url, { ...bearer, forwarded: 'for="[2001:db8::1]:443"' })), 200);
  } finally {
    const code = await server.stop();
    await Deno.remove(dir, { recursive: true });
    assert.equal(code, 0, server.stderr());
  }
});

async function runPtc(flags: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ptcMcpArgs(flags),
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("unsafe or invalid HTTP settings exit 2 with a clear message", async () => {
  assert.ok(MAIN.endsWith("main.ts"));
  const noToken = await runPtc(["--http", "0.0.0.0:0", "--allowed-hosts", "ptc.internal"]);
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /binding to a non-loopback address requires --http-auth-token-file/);

  const dir = await Deno.makeTempDir();
  try {
    const tokenFile = join(dir, "t");
    await Deno.writeTextFile(tokenFile, "z".repeat(40));
    const wildcard = await runPtc(["--http", "0.0.0.0:0", "--http-auth-token-file", tokenFile]);
    assert.equal(wildcard.code, 2);
    assert.match(wildcard.stderr, /wildcard bind needs --allowed-hosts/);

    await Deno.writeTextFile(tokenFile, "short");
    const short = await runPtc(["--http", "127.0.0.1:0", "--http-auth-token-file", tokenFile]);
    assert.equal(short.code, 2);
    assert.match(short.stderr, /at least 32 characters \(it has 5\)/);
    assert.ok(!short.stderr.includes("short\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }

  const origin = await runPtc(["--http", "127.0.0.1:0", "--allowed-origins", "app.example.com/x"]);
  assert.equal(origin.code, 2);
  assert.match(origin.stderr, /--allowed-origins: 'app\.example\.com\/x' is not an origin/);

  const env = await runPtc([], { PTC_MAX_CONCURRENT_CALLS: "lots" });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /PTC_MAX_CONCURRENT_CALLS: expected a whole number, got 'lots'/);
  assert.equal(env.stdout, "");
});
