/**
 * `deno task compile [--upstreams-config F] [--output PATH] [--target TRIPLE] [--allow-net-extra HOST:PORT,…]`
 *
 * Builds the single `ptc` binary with `deno compile`, with the permission flags baked in:
 * - with `--upstreams-config F`: exactly the minimal flags that config needs (the same as `ptc permissions`), plus
 *   any `--allow-net-extra` (e.g. the address `ptc mcp --http` listens on);
 * - without: the general flags of `deno task ptc`.
 *
 * `deno compile` needs the `denort` runtime. Deno downloads it unless the `DENORT_BIN` environment variable names a
 * local copy; this script passes `DENORT_BIN` through and, when neither works, says so in one line.
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { registerBuiltins } from "../transports/mod.ts";
import { computePermissions, permissionFlags } from "../src/upstream/permissions.ts";
import { prepareConfig } from "../src/upstream/startup.ts";

const GENERAL = ["--allow-read", "--allow-write", "--allow-net", "--allow-env", "--allow-run", "--allow-sys"];

/**
 * The compiled binary starts its sandbox processes as itself (`ptc __sandbox`), so it needs `--allow-run` for its
 * own path: the absolute output path (a binary moved elsewhere must be rebuilt, or run with a wider flag).
 */
async function flagsFor(config: string | undefined, extraNet: string[], output: string): Promise<string[]> {
  if (!config) return GENERAL;
  const registry = registerBuiltins();
  const prepared = await prepareConfig({ configFlag: config, registry, skipPermissionCheck: true });
  if (!prepared.ok) {
    for (const p of prepared.problems) console.error(`compile: ${p}`);
    Deno.exit(2);
  }
  if (!prepared.config) throw new Error("unreachable: a config flag always names a file");
  const needs = computePermissions(prepared.config, registry);
  needs.net = [...new Set([...needs.net, ...extraNet])].sort();
  needs.run = [...new Set([...needs.run, resolve(output)])].sort();
  return permissionFlags(needs);
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "upstreams-config": { type: "string" },
      output: { type: "string" },
      target: { type: "string" },
      "allow-net-extra": { type: "string" },
    },
    strict: true,
  });
  const extraNet = (values["allow-net-extra"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const output = values.output ?? "dist/ptc";
  const perms = await flagsFor(values["upstreams-config"], extraNet, output);
  const args = [
    "compile",
    ...perms,
    "--include",
    "upstreams.example.jsonc",
    "--output",
    output,
    ...(values.target ? ["--target", values.target] : []),
    "main.ts",
  ];
  console.error(`compile: deno ${args.join(" ")}`);
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) console.error(`compile: using DENORT_BIN=${denort}`);
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
    Deno.exit(code);
  }
  console.error(`compile: wrote ${output} (permissions: ${perms.join(" ")})`);
}

if (import.meta.main) await main();
