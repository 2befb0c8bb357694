/**
 * The OpenAPI transport end to end against a real loopback Hono server: status mapping, URL encoding,
 * redirects, timeouts, byte caps, bad bodies, credential rotation and redaction.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import openapi from "../../../transports/openapi/mod.ts";
import type { CallContext, ToolResult, Upstream } from "../../../src/upstream/types.ts";
import { args, callCtx, configContext, makeDeps, serve, type TestServer } from "./helpers.ts";
import { fixtureApp, fixtureDoc, fixtureOperationIds } from "./server_fixture.ts";

const CANARY = "canary-secret-7f3a9c";

interface World {
  server: TestServer;
  other: TestServer;
  upstream: Upstream;
  deps: ReturnType<typeof makeDeps>;
  tokenFile: string;
  dir: string;
  call(tool: string, a?: Record<string, unknown>, ctx?: CallContext): Promise<ToolResult>;
}

async function withWorld(fn: (w: World) => Promise<void>, configExtra: Record<string, unknown> = {}) {
  const dir = await Deno.makeTempDir();
  const tokenFile = `${dir}/token`;
  await Deno.writeTextFile(tokenFile, `${CANARY}\n`);
  let accepted = CANARY;
  const other = serve(new Hono().get("*", (c) => c.json({ stolen: true })));
  const ac = new AbortController();
  const crossOrigin = () => other.url.replace("127.0.0.1", "localhost");
  let onUnauthorized = () => Promise.resolve();
  const hooks = () => onUnauthorized();
  const server = serve(fixtureApp(() => Promise.resolve(accepted), crossOrigin, ac.signal, hooks), ac);
  const schemaFile = `${dir}/doc.json`;
  await Deno.writeTextFile(schemaFile, JSON.stringify(fixtureDoc()));
  const deps = makeDeps([{ name: "tok", source: "file", path: tokenFile }]);
  try {
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: server.url,
      schema_file: schemaFile,
      allow_insecure_http: true,
      allow_insecure_auth: true,
      auth: [{ scheme: "bearer", binding: "tok" }],
      static_headers: { "X-Tenant": "acme" },
      include_operations: fixtureOperationIds(),
      request_timeout_ms: 2_000,
      connect_timeout_ms: 1_000,
      ...configExtra,
    }, configContext("fx", ["tok"]));
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    const upstream = await openapi.start(parsed, deps);
    const world: World = {
      server,
      other,
      upstream,
      deps,
      tokenFile,
      dir,
      call: (tool, a = {}, ctx = callCtx()) => upstream.call(tool, args(a), ctx),
    };
    Object.defineProperty(world, "accept", { set: (v: string) => accepted = v });
    Object.defineProperty(world, "onUnauthorized", { set: (f: () => Promise<void>) => onUnauthorized = f });
    await fn(world);
    await upstream.stop();
  } finally {
    await server.close();
    await other.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function fail(r: ToolResult): { reason: string; message: string } {
  assert.equal(r.ok, false, JSON.stringify(r));
  return r as { reason: string; message: string };
}

Deno.test("openapi integration: success, headers, path and query encoding", async () => {
  await withWorld(async (w) => {
    const r = await w.call("list-traces", {
      org_id: "acme",
      tag: ["a b", "c&d"],
      ids: [1, 2],
      flag: true,
      page_size: 5,
    });
    const value = { traces: [{ id: "trace-1", org_id: "acme" }] };
    assert.deepEqual(r, { ok: true, value, valueKind: "json", bytes: JSON.stringify(value).length });
    const seen = w.server.seen.at(-1)!;
    assert.equal(seen.target, "/api/v1/traces?flag=true&ids=1,2&org_id=acme&page-size=5&tag=a%20b&tag=c%26d");
    assert.equal(seen.headers["authorization"], `Bearer ${CANARY}`);
    assert.equal(seen.headers["x-tenant"], "acme");
    assert.equal(seen.headers["accept"], "application/json");

    await w.call("get-trace", { trace_id: "org/42" });
    assert.equal(w.server.seen.at(-1)!.target, "/api/v1/traces/org%2F42");
    await w.call("get-trace", { trace_id: "../admin" });
    assert.equal(w.server.seen.at(-1)!.target, "/api/v1/traces/..%2Fadmin");
    await w.call("get-trace", { trace_id: "a?b#c d" });
    assert.equal(w.server.seen.at(-1)!.target, "/api/v1/traces/a%3Fb%23c%20d");
    await w.call("list-traces", { org_id: "x&admin=true" });
    assert.equal(w.server.seen.at(-1)!.target, "/api/v1/traces?org_id=x%26admin%3Dtrue");

    const before = w.server.seen.length;
    for (const bad of ["..", ".", ""]) {
      const f = fail(await w.call("get-trace", { trace_id: bad }));
      assert.equal(f.reason, "upstream_error");
      assert.match(f.message, /path argument "trace_id" must not be empty, "\." or "\.\."/);
    }
    assert.equal(w.server.seen.length, before, "refused traversal sends no request");

    const steps = await w.call("list-steps", { trace_id: "t" });
    const body = { steps: [{ name: "a" }, { name: "b" }] };
    assert.deepEqual(steps, { ok: true, value: body.steps, valueKind: "json", bytes: JSON.stringify(body).length });
  });
});

Deno.test("openapi integration: argument faults name the argument and send nothing", async () => {
  await withWorld(async (w) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /missing required argument "org_id"/],
      [{ org_id: "a", limit: 0 }, /argument "limit"/],
      [{ org_id: "a", limit: "5" }, /argument "limit"/],
      [{ org_id: "a", nope: 1 }, /unknown argument "nope"/],
      [{ org_id: "a", q: { nested: true } }, /argument "q"/],
    ];
    for (const [a, re] of cases) {
      const f = fail(await w.call("list-traces", a));
      assert.equal(f.reason, "upstream_error");
      assert.match(f.message, re);
    }
    assert.equal(w.server.seen.length, 0);
    assert.match(fail(await w.call("no-such-tool")).message, /unknown tool "no-such-tool"/);
  });
});

Deno.test("openapi integration: status mapping", async () => {
  await withWorld(async (w) => {
    const expect: [string, string, RegExp][] = [
      [
        "400",
        "upstream_error",
        /GET \/status\/\{code\}: HTTP 400 \(bad request\): upstream says \(untrusted\) «bad request text»$/,
      ],
      [
        "422",
        "upstream_error",
        /HTTP 422 \(bad request\): upstream says \(untrusted\) «Unprocessable — org_id is unknown: z+…»$/,
      ],
      ["403", "forbidden", /HTTP 403: forbidden: upstream says \(untrusted\) «status 403»/],
      ["404", "not_found", /HTTP 404: not found: upstream says \(untrusted\) «status 404»/],
      ["409", "upstream_error", /HTTP 409: upstream says \(untrusted\) «status 409»/],
      ["429", "rate_limited", /HTTP 429: rate limited; Retry-After: 30s: upstream says \(untrusted\) «slow down»/],
      ["500", "upstream_unavailable", /HTTP 500: the service failed/],
      ["503", "upstream_unavailable", /HTTP 503/],
    ];
    for (const [code, reason, re] of expect) {
      const f = fail(await w.call("status", { code }));
      assert.equal(f.reason, reason, code);
      assert.match(f.message, re, code);
      assert.ok(f.message.length < 700, "problem detail is capped");
    }
    assert.deepEqual(await w.call("status", { code: "204" }), { ok: true, value: null, valueKind: "none", bytes: 0 });
    assert.deepEqual(await w.call("empty"), { ok: true, value: null, valueKind: "none", bytes: 0 });
    assert.equal(fail(await w.call("malformed")).reason, "invalid_response");
    assert.match(fail(await w.call("malformed")).message, /malformed JSON response \(11 bytes\)/);
    const html = fail(await w.call("html"));
    assert.equal(html.reason, "invalid_response");
    assert.match(html.message, /expected a JSON response, got content type text\/html/);
  });
});

Deno.test("openapi integration: redirects: same-origin followed, cross-origin refused, loops bounded", async () => {
  await withWorld(async (w) => {
    assert.deepEqual(await w.call("redirect-same"), {
      ok: true,
      value: { id: "from-redirect" },
      valueKind: "json",
      bytes: JSON.stringify({ id: "from-redirect" }).length,
    });
    const cross = fail(await w.call("redirect-cross"));
    assert.equal(cross.reason, "upstream_error");
    assert.match(cross.message, /refused a redirect to another origin/);
    assert.equal(w.other.seen.length, 0, "the other origin never saw a request (or the token)");
    const loop = fail(await w.call("redirect-loop"));
    assert.match(loop.message, /more than 5 redirects/);
  });
});

Deno.test("openapi integration: timeouts, slow drip, byte cap while streaming", async () => {
  await withWorld(async (w) => {
    const slow = fail(await w.call("slow", {}, callCtx(300)));
    assert.equal(slow.reason, "timeout");
    const drip = fail(await w.call("drip", {}, callCtx(300)));
    assert.equal(drip.reason, "timeout");
    assert.match(drip.message, /no complete response within 300 ms/);
    const big = fail(await w.call("big", {}, callCtx(5_000, 1_000)));
    assert.equal(big.reason, "response_too_large");
    assert.match(big.message, /response exceeded 1000 bytes/);
    const flood = fail(await w.call("flood", {}, callCtx(5_000, 64 * 1024)));
    assert.equal(flood.reason, "response_too_large");
    const ac = new AbortController();
    const pending = w.call("slow", {}, callCtx(5_000, 1024, ac.signal));
    ac.abort();
    assert.equal(fail(await pending).reason, "timeout");
  });
});

Deno.test("openapi integration: headers timeout (connect_timeout_ms) and refused connections", async () => {
  await withWorld(async (w) => {
    const slow = fail(await w.call("slow", {}, callCtx(5_000)));
    assert.equal(slow.reason, "timeout");
    assert.match(slow.message, /no response headers within 200 ms/);
  }, { connect_timeout_ms: 200 });
  // A closed port: bind, note the port, close, then point base_url at it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/doc.json`, JSON.stringify(fixtureDoc()));
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: `http://127.0.0.1:${port}`,
      schema_file: `${dir}/doc.json`,
      allow_insecure_http: true,
      include_operations: ["empty"],
    }, configContext("fx"));
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    const up = await openapi.start(parsed, makeDeps());
    const f = fail(await up.call("empty", {}, callCtx()));
    assert.equal(f.reason, "upstream_unavailable");
    assert.match(f.message, /connection was refused/);
    assert.doesNotMatch(f.message, /127\.0\.0\.1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openapi integration: 401 re-reads a rotated file credential and retries once", async () => {
  await withWorld(async (w) => {
    assert.equal((await w.call("secure")).ok, true);
    // The server now wants a new token; the file still has the old one → 401, re-read (same), 401 → auth_failed.
    (w as unknown as { accept: string }).accept = "rotated-token-2";
    const before = w.server.seen.length;
    const f = fail(await w.call("secure"));
    assert.equal(f.reason, "auth_failed");
    assert.equal(w.server.seen.length - before, 2, "exactly one retry");
    assert.ok(!f.message.includes(CANARY));
    // Rotate by replacing the file: the next call succeeds without restart.
    await Deno.writeTextFile(`${w.tokenFile}.new`, "rotated-token-2\n");
    await Deno.rename(`${w.tokenFile}.new`, w.tokenFile);
    assert.equal((await w.call("secure")).ok, true);
    assert.equal(w.server.seen.at(-1)!.headers["authorization"], "Bearer rotated-token-2");
    // Rotation racing a call: the file is replaced while the first attempt is answered 401 → the retry succeeds.
    (w as unknown as { accept: string }).accept = "rotated-token-3";
    (w as unknown as { onUnauthorized: () => Promise<void> }).onUnauthorized = () =>
      Deno.writeTextFile(w.tokenFile, "rotated-token-3");
    const n = w.server.seen.length;
    assert.deepEqual((await w.call("secure")).ok, true);
    assert.equal(w.server.seen.length - n, 2);
    assert.ok(w.deps.logs.some((l) => /re-reading credentials and retrying once/.test(l)));
  });
});

Deno.test("openapi integration: a write answered 401 is never re-sent (no credential re-read retry)", async () => {
  await withWorld(async (w) => {
    (w as unknown as { accept: string }).accept = "rotated-token-2";
    const before = w.server.seen.length;
    const f = fail(await w.call("secure", {}, { ...callCtx(), effect: "write" }));
    assert.equal(f.reason, "auth_failed");
    assert.match(f.message, /writes are not retried/);
    assert.equal(w.server.seen.length - before, 1, "the server saw the write exactly once");
  });
});

Deno.test("openapi integration: the secret never appears in any message, log or diagnostics", async () => {
  await withWorld(async (w) => {
    const outputs: string[] = [];
    (w as unknown as { accept: string }).accept = "other";
    for (
      const [tool, a] of [["secure", {}], ["echo-secret", {}], ["status", { code: "400" }], [
        "list-traces",
        {},
      ]] as const
    ) {
      outputs.push(JSON.stringify(await w.call(tool, a)));
    }
    outputs.push(JSON.stringify(w.upstream.diagnostics()), JSON.stringify(w.upstream.listTools()), ...w.deps.logs);
    const all = outputs.join("\n");
    assert.ok(!all.includes(CANARY), all);
    assert.match(all, /\[REDACTED\]/);
  });
});
