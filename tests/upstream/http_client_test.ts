/** guardedFetch against a substituted fetch: classification, caps, redirects, no secret or remote text leaks. */
import assert from "node:assert/strict";
import { guardedFetch, readCapped } from "../../src/upstream/http_client.ts";
import { startDroppingServer } from "./dropping_server.ts";

const base = { timeoutMs: 1_000, maxResponseBytes: 100 };

function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) =>
    Promise.resolve(handler(String(input), init ?? {}))) as typeof fetch;
}

Deno.test("guardedFetch: thrown platform errors are classified without their text", async () => {
  const cases: [string, string][] = [
    [
      "error sending request for url (https://h/?token=SECRET): client error (Connect): tcp connect error: Connection refused (os error 111)",
      "connect_failed",
    ],
    [
      "error sending request: dns error: failed to lookup address information: Name or service not known SECRET",
      "dns_failed",
    ],
    ["invalid peer certificate: UnknownIssuer SECRET", "tls_failed"],
    ["client error (Connect): received corrupt message of type InvalidContentType SECRET", "tls_failed"],
    ["connection reset by peer SECRET", "network_error"],
    ["something odd SECRET", "network_error"],
  ];
  for (const [text, kind] of cases) {
    const r = await guardedFetch("https://h.example/x?token=SECRET", {
      ...base,
      fetch: () => Promise.reject(new TypeError(text)),
    });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.kind, kind, text);
      assert.ok(!r.message.includes("SECRET") && !r.message.includes("h.example"), r.message);
    }
  }
});

Deno.test("guardedFetch: Content-Length over the cap fails before reading; non-2xx bodies are truncated", async () => {
  const big = "x".repeat(500);
  const over = await guardedFetch("https://h.example/", { ...base, fetch: fakeFetch(() => new Response(big)) });
  assert.equal(over.ok, false);
  if (!over.ok) assert.equal(over.kind, "response_too_large");
  const err = await guardedFetch("https://h.example/", {
    ...base,
    errorBodyBytes: 10,
    fetch: fakeFetch(() => new Response(big, { status: 500 })),
  });
  assert.ok(err.ok);
  if (err.ok) {
    assert.equal(err.status, 500);
    assert.equal(err.bodyBytes.byteLength, 10);
    assert.equal(err.truncated, true);
  }
});

Deno.test("guardedFetch: redirects are manual, same-origin followed with 303 → GET, others refused", async () => {
  const seen: string[] = [];
  const fetch = fakeFetch((url, init) => {
    seen.push(`${init.method} ${url} ${init.redirect}`);
    if (url.endsWith("/a")) return new Response(null, { status: 303, headers: { location: "/b" } });
    if (url.endsWith("/b")) return new Response("{}", { status: 200 });
    return new Response(null, { status: 302, headers: { location: "https://evil.example/steal" } });
  });
  const ok = await guardedFetch("https://h.example/a", { ...base, method: "POST", body: "x", fetch });
  assert.ok(ok.ok);
  assert.deepEqual(seen, ["POST https://h.example/a manual", "GET https://h.example/b manual"]);
  const bad = await guardedFetch("https://h.example/c", { ...base, fetch });
  assert.ok(!bad.ok && bad.kind === "redirect_refused");
  assert.equal(seen.length, 3);
  const noLocation = await guardedFetch("https://h.example/x", {
    ...base,
    fetch: fakeFetch(() => new Response(null, { status: 302 })),
  });
  assert.ok(!noLocation.ok && noLocation.kind === "network_error");
});

Deno.test("guardedFetch: external abort with a TimeoutError reason is a timeout; other aborts are cancellations", async () => {
  const hang: typeof fetch = (_input, init) =>
    new Promise((_, reject) =>
      init?.signal?.addEventListener("abort", () => reject(new DOMException("a", "AbortError")))
    );
  const ac = new AbortController();
  const p = guardedFetch("https://h.example/", { ...base, signal: ac.signal, fetch: hang });
  ac.abort(new DOMException("t", "TimeoutError"));
  const r = await p;
  assert.ok(!r.ok && r.kind === "timeout");
  const ac2 = new AbortController();
  const p2 = guardedFetch("https://h.example/", { ...base, signal: ac2.signal, fetch: hang });
  ac2.abort();
  const r2 = await p2;
  assert.ok(!r2.ok && r2.kind === "aborted");
  const pre = await guardedFetch("https://h.example/", { ...base, signal: AbortSignal.abort(), fetch: hang });
  assert.ok(!pre.ok && pre.kind === "aborted");
});

Deno.test("readCapped: stops at the limit and reports it", async () => {
  const r = await readCapped(new Response("abcdefghij"), 4);
  assert.equal(new TextDecoder().decode(r.bytes), "abcd");
  assert.equal(r.over, true);
  const s = await readCapped(new Response("abc"), 4);
  assert.equal(s.over, false);
  assert.equal(new TextDecoder().decode(s.bytes), "abc");
});

Deno.test("guardedFetch: an https URL pointed at a plain-HTTP port is tls_failed, not a refused connection", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response("{}"));
  try {
    const r = await guardedFetch(`https://127.0.0.1:${server.addr.port}/x`, { ...base, fetch: globalThis.fetch });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.kind, "tls_failed");
      assert.match(r.message, /did not answer TLS \(is this a plain-HTTP port\?\)/);
      assert.ok(!r.message.includes(String(server.addr.port)), r.message);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("guardedFetch: a port fetch refuses to contact (6000, 10080, …) is said so, and nothing was sent", async () => {
  // Deno's fetch blocks the WHATWG "bad ports" before connecting; the text was "failed at the network level", so an
  // operator serving an upstream on such a port had no clue, and a write to it was reported indeterminate.
  for (const port of [6000, 10080]) {
    const r = await guardedFetch(`http://127.0.0.1:${port}/x`, { ...base, fetch: globalThis.fetch });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.kind, "connect_failed", r.message);
      assert.equal(
        r.message,
        'the port is one that fetch never contacts (a WHATWG "bad port"); serve the upstream on another port',
      );
    }
  }
});

Deno.test("guardedFetch: a fresh-connection POST dropped after receipt is sent once and not taken for never sent", async () => {
  const server = startDroppingServer();
  try {
    const opts = { timeoutMs: 5_000, maxResponseBytes: 10_000 };
    // a GET first leaves a keep-alive connection in fetch's pool, which a pooled POST would be sent on
    const warm = await guardedFetch(`${server.url}/notes`, opts);
    assert.equal(warm.ok, true);
    const write = await guardedFetch(`${server.url}/notes`, {
      ...opts,
      method: "POST",
      body: "{}",
      freshConnection: true,
    });
    assert.equal(server.posts(), 1, "the dropped write was not re-sent");
    assert.equal(write.ok, false);
    // the request was sent: a closed exchange, not a refused connection (which would read as never sent)
    assert.equal((write as { kind: string }).kind, "network_error", JSON.stringify(write));
  } finally {
    await server.close();
  }
});
