/**
 * The view's door and pages on a real loopback socket: the Host and Origin guards, the bearer token (header, the
 * one-time `?token=` that sets a cookie, the failed-attempt limiter), the Content-Security-Policy, hostile program
 * text escaped, another owner's program withheld in live mode unless the operator allows it, and the live event
 * stream ending when the server closes.
 */
import assert from "node:assert/strict";
import { createViewApp, serveView, viewerKey, type ViewServer } from "../../src/view/app.ts";
import { LiveFeed, MAX_LIVE_PRINTS, MAX_LIVE_TEXT } from "../../src/view/live.ts";
import { highlightLisp } from "../../src/view/highlight.ts";
import type { ToolResponse } from "../../src/mcp/envelope.ts";
import type { EngineEvalResult } from "../../src/engine/types.ts";

const TOKEN = "t".repeat(40);
const HOSTILE = `(str "</pre><script>alert(1)</script>" "<img src=x onerror=alert(2)>")`;

function feedWith(runs: { owner: string; program: string }[]): LiveFeed {
  const feed = new LiveFeed({ face: "http", redact: (t) => t.replaceAll("sekret", "[REDACTED]"), snapshots: {} });
  for (const r of runs) {
    const response: ToolResponse = { content: [{ type: "text", text: "3" }] };
    const result: EngineEvalResult = {
      ok: true,
      status: "ok",
      printed: "3",
      json: 3,
      prints: [`printed by ${r.owner}`],
      elapsedMs: 1,
      calls: [],
    };
    void feed.begin({ owner: r.owner, tool: "lisp_eval" }, r.program).end(response, result);
  }
  return feed;
}

async function serve(options: Partial<Parameters<typeof createViewApp>[0]> & { feed: LiveFeed }): Promise<ViewServer> {
  const view = createViewApp({
    hostname: "127.0.0.1",
    sources: [options.feed],
    live: options.feed,
    agentViews: () => Promise.resolve([]),
    ...options,
  });
  return await serveView(view, "127.0.0.1", 0);
}

/** A GET with a chosen Host header over a plain socket (fetch never lets a caller set Host). */
async function rawGet(port: number, host: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const request = `GET / HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(request));
  const buf = new Uint8Array(64);
  const n = await conn.read(buf);
  conn.close();
  return new TextDecoder().decode(buf.subarray(0, n ?? 0));
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, { headers, redirect: "manual" });
}

Deno.test("view door: Host and Origin guards, the token by header or cookie, the limiter, the CSP", async () => {
  const feed = feedWith([{ owner: await viewerKey(TOKEN), program: "(+ 1 2)" }]);
  const server = await serve({ feed, authToken: TOKEN });
  try {
    const base = server.url;
    const unauth = await get(base);
    assert.equal(unauth.status, 401);
    await unauth.body?.cancel();
    const ok = await get(base, { authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.status, 200);
    const csp = ok.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'; style-src 'nonce-[0-9a-f]{32}'; script-src 'nonce-[0-9a-f]{32}'/);
    assert.match(await ok.text(), /1 of 1/);

    const visit = await get(`${base}runs/l1?token=${TOKEN}`);
    assert.equal(visit.status, 303);
    assert.equal(visit.headers.get("location"), "/runs/l1", "the token leaves the address bar");
    const cookie = visit.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Strict/i);
    await visit.body?.cancel();
    const withCookie = await get(`${base}runs/l1`, { cookie: cookie.split(";")[0] });
    assert.equal(withCookie.status, 200);
    assert.match(await withCookie.text(), /printed by token:/);

    assert.match(await rawGet(server.port, "evil.example"), /^HTTP\/1\.1 403/, "a rebinding Host is refused");
    assert.match(await rawGet(server.port, `localhost:${server.port}`), /^HTTP\/1\.1 200/);
    const foreignOrigin = await get(base, { origin: "https://evil.example", authorization: `Bearer ${TOKEN}` });
    assert.equal(foreignOrigin.status, 403);
    await foreignOrigin.body?.cancel();

    for (let i = 0; i < 5; i++) (await get(`${base}?token=wrong`)).body?.cancel();
    const blocked = await get(`${base}?token=wrong-again`);
    assert.equal(blocked.status, 429, "after repeated failures the client's further failures wait");
    await blocked.body?.cancel();
    // The limiter refuses only failures (as the MCP endpoint's): the right token is never locked out.
    const rightful = await get(base, { authorization: `Bearer ${TOKEN}` });
    assert.equal(rightful.status, 200);
    await rightful.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("view door: off loopback a token is required", () => {
  assert.throws(
    () => createViewApp({ hostname: "10.0.0.5", sources: [], agentViews: () => Promise.resolve([]) }),
    /off loopback requires a bearer token/,
  );
});

Deno.test("live view: another owner's program is withheld unless allowed; hostile text is escaped; redaction", async () => {
  const runs = [
    { owner: "local", program: `${HOSTILE} ; sekret` },
    { owner: "token:someone-else", program: "(their-secret-plan)" },
  ];
  const own = await serve({ feed: feedWith(runs) });
  const all = await serve({ feed: feedWith(runs), allPrograms: true });
  try {
    const mine = await (await get(`${own.url}runs/l1`)).text();
    assert.ok(!mine.includes("<script>alert(1)"), "program text is escaped");
    assert.ok(!mine.includes("<img src=x"), "program text is escaped");
    assert.match(mine, /&lt;script&gt;alert\(1\)/);
    assert.match(mine, /\[REDACTED\]/);
    assert.ok(!mine.includes("sekret"));
    const theirs = await (await get(`${own.url}runs/l2`)).text();
    assert.ok(!theirs.includes("their-secret-plan"));
    assert.ok(!theirs.includes("printed by token:someone-else"));
    assert.match(theirs, /Another owner's program: not shown/);
    const list = await (await get(own.url)).text();
    assert.ok(!list.includes("their-secret-plan"));
    assert.match(list, /another owner/);
    const allowed = await (await get(`${all.url}runs/l2`)).text();
    assert.match(allowed, /their-secret-plan/);
  } finally {
    await own.close();
    await all.close();
  }
});

Deno.test("live view: the event stream names each new run and ends when the server closes", async () => {
  const feed = feedWith([]);
  const server = await serve({ feed });
  let closed = false;
  try {
    const res = await get(`${server.url}events`);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = res.body!.getReader();
    void feed.begin({ owner: "local", tool: "lisp_eval" }, "(+ 1 2)").end({ content: [] }, undefined);
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /data: l1/);
    await server.close();
    closed = true;
    while (!(await reader.read()).done) { /* drain until the server ends the stream */ }
  } finally {
    if (!closed) await server.close();
  }
});

Deno.test("highlighting keeps every character of the program, escaped", () => {
  const programs = [HOSTILE, `(let [x "unterminated`, "; only a comment", `#{:a 1} 'q/x -1.5 "\\"esc\\""`, ""];
  for (const p of programs) {
    const out = String(highlightLisp(p));
    const text = out.replace(/<span class="h\w">|<\/span>/g, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
    assert.equal(text, p);
    assert.ok(!/<(?!span|\/span)/.test(out), out);
  }
});

Deno.test("runs page: 50 a page, newest first, paging links keep the filters; the live feed keeps the latest only", async () => {
  const runs = Array.from({ length: 120 }, (_, i) => ({ owner: "local", program: `(+ ${i} 0)` }));
  const server = await serve({ feed: feedWith(runs) });
  const small = new LiveFeed({ face: "stdio", redact: (t) => t, snapshots: {}, maxRuns: 3 });
  try {
    const first = await (await get(server.url)).text();
    assert.match(first, /120 of 120/);
    assert.equal(first.match(/<tr class="row">/g)?.length, 50);
    assert.match(first, /page 1 of 3/);
    assert.ok(first.indexOf("(+ 119 0)") < first.indexOf("(+ 118 0)") && !first.includes("(+ 69 0)"), "newest first");
    assert.match(first, /href="\/\?q=%2B&amp;page=2" id="older"|href="\/\?page=2" id="older"/);
    const filtered = await (await get(`${server.url}?q=%2B&page=3`)).text();
    assert.match(filtered, /page 3 of 3/);
    assert.equal(filtered.match(/<tr class="row">/g)?.length, 20);
    assert.match(filtered, /href="\/\?q=%2B&amp;page=2"/, "the newer link keeps the filter");
    const beyond = await (await get(`${server.url}?page=99`)).text();
    assert.match(beyond, /page 3 of 3/, "a page past the end shows the last");

    for (let i = 0; i < 5; i++) void small.begin({ owner: "local", tool: "lisp_eval" }, `(${i})`).end({ content: [] });
    assert.deepEqual(small.runs().map((r) => r.program), ["(2)", "(3)", "(4)"]);
    // A hostile program's output is bounded in what the feed keeps: the first prints, each cut, and the answer cut.
    const noisy: EngineEvalResult = {
      ok: true,
      status: "ok",
      printed: "x".repeat(MAX_LIVE_TEXT * 2),
      json: null,
      prints: Array.from({ length: 5000 }, () => "y".repeat(MAX_LIVE_TEXT + 10)),
      elapsedMs: 1,
      calls: [],
    };
    void small.begin({ owner: "local", tool: "lisp_eval" }, "z".repeat(MAX_LIVE_TEXT * 3)).end({ content: [] }, noisy);
    const kept = small.runs().at(-1)!;
    assert.equal(kept.prints!.length, MAX_LIVE_PRINTS + 1);
    assert.match(kept.prints!.at(-1)!, /4900 more prints not kept/);
    assert.ok(kept.prints!.every((p) => p.length < MAX_LIVE_TEXT + 100));
    assert.ok(kept.answer!.length < MAX_LIVE_TEXT + 100 && kept.program!.length < MAX_LIVE_TEXT + 100);
  } finally {
    await server.close();
  }
});
