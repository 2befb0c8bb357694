/**
 * What `ptc eval` loads before it answers. bin/ptc loads each of ptc's modules on first use, and Deno checks such a
 * load like a read; so the face is run from another directory under the flags `ptc permissions` prints, as bin/ptc
 * runs it, plus `--deny-read` of the modules a program run without a config must not load in the host: the
 * interpreter (the sandbox process has its own), the config parser and its schema tooling, the run context and its
 * argument checks, the recorder and replayer, every transport. Loading one of them fails the run. Module loading is
 * what start-up spends its time on, so this is the start-up budget checked without timing anything (the figures are
 * `deno task bench startup`'s).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { elsewhere, MAIN, printedFlags, ROOT, runDeno } from "./launcher_helpers.ts";

/** Every module file under `dir` (checkout-relative), recursively. */
function modulesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(ROOT, dir))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...modulesUnder(rel));
    else if (e.name.endsWith(".ts")) out.push(rel);
  }
  return out;
}

/** Modules only a run with a config, a recording or upstream calls needs. */
const NOT_WITHOUT_CONFIG = [
  ...modulesUnder("src/lisp").filter((m) => m !== "src/lisp/default_limits.ts"),
  ...modulesUnder("transports"),
  "src/upstream/config.ts",
  "src/upstream/schema_check.ts",
  "src/upstream/host_schema.ts",
  "src/upstream/linear_pattern.ts",
  "src/upstream/run_context.ts",
  "src/upstream/tool_call.ts",
  "src/engine/recorder.ts",
  "src/engine/replayer.ts",
  "src/engine/recording_format.ts",
];

async function evalDenying(args: string[], cwd: string, deny: string[]) {
  const flags = await printedFlags(args, cwd);
  const denied = `--deny-read=${deny.map((m) => join(ROOT, m)).join(",")}`;
  const lazy = "--unstable-lazy-dynamic-imports";
  return await runDeno(
    ["run", "--quiet", "--no-prompt", `--config=${join(ROOT, "deno.json")}`, lazy, ...flags, denied, MAIN, ...args],
    cwd,
  );
}

Deno.test("ptc eval without a config loads neither the interpreter, the config tooling nor a transport in the host", async () => {
  const dir = await elsewhere();
  try {
    assert.ok(NOT_WITHOUT_CONFIG.length > 100, "the lists name real modules");
    const r = await evalDenying(["eval", "(+ 1 2)"], dir, NOT_WITHOUT_CONFIG);
    assert.equal(r.stderr, "");
    assert.equal(r.stdout, "3\n");
    assert.equal(r.code, 0);
    const data = join(dir, "data.json");
    await Deno.writeTextFile(data, JSON.stringify([{ cost: 1 }, { cost: 2 }]));
    const json = await evalDenying(["eval", "--format", "json", "--data", data, "(reduce + (map :cost data))"], dir, [
      ...NOT_WITHOUT_CONFIG,
    ]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).value, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the check can fail: with a config, denying the config parser stops the face", async () => {
  const dir = await elsewhere();
  try {
    const config = join(dir, "ptc.jsonc");
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: {} }));
    const args = ["eval", "--upstreams-config", config, "(+ 1 2)"];
    const ok = await evalDenying(args, dir, ["src/lisp/reader.ts"]);
    assert.equal(ok.stdout, "3\n", ok.stderr);
    const denied = await evalDenying(args, dir, ["src/upstream/config.ts"]);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /src\/upstream\/config\.ts/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
