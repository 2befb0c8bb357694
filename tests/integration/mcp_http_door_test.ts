/**
 * `ptc mcp --http` under connection floods, with a `/health` probe alongside: idle partial-request connections are
 * answered 408 after the header timeout, connections past the cap are closed at accept, and when file descriptors run
 * out (a lowered `ulimit -n`) the accept errors are reported and the server keeps serving once the flood stops.
 */
import assert from "node:assert/strict";
import { connectHttp, evalLisp, type HttpServer, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";

const encoder = new TextEncoder();

/**
 * Open `n` connections at once that each send half a request line and idle. A connect the server's backlog leaves
 * pending (its accept is failing) is given up after 3 s and closed whenever it completes.
 */
async function partialRequests(
  origin: string,
  n: number,
  request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty",
): Promise<{ conns: Deno.TcpConn[]; failed: number }> {
  const u = new URL(origin);
  const conns: Deno.TcpConn[] = [];
  let failed = 0;
  let late = false;
  const one = async () => {
    try {
      const c = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
      if (late) return c.close();
      conns.push(c);
      await c.write(encoder.encode(request)).catch(() => {});
    } catch {
      failed++;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(Array.from({ length: n }, one)),
    new Promise((r) => (timer = setTimeout(r, 3000))),
  ]);
  clearTimeout(timer);
  late = true;
  return { conns, failed };
}

/** What the server answered on `conn` within `ms`: the status code, 0 when it closed without one, -1 if nothing. */
async function answerOf(conn: Deno.TcpConn, ms: number): Promise<number> {
  const buf = new Uint8Array(512);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), ms)));
  try {
    const n = await Promise.race([conn.read(buf).catch(() => null), timeout]);
    if (n === "timeout") return -1;
    if (n === null) return 0;
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buf.subarray(0, n)))?.[1] ?? 0);
  } finally {
    clearTimeout(timer);
  }
}

function closeAll(conns: Deno.TcpConn[]): void {
  for (const c of conns) {
    try {
      c.close();
    } catch { /* closed */ }
  }
}

async function health(origin: string): Promise<number> {
  try {
    const res = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}

/** Poll `/health` until it answers 200 (bounded). */
async function healthyAgain(origin: string, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await health(origin) === 200) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function stillServes(server: HttpServer): Promise<void> {
  assert.ok(await healthyAgain(server.origin), `health after the flood:\n${server.stderr()}`);
  const client = await connectHttp("modern", server.url);
  try {
    assert.equal(textOf(await evalLisp(client, "(* 6 7)")), "42");
  } finally {
    await client.close();
  }
}

Deno.test("idle partial requests get 408 after the header timeout; past the cap, connections close at accept", async () => {
  const server = await spawnHttpServer(["--max-connections", "40", "--header-timeout-ms", "1500"]);
  let flood: Deno.TcpConn[] = [];
  try {
    const opened = await partialRequests(server.origin, 60);
    flood = opened.conns;
    // The 20 past the cap are closed at once with a 503 (nothing of theirs was parsed).
    const late = await Promise.all(flood.slice(40).map((c) => answerOf(c, 3000)));
    assert.ok(late.every((s) => s === 503 || s === 0), late.join(" "));
    assert.ok(late.filter((s) => s === 503).length > 0, late.join(" "));
    // The probe is one connection more: refused while the cap is full, then answered once the heads time out.
    const held = await Promise.all(flood.slice(0, 40).map((c) => answerOf(c, 6000)));
    assert.deepEqual(new Set(held), new Set([408]), held.join(" "));
    await stillServes(server);
  } finally {
    closeAll(flood);
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});

Deno.test("accept errors under a lowered ulimit -n do not end the server; it serves once the flood stops", async () => {
  // 256 descriptors: far fewer than the 450 connections below; the cap is set higher so accept itself fails.
  const server = await spawnHttpServer(["--max-connections", "5000", "--header-timeout-ms", "60000"], {}, {
    openFiles: 256,
  });
  let flood: Deno.TcpConn[] = [];
  try {
    flood = (await partialRequests(server.origin, 450)).conns;
    // Give the accept loop time to hit the limit and the probe a chance alongside.
    await new Promise((r) => setTimeout(r, 1000));
    await health(server.origin);
    let exited = false;
    server.child.status.then(() => (exited = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(exited, false, `the server exited under the flood:\n${server.stderr()}`);
    assert.match(server.stderr(), /accepting a connection failed: .*Too many open files.*; still serving/);
    closeAll(flood);
    flood = [];
    await stillServes(server);
  } finally {
    closeAll(flood);
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});

Deno.test("complete requests that keep their connections open under a lowered ulimit -n do not end the server", async () => {
  // Each admitted connection costs three descriptors (the client's, and both ends of the loopback splice), so the
  // HTTP server's own accept runs out too: it is restarted, and the server serves once the flood stops.
  const server = await spawnHttpServer(["--max-connections", "5000", "--header-timeout-ms", "60000"], {}, {
    openFiles: 256,
  });
  let flood: Deno.TcpConn[] = [];
  try {
    flood = (await partialRequests(server.origin, 300, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).conns;
    await new Promise((r) => setTimeout(r, 1000));
    await health(server.origin);
    let exited = false;
    server.child.status.then(() => (exited = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(exited, false, `the server exited under the flood:\n${server.stderr()}`);
    closeAll(flood);
    flood = [];
    await stillServes(server);
  } finally {
    closeAll(flood);
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});

Deno.test("a later request head that stalls on a kept-alive connection is closed after the header timeout", async () => {
  const server = await spawnHttpServer(["--header-timeout-ms", "1000"]);
  const u = new URL(server.origin);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  try {
    const body = "{}";
    await conn.write(encoder.encode(
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ));
    const buf = new Uint8Array(4096);
    let seen = "";
    while (!/HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 404/.test(seen)) {
      const n = await conn.read(buf);
      assert.ok(n !== null, `closed early: ${seen}`);
      seen += new TextDecoder().decode(buf.subarray(0, n));
    }
    // Two requests answered on one connection; now a third head stalls half-way.
    await conn.write(encoder.encode("GET /health HTTP/1.1\r\nHo"));
    assert.equal(await answerOf(conn, 5000), 0, "closed, not answered");
    assert.equal(await health(server.origin), 200, "the server serves on");
  } finally {
    closeAll([conn]);
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});
