/**
 * Start-up benchmark: wall time of `ptc eval '(+ 1 2)'` (process start to exit) with no config, with a config of no
 * upstreams (what reading a config costs: the transports load to parse it) and with three MCP stdio upstreams
 * configured that the program never calls — what an unused upstream costs a program.
 * Both configs are measured interleaved in the same run (median of `--runs`), and the ratio is printed. With
 * `--baseline DIR` (another checkout, e.g. main's, used read-only) the same two figures are measured for that tree in
 * the same run, so the before/after ratios share one machine state.
 *
 * Usage: `deno task bench unused_upstreams [--runs N] [--baseline DIR]`
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";

const HERE = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A config with three MCP stdio upstreams (the tree's own fixture server, run from its root). */
async function threeUpstreams(dir: string, tree: string): Promise<string> {
  const entry = (name: string) => [name, {
    transport: "mcp_stdio",
    description: `unused upstream ${name}`,
    command: Deno.execPath(),
    args: ["run", "--frozen", "--cached-only", "--allow-env", join(tree, "fixtures/mcp/stdio.ts")],
    cwd: tree,
  }];
  const file = join(dir, `three-${tree.replaceAll("/", "_")}.json`);
  const upstreams = Object.fromEntries(["one", "two", "three"].map(entry));
  await Deno.writeTextFile(file, JSON.stringify({ upstreams }));
  return file;
}

/** One `ptc eval '(+ 1 2)'` of `tree`, from its root (its deno.json and lock), in ms. */
async function once(tree: string, config?: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(tree, "main.ts"), "eval", ...(config ? ["--upstreams-config", config] : []), "(+ 1 2)"],
    cwd: tree,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(out.stdout).trim();
  if (out.code !== 0 || text !== "3") {
    throw new Error(
      `${tree}: ptc eval '(+ 1 2)' gave exit ${out.code}, ${JSON.stringify(text)}: ` +
        new TextDecoder().decode(out.stderr).slice(0, 400),
    );
  }
  return ms;
}

/** Entry point of `deno task bench startup`. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { runs: { type: "string", default: "9" }, baseline: { type: "string" } },
    strict: false,
  });
  const runs = Number(values.runs);
  const trees = [{ label: "this tree", root: HERE }];
  if (typeof values.baseline === "string") trees.push({ label: "baseline", root: values.baseline });
  const dir = await Deno.makeTempDir({ prefix: "ptc-bench-startup-" });
  try {
    const empty = join(dir, "empty.json");
    await Deno.writeTextFile(empty, JSON.stringify({ upstreams: {} }));
    const cases = [];
    for (const t of trees) {
      cases.push({ tree: t, config: undefined as string | undefined, times: [] as number[] });
      cases.push({ tree: t, config: empty as string | undefined, times: [] as number[] });
      cases.push({ tree: t, config: await threeUpstreams(dir, t.root), times: [] as number[] });
    }
    for (const c of cases) await once(c.tree.root, c.config); // warm the module caches
    for (let i = 0; i < runs; i++) {
      for (const c of cases) c.times.push(await once(c.tree.root, c.config));
    }
    console.log(`ptc eval '(+ 1 2)', wall ms, median of ${runs} (interleaved)`);
    console.log("tree        | no config | config, 0 upstreams | 3 unused upstreams | ratio 3/0 | ratio 3/empty");
    for (const t of trees) {
      const [zero, none, three] = cases.filter((c) => c.tree === t).map((c) => median(c.times));
      console.log(
        `${t.label.padEnd(11)} | ${zero.toFixed(0).padStart(9)} | ${none.toFixed(0).padStart(19)} | ` +
          `${three.toFixed(0).padStart(18)} | ${(three / zero).toFixed(2).padStart(9)} | ${(three / none).toFixed(2)}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await run(Deno.args);
