/**
 * OpenAPI transport benchmarks.
 *
 * 1. Compile time of GitHub's `api.github.com` document (~13 MB, from the npm package `@octokit/openapi`) with 40
 *    and with all GET operations included (targets: < 1 s and < 3 s). The document is read from
 *    `--github PATH` or `$PTC_BENCH_GITHUB_OPENAPI`; without it this part is skipped with a message. Install it
 *    outside the project, e.g. `cd /tmp/x && npm pack @octokit/openapi && tar xzf octokit-openapi-*.tgz` →
 *    `/tmp/x/package/generated/api.github.com.json`.
 * 2. Applying one overlay action to the same document: benign targets, and hostile ones the bounds refuse.
 * 3. Median added latency of a call through the transport (argument validation, URL building, headers, guarded
 *    fetch, decoding) over a direct `fetch` + `JSON.parse` to the same loopback endpoint (target: < 1 ms).
 *
 *   deno run -A bench/openapi/main.ts [--github PATH] [--repeat 5] [--calls 2000]
 * @module
 */
import { parseArgs } from "node:util";
import { parseDocument } from "../../transports/openapi/loader.ts";
import { compileDocument } from "../../transports/openapi/compiler.ts";
import { indexOperations } from "../../transports/openapi/operations.ts";
import { RefResolver } from "../../transports/openapi/refs.ts";
import openapi from "../../transports/openapi/mod.ts";
import { createRedactor } from "../../src/upstream/redact.ts";
import { OverlayError, parseOverlay } from "../../transports/openapi/overlay.ts";
import { applyOverlays } from "../../transports/openapi/overlay_apply.ts";
import { createMaterializer } from "../../src/upstream/credentials.ts";
import type { TransportDeps } from "../../src/upstream/types.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function ms(x: number): string {
  return `${x.toFixed(x < 10 ? 3 : 1)} ms`;
}

async function benchCompile(path: string | undefined, repeat: number): Promise<void> {
  console.log("## compile: api.github.com");
  if (!path) {
    console.log(
      "skipped: pass --github PATH or set PTC_BENCH_GITHUB_OPENAPI to api.github.com.json " +
        "(from `npm pack @octokit/openapi`, installed outside the project)",
    );
    return;
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    console.log(`skipped: cannot read ${path}`);
    return;
  }
  const parseTimes: number[] = [];
  let loaded = parseDocument(text, path, "json");
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    loaded = parseDocument(text, path, "json");
    parseTimes.push(performance.now() - t);
  }
  const index = indexOperations(loaded.doc, new RefResolver(loaded.doc));
  const gets = [...index.byId.entries()].filter(([, r]) => r.length === 1 && r[0].method === "GET").map(([id]) => id);
  const config = {
    upstreamName: "github",
    path: "upstreams.github",
    baseUrl: "https://api.github.com",
    operationOverrides: {},
    maxResponseBytes: 2 * 1024 * 1024,
    readOnly: false,
  };
  // "All" = every GET operation the transport accepts (a few serve non-JSON media, e.g. GET /octocat).
  const compilable = gets.filter((id) => {
    try {
      compileDocument(loaded.doc, loaded.version, { ...config, includeOperations: [id] });
      return true;
    } catch {
      return false;
    }
  });
  console.log(
    `document: ${(text.length / 1e6).toFixed(1)} MB, ${gets.length} GET operations ` +
      `(${compilable.length} compilable); median of ${repeat}`,
  );
  console.log(`parse (JSON.parse + version checks): ${ms(median(parseTimes))}`);
  console.log("| included | compiled | compile (median) | parse + compile | target |");
  console.log("|---|---|---|---|---|");
  for (const [label, ids, target] of [["40", gets.slice(0, 40), 1000], ["all GET", compilable, 3000]] as const) {
    const times: number[] = [];
    let compiled = 0;
    let failed = "";
    for (let i = 0; i < repeat; i++) {
      const t = performance.now();
      try {
        compiled =
          compileDocument(loaded.doc, loaded.version, { ...config, includeOperations: [...ids] }).operations.length;
      } catch (e) {
        failed = e instanceof Error ? e.message.split("\n")[0] : String(e);
      }
      times.push(performance.now() - t);
    }
    const total = median(times) + median(parseTimes);
    console.log(
      `| ${label} (${ids.length}) | ${failed ? `failed: ${failed}` : compiled} | ${ms(median(times))} | ${
        ms(total)
      } | ` +
        `< ${target} ms ${total < target ? "✓" : "✗"} |`,
    );
  }
}

/**
 * Applying one overlay action to GitHub's document: specific targets, a full descendant walk, and the hostile
 * shapes the bounds stop (`$..*` at the match cap, an n² filter at the step budget). No target: a report of where
 * the time goes and that the hostile ones end.
 */
function benchOverlays(path: string | undefined): void {
  console.log("\n## overlays: one action on api.github.com");
  if (!path) return void console.log("skipped: pass --github PATH (see above)");
  const text = Deno.readTextFileSync(path);
  console.log("| target | outcome | ms |");
  console.log("|---|---|---|");
  const targets = [
    "$.paths['/repos/{owner}/{repo}'].get",
    "$.paths.*.get",
    "$..[?@.operationId == 'repos/get']",
    "$..*",
    "$..[?@..operationId]",
  ];
  for (const target of targets) {
    const doc = parseDocument(text, path, "json");
    const overlay = parseOverlay(
      JSON.stringify({
        overlay: "1.0.0",
        info: { title: "b", version: "1" },
        actions: [{ target, update: { "x-b": 1 } }],
      }),
      "bench",
      "json",
    );
    const t = performance.now();
    let outcome = "applied";
    try {
      applyOverlays(doc.doc, [overlay], doc.version);
    } catch (e) {
      outcome = e instanceof OverlayError ? `refused: ${/\): (.*?)(;|$)/.exec(e.message)?.[1] ?? e.code}` : String(e);
    }
    console.log(`| \`${target}\` | ${outcome} | ${ms(performance.now() - t)} |`);
  }
}

async function benchLatency(calls: number): Promise<void> {
  console.log("\n## added latency of a call over a direct fetch (loopback)");
  const body = JSON.stringify({
    traces: Array.from({ length: 20 }, (_, i) => ({ id: `t-${i}`, status: "ok", cost: i })),
  });
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    () => new Response(body, { headers: { "content-type": "application/json" } }),
  );
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const dir = await Deno.makeTempDir();
  try {
    const doc = {
      openapi: "3.1.0",
      info: { title: "bench", version: "1" },
      paths: {
        "/api/v1/traces/{org}": {
          get: {
            operationId: "list_traces",
            parameters: [
              { name: "org", in: "path", required: true, schema: { type: "string" } },
              { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
            ],
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
            },
          },
        },
      },
    };
    await Deno.writeTextFile(`${dir}/doc.json`, JSON.stringify(doc));
    const redactor = createRedactor();
    const deps: TransportDeps = {
      upstreamName: "bench",
      credentials: createMaterializer(new Map(), redactor),
      redactor,
      limits: { callTimeoutMs: 10_000, maxResponseBytes: 1 << 20, connectTimeoutMs: 5_000 },
      fetch: globalThis.fetch,
      log: () => {},
    };
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: base,
      allow_insecure_http: true,
      schema_file: `${dir}/doc.json`,
      include_operations: ["list_traces"],
    }, {
      upstreamName: "bench",
      path: "upstreams.bench",
      configDir: dir,
      credentialNames: new Set(),
    });
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    const upstream = await openapi.start(parsed, deps);
    const ctx = () => ({ signal: new AbortController().signal, timeoutMs: 10_000, maxResponseBytes: 1 << 20 });
    const direct = async () => {
      const r = await fetch(`${base}/api/v1/traces/acme?limit=10`, { headers: { accept: "application/json" } });
      JSON.parse(await r.text());
    };
    const viaTransport = async () => {
      const r = await upstream.call("list-traces", { org: "acme", limit: 10 }, ctx());
      if (!r.ok) throw new Error(r.message);
    };
    for (let i = 0; i < 200; i++) {
      await direct();
      await viaTransport();
    }
    const d: number[] = [];
    const t: number[] = [];
    for (let i = 0; i < calls; i++) {
      // Interleaved so that drift (GC, CPU frequency) affects both sides alike.
      let s = performance.now();
      await direct();
      d.push(performance.now() - s);
      s = performance.now();
      await viaTransport();
      t.push(performance.now() - s);
    }
    const added = median(t) - median(d);
    console.log(`calls: ${calls} each, interleaved, after 200 warm-up pairs`);
    console.log("| path | median | p90 |");
    console.log("|---|---|---|");
    const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    console.log(`| direct fetch + JSON.parse | ${ms(median(d))} | ${ms(p90(d))} |`);
    console.log(`| upstream.call (openapi transport) | ${ms(median(t))} | ${ms(p90(t))} |`);
    console.log(`added median latency: ${ms(added)} (target < 1 ms ${added < 1 ? "✓" : "✗"})`);
    await upstream.stop();
  } finally {
    ac.abort();
    await server.finished;
    await Deno.remove(dir, { recursive: true });
  }
}

/** Suite entry point (bench/run.ts contract). */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      github: { type: "string" },
      repeat: { type: "string", default: "5" },
      calls: { type: "string", default: "2000" },
    },
    strict: false,
  });
  const github = (values.github as string | undefined) ?? Deno.env.get("PTC_BENCH_GITHUB_OPENAPI");
  await benchCompile(github, Number(values.repeat));
  benchOverlays(github);
  await benchLatency(Number(values.calls));
}

if (import.meta.main) await run(Deno.args);
