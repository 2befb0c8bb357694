/**
 * `ptc mcp` over Streamable HTTP under load (loopback only).
 *
 * - Throughput and p50/p99 latency of `lisp_eval` with 1, 8 and 64 concurrent clients (official SDK clients, modern
 *   era) for a trivial program and for an Observatory query (one OpenAPI call, grouped and counted locally). Each
 *   level runs for `--seconds`; `busy` refusals are counted, never retried.
 * - Baselines measured in the same run: `GET /health` of the same server (HTTP floor) and the Observatory request the
 *   query makes, fetched directly with the same concurrency (upstream floor).
 * - Memory: the server's RSS (and its sandbox processes') after 100 evaluations and after `--evals` (default
 *   10,000), to show there is no growth beyond noise.
 *
 * - `--audit-log`: the server writes an audit log (`ptc mcp --audit-log FILE`, in the bench's temporary directory), to
 *   measure what the per-evaluation write costs; the line count is printed at the end.
 *
 * Usage: `deno task bench mcp [--seconds 3] [--evals 10000] [--concurrency 8] [--audit-log]`, or
 * `deno run -A bench/mcp/main.ts`. Takes about a minute with the defaults.
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { limitsInView, lispEvalDescription } from "../../src/mcp/card.ts";
import { spawnHttpServer } from "../../tests/integration/ptc_mcp_child.ts";

const TRIVIAL = "(+ 1 2)";
const QUERY = `(->> (tool/call 'observatory/list-traces {:org_id "acme" :limit 50})
     :value :traces (map :status) frequencies)`;
const LEVELS = [1, 8, 64];

interface LoadResult {
  ok: number;
  busy: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Run `op` from `clients` concurrent loops for `seconds`. */
async function load(clients: number, seconds: number, op: (i: number) => Promise<"ok" | "busy" | "error">) {
  const result: LoadResult = { ok: 0, busy: 0, errors: 0, seconds: 0, latencies: [] };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, async (_, i) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const outcome = await op(i);
      result.latencies.push(performance.now() - t0);
      if (outcome === "ok") result.ok++;
      else if (outcome === "busy") result.busy++;
      else result.errors++;
    }
  }));
  result.seconds = (performance.now() - started) / 1000;
  result.latencies.sort((a, b) => a - b);
  return result;
}

function row(name: string, clients: number, r: LoadResult): string {
  const rps = (r.ok / r.seconds).toFixed(0).padStart(7);
  const p50 = percentile(r.latencies, 50).toFixed(2).padStart(8);
  const p99 = percentile(r.latencies, 99).toFixed(2).padStart(8);
  return `${name.padEnd(28)} ${String(clients).padStart(3)} ${rps} ${p50} ${p99} ${String(r.ok).padStart(7)} ` +
    `${String(r.busy).padStart(5)} ${String(r.errors).padStart(4)}`;
}

/** Live direct children of `pid` (the server's sandbox processes). */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === pid && state !== "Z") out.push(Number(e.name));
    } catch { /* gone */ }
  }
  return out;
}

function rssKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** The `lisp_eval` description for the Observatory config in each catalog mode (chars, ~tokens = chars / 4). */
async function describeSizes(config: string): Promise<void> {
  const engine = await createEngine({
    registry: registerBuiltins(),
    upstreamsConfig: config,
    upstreamStart: "background",
    poolSize: 1,
  });
  await engine.settleUpstreams();
  try {
    const parts = ["lisp_eval description (Observatory config, slim profile):"];
    for (const mode of ["inline", "lazy", "auto"] as const) {
      const text = lispEvalDescription({
        hasTools: true,
        catalogText: engine.renderCatalog(mode),
        slim: true,
        limits: limitsInView(10_000, engine.runLimits()),
      });
      parts.push(`${mode} ${text.length} chars ~${Math.ceil(text.length / 4)} tokens`);
    }
    console.log(parts.join("  "));
  } finally {
    await engine.close();
  }
}

/** Run the suite. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seconds: { type: "string", default: "3" },
      evals: { type: "string", default: "10000" },
      concurrency: { type: "string", default: "8" },
      "audit-log": { type: "boolean", default: false },
    },
    strict: false,
  });
  const seconds = Number(values.seconds);
  const evals = Number(values.evals);
  // The gate's permits, and as many pre-warmed sandbox processes (~45 MiB each: 64 would cost ~3 GiB).
  const permits = Number(values.concurrency);
  const maxConcurrent = Math.max(...LEVELS);

  const dir = await Deno.makeTempDir({ prefix: "ptc-bench-mcp-" });
  const tokenDir = join(dir, ".observatory");
  await Deno.mkdir(tokenDir);
  const tokens = await createTokenDir(tokenDir);
  const observatory = await startObservatory({
    port: 0,
    tokensFile: tokens.tokensFile,
    auditLog: "none",
    rateLimit: { requests: 1_000_000_000, windowSeconds: 60 },
  });
  const config = await writeConcreteConfig(dir, observatory.url);
  const token = (await Deno.readTextFile(join(tokenDir, "observatory.token"))).trim();
  const auditLog = values["audit-log"] ? join(dir, "audit.jsonl") : undefined;
  const server = await spawnHttpServer([
    "--upstreams-config",
    config,
    "--max-concurrent-calls",
    String(permits),
    ...(auditLog ? ["--audit-log", auditLog] : []),
  ]);
  const clients: Client[] = [];
  try {
    for (let i = 0; i < maxConcurrent; i++) {
      const c = new Client({ name: `bench-${i}`, version: "0" }, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      });
      await c.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      clients.push(c);
    }
    const evalOp = (program: string) => async (i: number): Promise<"ok" | "busy" | "error"> => {
      try {
        const r = await clients[i].callTool({ name: "lisp_eval", arguments: { program } });
        if (!r.isError) return "ok";
        const text = (r.content as { text?: string }[])[0]?.text ?? "";
        return text.startsWith("busy:") ? "busy" : "error";
      } catch {
        return "error";
      }
    };
    const health = new URL("/health", server.url).href;
    const direct = `${observatory.url}/api/traces?org_id=acme&limit=50`;
    const fetchOp = (url: string, headers: HeadersInit = {}) => async (): Promise<"ok" | "error"> => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      return res.ok ? "ok" : "error";
    };

    await describeSizes(config);

    // Warm up: workers, connections, JIT.
    await load(8, 0.5, evalOp(TRIVIAL));
    await load(8, 0.5, evalOp(QUERY));

    console.log(
      `ptc mcp --http (${permits} permits = ${permits} sandbox processes; each client at most ${
        Math.ceil(permits / 2)
      }), ${seconds}s per row, loopback, load ${Deno.loadavg()[0].toFixed(1)}${auditLog ? ", --audit-log" : ""}`,
    );
    console.log(`${"scenario".padEnd(28)} cli   req/s  p50 ms   p99 ms      ok  busy  err`);
    for (const n of LEVELS) console.log(row("baseline GET /health", n, await load(n, seconds, fetchOp(health))));
    for (const n of LEVELS) console.log(row("lisp_eval trivial", n, await load(n, seconds, evalOp(TRIVIAL))));
    for (const n of LEVELS) {
      console.log(
        row(
          "baseline direct Observatory",
          n,
          await load(n, seconds, fetchOp(direct, { authorization: `Bearer ${token}` })),
        ),
      );
    }
    for (const n of LEVELS) console.log(row("lisp_eval Observatory query", n, await load(n, seconds, evalOp(QUERY))));

    // Memory: RSS after 100 evaluations (plus the load above) vs after `evals` more.
    const sequential = async (count: number) => {
      let next = 0;
      await Promise.all(
        clients.slice(0, 8).map(async (c) => {
          while (next < count) {
            next++;
            await c.callTool({ name: "lisp_eval", arguments: { program: TRIVIAL } });
          }
        }),
      );
    };
    await sequential(100);
    const rss100 = rssKiB(server.child.pid);
    const sandboxRss = () => childPids(server.child.pid).reduce((s, p) => s + rssKiB(p), 0);
    const sandbox100 = sandboxRss();
    const checkpoints: string[] = [];
    const t0 = performance.now();
    const step = Math.max(1, Math.floor(evals / 4));
    let done = 0;
    let rssN = rss100;
    while (done < evals) {
      const n = Math.min(step, evals - done);
      await sequential(n);
      done += n;
      rssN = rssKiB(server.child.pid);
      checkpoints.push(`${done}: ${(rssN / 1024).toFixed(1)}`);
    }
    const took = (performance.now() - t0) / 1000;
    console.log(
      `RSS after 100 evaluations: ${(rss100 / 1024).toFixed(1)} MiB; after ${evals} more: ${
        (rssN / 1024).toFixed(1)
      } MiB ` +
        `(${rssN >= rss100 ? "+" : ""}${(((rssN - rss100) / rss100) * 100).toFixed(1)}%; ${
          (evals / took).toFixed(0)
        } evals/s, 8 clients)`,
    );
    console.log(`RSS MiB by evaluations since: ${checkpoints.join(", ")}`);
    const sandboxN = sandboxRss();
    console.log(
      `sandbox processes (${childPids(server.child.pid).length}) RSS: ${
        (sandbox100 / 1024).toFixed(1)
      } MiB after 100, ` +
        `${(sandboxN / 1024).toFixed(1)} MiB after ${evals} more`,
    );
    if (auditLog) {
      const text = await Deno.readTextFile(auditLog);
      console.log(`audit log: ${text.split("\n").length - 1} lines, ${(text.length / 1024 / 1024).toFixed(1)} MiB`);
    }
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    await server.stop();
    await observatory.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await run(Deno.args);
