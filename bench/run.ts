/**
 * `deno task bench [suite…] [-- suite options]`: runs every benchmark suite found as `bench/<name>/main.ts`, or only
 * the named ones (`deno task bench lisp`). Options after the suite names are passed to each suite's `run(args)`.
 * See bench/README.md for the suite contract.
 * @module
 */

/** What a suite module exports. */
export interface BenchSuite {
  run(args: string[]): Promise<void>;
}

const BENCH_DIR = new URL("./", import.meta.url);

/** Names of the suites present (folders holding a main.ts), sorted. */
export function listSuites(): string[] {
  const names: string[] = [];
  for (const e of Deno.readDirSync(BENCH_DIR)) {
    if (!e.isDirectory) continue;
    try {
      Deno.statSync(new URL(`${e.name}/main.ts`, BENCH_DIR));
      names.push(e.name);
    } catch { /* not a suite */ }
  }
  return names.sort();
}

async function main(argv: string[]): Promise<number> {
  const sep = argv.indexOf("--");
  const head = sep >= 0 ? argv.slice(0, sep) : argv;
  const firstOpt = head.findIndex((a) => a.startsWith("-"));
  const wanted = firstOpt >= 0 ? head.slice(0, firstOpt) : head;
  const rest = [...(firstOpt >= 0 ? head.slice(firstOpt) : []), ...(sep >= 0 ? argv.slice(sep + 1) : [])];
  const suites = listSuites();
  const unknown = wanted.filter((w) => !suites.includes(w));
  if (unknown.length > 0) {
    console.error(`unknown benchmark suite(s): ${unknown.join(", ")}. Available: ${suites.join(", ") || "(none)"}`);
    return 2;
  }
  for (const name of wanted.length > 0 ? wanted : suites) {
    console.log(`=== bench/${name} ===`);
    const mod = await import(new URL(`${name}/main.ts`, BENCH_DIR).href) as Partial<BenchSuite>;
    if (typeof mod.run !== "function") {
      console.error(`bench/${name}/main.ts does not export run(args)`);
      return 2;
    }
    try {
      await mod.run(rest);
    } catch (e) {
      console.error(`bench/${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
