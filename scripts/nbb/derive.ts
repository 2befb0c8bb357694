/**
 * Re-derives `tests/lisp/conformance/data/expected.json` by running every program of the conformance table in nbb (a
 * ClojureScript interpreter on Node), in ONE nbb process.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env scripts/nbb/derive.ts`
 * Needs `npm install` (nbb is a devDependency of package.json); the unit test suite never runs nbb.
 *
 * How: a generated .cljs file holds every program as a string and evaluates each one with `nbb.core/load-string`
 * in its own namespace (so defs cannot leak between programs), sequentially, inside try/catch. Each result is one
 * marker-prefixed JSON line `{id, ok, printed}` or `{id, ok:false, error}`; other stdout lines are the program's own
 * `println` output and are attached to the next result as `prints`.
 * @module
 */
import { loadPrograms, type Program } from "../../tests/lisp/conformance/programs.ts";
import { buildCljs, parseNbbOutput } from "./cljs.ts";

const ROOT = new URL("../../", import.meta.url);
const NBB_CLI = new URL("node_modules/nbb/cli.js", ROOT);
const EXPECTED = new URL("tests/lisp/conformance/data/expected.json", ROOT);

async function runNbb(programs: Program[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-nbb-" });
  try {
    const file = `${dir}/table.cljs`;
    await Deno.writeTextFile(file, buildCljs(programs));
    const out = await new Deno.Command("node", {
      args: [NBB_CLI.pathname, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    if (!out.success) throw new Error(`nbb exited with code ${out.code}:\n${stderr}`);
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function main(): Promise<void> {
  const programs = loadPrograms();
  const started = performance.now();
  const stdout = await runNbb(programs);
  const results = parseNbbOutput(stdout, programs);
  const missing = programs.filter((p) => !(p.id in results));
  if (missing.length > 0) throw new Error(`nbb gave no answer for: ${missing.map((p) => p.id).join(", ")}`);
  await Deno.writeTextFile(EXPECTED, JSON.stringify(results, null, 1) + "\n");
  const failed = Object.values(results).filter((r) => !r.ok).length;
  console.log(
    `wrote ${programs.length} answers (${failed} nbb errors) to ${EXPECTED.pathname} in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}

if (import.meta.main) await main();
