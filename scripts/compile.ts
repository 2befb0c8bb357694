/**
 * `deno task compile [--output PATH] [--target TRIPLE] [--dry-run] [--unconfined] -- COMMAND [ARGS…]`
 *
 * Builds one `ptc` binary per face with `deno compile`, with exactly the permission flags `bin/ptc` would run that
 * face under baked in: `ptc permissions --target compiled COMMAND ARGS…` (the same computation, minus the reads of
 * the sandbox's source modules, which the binary embeds). For example
 *
 *   deno task compile --output dist/ptc-mcp -- mcp --http 127.0.0.1:7332 --upstreams-config /etc/ptc/upstreams.jsonc
 *
 * builds a binary that runs `ptc-mcp mcp --http 127.0.0.1:7332 --upstreams-config /etc/ptc/upstreams.jsonc` and
 * nothing broader: any other command or config names its missing permission in one line at start. `deno task` runs
 * in the checkout's root, so give paths absolute (or relative to that root). `--unconfined`
 * (no command) bakes the broad flags of `deno task ptc` instead. `--dry-run` prints the `deno compile` command line
 * as JSON and builds nothing.
 *
 * `deno compile` needs the `denort` runtime. Deno downloads it unless the `DENORT_BIN` environment variable names a
 * local copy; this script passes `DENORT_BIN` through and, when neither works, says so in one line.
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CONFINED_COMMANDS, faceNeeds } from "../src/cli/face_needs.ts";
import { faceFlags } from "../src/cli/needs.ts";
import { VERSION } from "../src/version.ts";
import { SANDBOX_V8_TUNING } from "../src/sandbox/spawn.ts";

const GENERAL = ["--allow-read", "--allow-write", "--allow-net", "--allow-env", "--allow-run", "--allow-sys"];

/** Files `deno compile` cannot see statically: the example config `ptc demo` reads. */
export const INCLUDED = ["upstreams.example.jsonc"];

/** What to build. */
export interface CompilePlan {
  /** The face and its arguments (`["mcp", "--http", …]`); empty with `unconfined`. */
  face: string[];
  unconfined?: boolean;
  output?: string;
  target?: string;
}

/** Where the binary of `plan` is written. */
export function outputOf(plan: CompilePlan): string {
  return plan.output ?? (plan.unconfined ? "dist/ptc" : `dist/ptc-${plan.face[0]}`);
}

/**
 * The permission flags baked into the binary of `plan`, or the problems that stop the build. The binary starts its
 * sandbox processes as itself, so its `--allow-run` names the absolute output path: a binary moved elsewhere must be
 * rebuilt there.
 */
export async function bakedFlags(plan: CompilePlan): Promise<{ flags: string[]; problems: string[] }> {
  if (plan.unconfined) return { flags: GENERAL, problems: [] };
  const [command, ...args] = plan.face;
  if (!(CONFINED_COMMANDS as readonly string[]).includes(command)) {
    return { flags: [], problems: [`name the face to build: -- ${CONFINED_COMMANDS.join("|")} [ARGS…]`] };
  }
  const result = await faceNeeds(command, args, {
    env: (name) => Deno.env.get(name),
    target: "compiled",
    executable: resolve(outputOf(plan)),
  });
  return { flags: faceFlags(result.needs), problems: result.problems };
}

/** The `deno compile` arguments for `plan` with `flags` baked in. */
export function compileArgs(plan: CompilePlan, flags: string[]): string[] {
  return [
    "compile",
    "--no-prompt",
    ...flags,
    // The binary is its own sandbox process, and V8 flags can only be baked in: the sandbox's tuning applies to it.
    `--v8-flags=${SANDBOX_V8_TUNING.join(",")}`,
    ...INCLUDED.flatMap((m) => ["--include", m]),
    "--output",
    outputOf(plan),
    ...(plan.target ? ["--target", plan.target] : []),
    "main.ts",
  ];
}

/** Run `path ARGS` for at most 10 s; what it printed, or why it could not run. */
async function probe(path: string, args: string[]): Promise<{ code: number; text: string } | { error: string }> {
  try {
    const out = await new Deno.Command(path, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(10_000),
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, text: `${dec.decode(out.stdout)}${dec.decode(out.stderr)}`.trim().slice(0, 300) };
  } catch (e) {
    return { error: e instanceof Deno.errors.NotFound ? "not found" : (e as Error).message.split("\n")[0] };
  }
}

/**
 * Why `DENORT_BIN` cannot be the runtime `deno compile` embeds, or undefined when it may be. The deno CLI itself is
 * refused: built on it, the "binary" is a plain Deno that ignores the embedded program.
 */
export async function denortProblem(path: string): Promise<string | undefined> {
  const r = await probe(path, ["--version"]);
  if ("error" in r) return `DENORT_BIN=${path} cannot be run (${r.error})`;
  if (/^deno \d+\.\d+\.\d+/.test(r.text) && /\bv8\b/.test(r.text)) {
    return `DENORT_BIN=${path} is the deno CLI, not the denort runtime (it printed '${r.text.split("\n")[0]}'); ` +
      "point it at the denort binary of the same Deno version";
  }
  return undefined;
}

/** Why the binary at `path` is not a ptc, or undefined when it answers `--version` as this ptc does. */
export async function builtProblem(path: string): Promise<string | undefined> {
  const r = await probe(path, ["--version"]);
  if ("error" in r) return `the built ${path} does not run (${r.error})`;
  if (r.code !== 0 || r.text !== `ptc ${VERSION}`) {
    return `the built ${path} does not run as ptc: --version printed '${r.text.split("\n")[0]}' (expected ` +
      `'ptc ${VERSION}'); check DENORT_BIN`;
  }
  return undefined;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      options: {
        output: { type: "string" },
        target: { type: "string" },
        "dry-run": { type: "boolean" },
        unconfined: { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    console.error(`compile: ${(e as Error).message.split("\n")[0]}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const plan: CompilePlan = {
    face: positionals,
    unconfined: values.unconfined === true,
    output: values.output,
    target: values.target,
  };
  if (plan.unconfined && positionals.length > 0) {
    console.error("compile: --unconfined builds a binary for every command; drop the command or --unconfined");
    return 2;
  }
  const { flags, problems } = await bakedFlags(plan);
  if (problems.length > 0) {
    for (const p of problems) console.error(`compile: ${p}`);
    return 2;
  }
  const args = compileArgs(plan, flags);
  if (values["dry-run"]) {
    console.log(JSON.stringify({ deno: args }));
    return 0;
  }
  console.error(`compile: deno ${args.join(" ")}`);
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) {
    const problem = await denortProblem(denort);
    if (problem) {
      console.error(`compile: ${problem}`);
      return 2;
    }
    console.error(`compile: using DENORT_BIN=${denort}`);
  }
  const child = new Deno.Command(Deno.execPath(), { args, stdout: "inherit", stderr: "piped" }).spawn();
  const { code, stderr } = await child.output();
  const text = new TextDecoder().decode(stderr);
  if (code !== 0) {
    Deno.stderr.writeSync(stderr);
    if (!denort && /denort|dl\.deno\.land|download/i.test(text)) {
      console.error(
        "compile: deno compile could not download its denort runtime; set DENORT_BIN=/path/to/denort " +
          "(the denort binary of the same Deno version) and run again",
      );
    }
    return code;
  }
  const output = args[args.indexOf("--output") + 1];
  const broken = await builtProblem(output);
  if (broken) {
    console.error(`compile: ${broken}`);
    await Deno.remove(output).catch(() => {});
    return 1;
  }
  console.error(`compile: wrote ${output} (permissions: ${flags.join(" ")})`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
