/**
 * Two `ptc mcp --http` replicas behind HAProxy (Debian's package) on loopback, configured as docs/deploy.md shows:
 * hashing on the Authorization header (one token per client, both replicas reading the same token file), health checks
 * on /ready, retries of requests that never reached a replica. Through official MCP SDK clients:
 *
 * - stateless evaluations of several clients are spread across both replicas (each replica's `/metrics` counts some);
 * - a session's evaluations all land on its replica (each sees the definitions of the one before);
 * - SIGKILL of the replica holding a session, mid-load: every request started after the kill is answered (HAProxy
 *   retries a refused connection on the other replica), and the dead replica's session is `unknown_session`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { evalLisp, type HttpServer, newClient, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";

const HAPROXY = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

/** Fixed client tokens: with consistent hashing their spread over the two replicas is the same on every run. */
const TOKENS = Array.from({ length: 8 }, (_, i) => `client-${String(i).padStart(2, "0")}-${"k".repeat(32)}`);

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function haproxyConfig(port: number, replicas: HttpServer[]): string {
  const servers = replicas.map((r, i) => `  server r${i + 1} 127.0.0.1:${new URL(r.url).port} check`);
  return [
    "defaults",
    "  mode http",
    "  timeout connect 1s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  retries 3",
    "  option redispatch 1",
    "  retry-on conn-failure empty-response",
    "frontend ptc",
    `  bind 127.0.0.1:${port}`,
    "  default_backend replicas",
    "backend replicas",
    "  balance hdr(Authorization)",
    "  hash-type consistent",
    "  option httpchk GET /ready",
    "  http-check expect status 200",
    "  default-server inter 300ms fall 2 rise 1",
    ...servers,
    "",
  ].join("\n");
}

async function connect(url: string, token: string): Promise<Client> {
  const client = newClient("modern");
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function metric(replica: HttpServer, name: string): Promise<number> {
  const res = await fetch(`${replica.origin}/metrics`, { headers: { Authorization: `Bearer ${TOKENS[0]}` } });
  const text = await res.text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(" ")[1]) : 0;
}

Deno.test({
  name: "two replicas behind HAProxy: spread, session affinity, and a replica killed mid-load",
  ignore: HAPROXY === undefined,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "ptc-replicas-" });
    const tokenFile = join(dir, "tokens");
    await Deno.writeTextFile(tokenFile, `# one token per client\n${TOKENS.join("\n")}\n`);
    // Room for all eight clients on one replica (the survivor) without `busy`, and /ready never saturated by them.
    const flags = [
      "--http-auth-token-file",
      tokenFile,
      "--sessions",
      "--response-profile",
      "structured",
      "--max-concurrent-calls",
      "9",
    ];
    const replicas = [await spawnHttpServer(flags), await spawnHttpServer(flags)];
    const port = freePort();
    const cfg = join(dir, "haproxy.cfg");
    await Deno.writeTextFile(cfg, haproxyConfig(port, replicas));
    const haproxy = new Deno.Command(HAPROXY!, { args: ["-db", "-f", cfg], stdout: "null", stderr: "piped" }).spawn();
    const haproxyErr = new Response(haproxy.stderr).text();
    const url = `http://127.0.0.1:${port}/mcp`;
    const clients: Client[] = [];
    try {
      // HAProxy is up once it answers; both replicas once the checks pass.
      for (let i = 0; i < 100; i++) {
        const ok = await fetch(url, { method: "GET" }).then(async (r) => (await r.body?.cancel(), true), () => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 700));
      for (const t of TOKENS) clients.push(await connect(url, t));

      // 1. Stateless evaluations of eight clients spread across both replicas.
      for (const c of clients) {
        for (let i = 0; i < 3; i++) assert.equal(textOf(await evalLisp(c, `(* ${i} 7)`)), String(i * 7));
      }
      const counts = await Promise.all(replicas.map((r) => metric(r, 'ptc_evaluations_total{outcome="ok"}')));
      assert.equal(counts[0] + counts[1], 24, `${counts}`);
      assert.ok(counts[0] > 0 && counts[1] > 0, `both replicas evaluated: ${counts}`);

      // 2. A session's evaluations all land on its replica: each sees the one before.
      const owner = clients[0];
      const started = await owner.callTool({ name: "lisp_session_start", arguments: {} });
      const sid = (started.structuredContent as { session_id: string }).session_id;
      await owner.callTool({ name: "lisp_session_eval", arguments: { session_id: sid, program: "(def n 0)" } });
      for (let i = 1; i <= 5; i++) {
        const r = await owner.callTool({
          name: "lisp_session_eval",
          arguments: { session_id: sid, program: "(def n (inc n)) n" },
        });
        assert.equal(textOf(r), String(i));
      }
      const open = await Promise.all(replicas.map((r) => metric(r, "ptc_sessions_open")));
      assert.deepEqual([...open].sort(), [0, 1], `${open}`);
      const victim = open.indexOf(1);
      const survivor = replicas[1 - victim];

      // 3. Load from every client; the session's replica is killed in the middle of it.
      let killedAt = Infinity;
      const outcomes: { started: number; ok: boolean; error?: string }[] = [];
      const until = Date.now() + 3000;
      const load = clients.map(async (c, i) => {
        for (let n = 0; Date.now() < until; n++) {
          const started = performance.now();
          try {
            const text = textOf(await evalLisp(c, `(+ ${i} ${n})`));
            outcomes.push({ started, ok: text === String(i + n), error: text });
          } catch (e) {
            outcomes.push({ started, ok: false, error: String(e) });
          }
        }
      });
      await new Promise((r) => setTimeout(r, 1000));
      killedAt = performance.now();
      replicas[victim].child.kill("SIGKILL");
      await Promise.all(load);
      const after = outcomes.filter((o) => o.started > killedAt);
      assert.ok(after.length >= clients.length, `requests after the kill: ${after.length}`);
      const lost = after.filter((o) => !o.ok);
      assert.deepEqual(lost, [], "every request started after the kill was answered");

      // 4. The dead replica's session is unknown on the survivor.
      const gone = await owner.callTool({ name: "lisp_session_eval", arguments: { session_id: sid, program: "n" } });
      assert.equal(gone.isError, true);
      assert.match(textOf(gone), /^unknown_session: /);
      assert.ok(await metric(survivor, 'ptc_evaluations_total{outcome="ok"}') > 0);
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      try {
        haproxy.kill("SIGTERM");
      } catch { /* gone */ }
      await haproxy.status;
      await haproxyErr;
      for (const r of replicas) await r.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
