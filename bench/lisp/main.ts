/**
 * Lisp benchmark suite: the six Observatory-style programs over 2,000 and 20,000 generated traces, timed warm in
 * ptc, nbb and plain JavaScript in the same run, plus the collection-building checks. Prints per-program medians,
 * the ratios ptc/nbb and ptc/JS and their geometric means (target: geomean ptc/nbb ≤ 0.5).
 *
 * Options: `--sizes 2000,20000` `--repeat N` (default: 100 for ≤ 2,000 traces, 11 above) `--mode auto|cli|api`
 * `--seed N`. Data files go to `bench/lisp/out/` (gitignored) and are reused when present.
 * @module
 */
import { parseArgs } from "node:util";
import { BENCH_PROGRAMS, BUILD_PROGRAMS } from "./programs.ts";
import { writeTraces } from "./dataset.ts";
import { timeNbb } from "./nbb.ts";
import { cliReady, type PtcMode, timeJs, timePtcApi, timePtcCli } from "./runners.ts";

const HERE = new URL("./", import.meta.url).pathname;
const NBB_CLI = new URL("../../node_modules/nbb/cli.js", import.meta.url).pathname;

const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const pad = (s: string, n: number) => s.padStart(n);

async function dataFileFor(size: number, seed: number): Promise<string> {
  const dir = `${HERE}out`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/traces-${size}-seed${seed}.json`;
  try {
    await Deno.stat(path);
  } catch {
    console.log(`generating ${size} traces -> ${path}`);
    await writeTraces(path, size, seed);
  }
  return path;
}

async function runSize(size: number, seed: number, repeat: number, mode: PtcMode): Promise<number[]> {
  const file = await dataFileFor(size, seed);
  const data = JSON.parse(await Deno.readTextFile(file));
  const js = timeJs(data, BENCH_PROGRAMS, repeat);
  const nbb = await timeNbb(NBB_CLI, file, BENCH_PROGRAMS, repeat);
  const ptc = mode === "cli"
    ? await timePtcCli(file, BENCH_PROGRAMS, repeat)
    : timePtcApi(data, BENCH_PROGRAMS, repeat);
  console.log(`\n${size} traces (${repeat} warm runs, median ms; ptc via ${mode})`);
  console.log(
    `${"program".padEnd(44)}${pad("ptc", 9)}${pad("nbb", 9)}${pad("js", 9)}${pad("ptc/nbb", 9)}${pad("ptc/js", 9)}`,
  );
  const rNbb: number[] = [], rJs: number[] = [];
  for (const p of BENCH_PROGRAMS) {
    const a = ptc[p.id], b = nbb[p.id], c = js[p.id];
    rNbb.push(a / b);
    rJs.push(a / c);
    console.log(
      `${`(${p.id}) ${p.title}`.padEnd(44)}${pad(fmt(a), 9)}${pad(fmt(b), 9)}${pad(fmt(c), 9)}${
        pad((a / b).toFixed(2), 9)
      }${pad((a / c).toFixed(1), 9)}`,
    );
  }
  const gN = geomean(rNbb), gJ = geomean(rJs);
  console.log(`${"geometric mean".padEnd(71)}${pad(gN.toFixed(2), 9)}${pad(gJ.toFixed(1), 9)}`);
  console.log(`target ptc/nbb <= 0.5: ${gN <= 0.5 ? "MET" : "MISSED"}`);
  return [gN, gJ];
}

async function runBuild(repeat: number, mode: PtcMode): Promise<void> {
  const ptc = mode === "cli"
    ? await timePtcCli(null, BUILD_PROGRAMS, repeat)
    : timePtcApi(null, BUILD_PROGRAMS, repeat);
  const nbb = await timeNbb(NBB_CLI, null, BUILD_PROGRAMS, repeat);
  console.log(`\ncollection building (median ms; must stay well under 1000)`);
  for (const p of BUILD_PROGRAMS) {
    console.log(`${p.lisp.padEnd(62)}${pad(fmt(ptc[p.id]), 9)} ptc${pad(fmt(nbb[p.id]), 9)} nbb`);
  }
}

/** Suite entry (see bench/README.md). */
export async function run(args: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      sizes: { type: "string", default: "2000,20000" },
      repeat: { type: "string" },
      mode: { type: "string", default: "auto" },
      seed: { type: "string", default: "42" },
    },
    strict: true,
  });
  const sizes = values.sizes.split(",").map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`--sizes: expected e.g. 2000,20000`);
  if (!["auto", "cli", "api"].includes(values.mode)) throw new Error(`--mode: expected auto, cli or api`);
  const mode: PtcMode = values.mode === "auto" ? (await cliReady() ? "cli" : "api") : values.mode as PtcMode;
  const seed = Number(values.seed);
  for (const size of sizes) {
    const repeat = values.repeat ? Number(values.repeat) : size <= 2000 ? 100 : 11;
    await runSize(size, seed, repeat, mode);
  }
  await runBuild(values.repeat ? Number(values.repeat) : 5, mode);
}

if (import.meta.main) await run(Deno.args);
