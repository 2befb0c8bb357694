/**
 * Start-up benchmark: wall time of one `(+ 1 2)` from another working directory, alternating in the same run
 * `bin/ptc eval` with its flag cache warm, `bin/ptc eval` with the cache off (`PTC_LAUNCH_CACHE=0`: step 1 runs a whole
 * Deno process), `deno run main.ts eval` without the launcher (with and without `--unstable-lazy-dynamic-imports`),
 * `nbb -e` and `node -e`. Prints medians and the ratios to nbb. Options: `--runs N` (default 7), `--baseline DIR`
 * (also another checkout's `bin/ptc eval` and `main.ts eval`).
 * @module
 */
import { parseArgs } from "node:util";

const ROOT = new URL("../../", import.meta.url).pathname;
const NBB_CLI = `${ROOT}node_modules/nbb/cli.js`;

interface Contender {
  name: string;
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

async function timeOnce(c: Contender, cwd: string): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(c.cmd, { args: c.args, cwd, env: c.env, stdout: "piped", stderr: "piped" })
    .output();
  const ms = performance.now() - t0;
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || text !== "3") {
    throw new Error(`${c.name} failed (${out.code}): ${text} ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Suite entry (see bench/README.md). */
export async function run(args: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { runs: { type: "string", default: "7" }, baseline: { type: "string" } },
    strict: false,
  });
  const runs = Number(values.runs);
  const cwd = await Deno.makeTempDir({ prefix: "ptc-bench-startup-" });
  const cache = `${cwd}/cache`;
  try {
    const contenders: Contender[] = [
      {
        name: "bin/ptc eval (flag cache warm)",
        cmd: `${ROOT}bin/ptc`,
        args: ["eval", "(+ 1 2)"],
        env: { XDG_CACHE_HOME: cache },
      },
      {
        name: "bin/ptc eval (flag cache off)",
        cmd: `${ROOT}bin/ptc`,
        args: ["eval", "(+ 1 2)"],
        env: { PTC_LAUNCH_CACHE: "0" },
      },
      {
        // what `deno task ptc` runs: no launcher, modules loaded on first use
        name: "deno run -A --unstable-lazy-dynamic-imports main.ts eval",
        cmd: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--quiet",
          "--unstable-lazy-dynamic-imports",
          `--config=${ROOT}deno.json`,
          `${ROOT}main.ts`,
          "eval",
          "(+ 1 2)",
        ],
      },
      {
        // every module of every face resolved before the first line runs (Deno's default)
        name: "deno run -A main.ts eval",
        cmd: Deno.execPath(),
        args: ["run", "-A", "--quiet", `--config=${ROOT}deno.json`, `${ROOT}main.ts`, "eval", "(+ 1 2)"],
      },
      { name: "nbb -e", cmd: "node", args: [NBB_CLI, "-e", "(prn (+ 1 2))"] },
      { name: "node -e", cmd: "node", args: ["-e", "console.log(1 + 2)"] },
    ];
    if (typeof values.baseline === "string") {
      const base = values.baseline.replace(/\/?$/, "/");
      contenders.push(
        { name: "baseline: bin/ptc eval", cmd: `${base}bin/ptc`, args: ["eval", "(+ 1 2)"] },
        {
          name: "baseline: deno run -A main.ts eval",
          cmd: Deno.execPath(),
          args: ["run", "-A", "--quiet", `--config=${base}deno.json`, `${base}main.ts`, "eval", "(+ 1 2)"],
        },
      );
    }
    const times = contenders.map(() => [] as number[]);
    for (const c of contenders) await timeOnce(c, cwd); // warm: module caches, the flag cache entry
    for (let i = 0; i < runs; i++) {
      for (let j = 0; j < contenders.length; j++) times[j].push(await timeOnce(contenders[j], cwd));
    }
    const nbb = median(times[contenders.findIndex((c) => c.name === "nbb -e")]);
    console.log(`\nstart-up: (+ 1 2) from another directory (${runs} alternated runs, median ms)`);
    contenders.forEach((c, j) => {
      const m = median(times[j]);
      console.log(`${c.name.padEnd(58)}${m.toFixed(0).padStart(8)}${(m / nbb).toFixed(2).padStart(8)}× nbb`);
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

if (import.meta.main) await run(Deno.args);
