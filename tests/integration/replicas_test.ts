/**
 * Two `ptc mcp --http` replicas behind HAProxy, and behind nginx (Debian's packages), on loopback, each configured by
 * its block of docs/deploy.md (ports replaced):
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
import { evalLisp, type HttpServer, newClient, ROOT, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";
import { freePort } from "./launcher_helpers.ts";

function installed(...paths: string[]): string | undefined {
  return paths.find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
}
const HAPROXY = installed("/usr/sbin/haproxy", "/usr/bin/haproxy");
const NGINX = installed("/usr/sbin/nginx", "/usr/bin/nginx");

/** Fixed client tokens: with consistent hashing their spread over the two replicas is the same on every run. */
const TOKENS = Array.from({ length: 8 }, (_, i) => `client-${String(i).padStart(2, "0")}-${"k".repeat(32)}`);

/** The `lang` block of docs/deploy.md, with its ports (7400 the balancer, 7401 and 7402 the replicas) replaced. */
async function deployBlock(lang: string, port: number, replicas: HttpServer[]): Promise<string> {
  const doc = await Deno.readTextFile(join(ROOT, "docs/deploy.md"));
  const block = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(doc)?.[1];
  assert.ok(block, `docs/deploy.md has a ${lang} block`);
  const ports = replicas.map((r) => new URL(r.url).port);
  for (const p of ["7400", "7401", "7402"]) assert.ok(block.includes(`127.0.0.1:${p}`), `${lang} block names ${p}`);
  return block.replace("127.0.0.1:7400", `127.0.0.1:${port}`).replace("127.0.0.1:7401", `127.0.0.1:${ports[0]}`)
    .replace("127.0.0.1:7402", `127.0.0.1:${ports[1]}`);
}

/** Two replicas reading one token file of the eight clients. */
async function startReplicas(): Promise<{ dir: string; replicas: HttpServer[] }> {
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
  return { dir, replicas: [await spawnHttpServer(flags), await spawnHttpServer(flags)] };
}

/** Wait until something answers HTTP at `url` (bounded). */
async function answering(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url, { method: "GET" }).then(async (r) => (await r.body?.cancel(), true), () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
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

/**
 * The scenario both balancers run, at `url` in front of `replicas`: spread, session affinity, a replica killed under
 * load (see the module comment). `clients` collects the SDK clients for the caller to close.
 */
async function scenario(url: string, replicas: HttpServer[], clients: Client[]): Promise<void> {
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
  replicas[victim].child.kill("SIGKILL");
  // Requests sent before the process was gone may have reached it (lost, never retried: they may have written).
  await replicas[victim].child.status;
  killedAt = performance.now();
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
}

/**
 * Start two replicas, then the balancer `program` with the arguments `configure` returns (it writes the balancer's
 * config into the temporary folder for the balancer's port), run the scenario through it, and stop everything.
 */
async function behindBalancer(
  program: string,
  configure: (dir: string, port: number, replicas: HttpServer[]) => Promise<string[]>,
  settleMs: number,
): Promise<void> {
  const { dir, replicas } = await startReplicas();
  const port = freePort();
  const balancer = new Deno.Command(program, {
    args: await configure(dir, port, replicas),
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(balancer.stderr).text();
  const url = `http://127.0.0.1:${port}/mcp`;
  const clients: Client[] = [];
  try {
    // The balancer is up once it answers; the replicas once its checks pass.
    await answering(url);
    await new Promise((r) => setTimeout(r, settleMs));
    await scenario(url, replicas, clients);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    try {
      balancer.kill("SIGTERM");
    } catch { /* gone */ }
    await balancer.status;
    await stderr;
    for (const r of replicas) await r.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "two replicas behind HAProxy: spread, session affinity, and a replica killed mid-load",
  ignore: HAPROXY === undefined,
  fn: () =>
    behindBalancer(HAPROXY!, async (dir, port, replicas) => {
      const cfg = join(dir, "haproxy.cfg");
      await Deno.writeTextFile(cfg, await deployBlock("haproxy", port, replicas));
      return ["-db", "-f", cfg];
    }, 700),
});

Deno.test({
  name: "two replicas behind nginx: spread, session affinity, and a replica killed mid-load",
  ignore: NGINX === undefined,
  fn: () =>
    behindBalancer(NGINX!, async (dir, port, replicas) => {
      const cfg = join(dir, "nginx.conf");
      const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(dir, t)};`);
      const http = ["http {", "  access_log off;", ...temp, await deployBlock("nginx", port, replicas), "}"];
      const head = ["daemon off;", `pid ${join(dir, "nginx.pid")};`, "error_log stderr;", "events {}"];
      await Deno.writeTextFile(cfg, [...head, ...http, ""].join("\n"));
      return ["-p", dir, "-c", cfg];
    }, 0),
});
