/**
 * `deno task compile -- FACE ARGS…` bakes exactly the flags the launcher computes for that face (for a compiled
 * binary: without the reads of the sandbox's source modules, which it embeds), includes the modules the sandbox
 * loads dynamically, and — where a `denort` runtime is available (`DENORT_BIN`) — the binary it builds runs the face.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { builtProblem, denortProblem, INCLUDED } from "../../scripts/compile.ts";
import { codeNeeds, sandboxNeeds } from "../../src/cli/face_needs.ts";
import { mergeNeeds } from "../../src/cli/needs.ts";
import { SANDBOX_V8_TUNING } from "../../src/sandbox/spawn.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const EXAMPLE = join(ROOT, "upstreams.example.jsonc");
const dec = new TextDecoder();

async function deno(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** `deno task compile --dry-run ARGS…` (the task's own permissions). */
const dryRun = (args: string[]) =>
  deno([
    "run",
    "--allow-read",
    "--allow-env",
    "--allow-run",
    "--allow-write",
    "scripts/compile.ts",
    "--dry-run",
    ...args,
  ]);

/** The `deno compile` arguments `scripts/compile.ts --dry-run` would run. */
async function planned(args: string[]): Promise<string[]> {
  const r = await dryRun([
    ...args,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).deno;
}

async function permissions(args: string[]): Promise<string[]> {
  const r = await deno(["run", "--allow-read", "--allow-env", "main.ts", "permissions", "--format", "lines", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.split("\n").filter(Boolean);
}

const FACES = [
  ["mcp", "--http", "127.0.0.1:7332", "--upstreams-config", EXAMPLE],
  ["mcp", "--upstreams-config", EXAMPLE],
  ["eval", "--upstreams-config", EXAMPLE],
  ["doctor", "--connect", "--upstreams-config", EXAMPLE],
];

for (const face of FACES) {
  Deno.test(`compile -- ${face.slice(0, 2).join(" ")}: the launcher's flags, baked`, async () => {
    const args = await planned(["--", ...face]);
    assert.deepEqual(args.slice(0, 2), ["compile", "--no-prompt"]);
    const baked = args.filter((a) => a.startsWith("--allow-"));
    assert.ok(baked.length > 0);
    // what bin/ptc runs from source, with the sandbox executable (deno) replaced by the binary itself and without
    // the read of ptc's own module folders (a compiled binary embeds its modules)
    const source = mergeNeeds(sandboxNeeds("source"), codeNeeds("source"));
    const output = join(ROOT, `dist/ptc-${face[0]}`);
    const launcher = (await permissions(face)).map((f) => {
      for (const [flag, list] of [["--allow-read=", source.read], ["--allow-run=", source.run]] as const) {
        if (!f.startsWith(flag)) continue;
        const rest = f.slice(flag.length).split(",").filter((p) => !list.includes(p));
        if (flag === "--allow-run=" && source.run.length && face[0] !== "doctor") rest.push(output);
        return rest.length ? `${flag}${rest.sort().join(",")}` : "";
      }
      return f;
    }).filter(Boolean);
    assert.deepEqual(baked, launcher);
    for (const f of baked) assert.match(f, /^--allow-(net|read|write|env|run)=./, "no blanket permission");
    for (const m of INCLUDED) {
      assert.equal(args[args.indexOf(m) - 1], "--include");
      assert.ok(Deno.statSync(join(ROOT, m)).isFile, `${m} exists`);
    }
    // the binary is its own sandbox process: the sandbox's V8 tuning is baked in (it cannot be passed at run time)
    assert.ok(args.includes(`--v8-flags=${SANDBOX_V8_TUNING.join(",")}`), args.join(" "));
    assert.equal(args[args.indexOf("--output") + 1], `dist/ptc-${face[0]}`);
    assert.equal(args.at(-1), "main.ts");
  });
}

Deno.test("compile without a face refuses in one line; --unconfined bakes the broad flags", async () => {
  const r = await dryRun([]);
  assert.equal(r.code, 2);
  assert.match(r.stderr.trim(), /^compile: name the face to build: -- eval\|repl\|mcp/);
  const broad = await planned(["--unconfined"]);
  assert.ok(broad.includes("--allow-net") && broad.includes("--output") && broad.includes("dist/ptc"));
});

Deno.test({
  name: "compile: the built binary runs its face (needs DENORT_BIN)",
  ignore: !Deno.env.get("DENORT_BIN"),
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const output = join(dir, "ptc-eval");
      const r = await deno(["run", "-A", "scripts/compile.ts", "--output", output, "--", "eval"]);
      assert.equal(r.code, 0, r.stderr);
      const run = await new Deno.Command(output, { args: ["eval", "(+ 1 2)"], stdout: "piped", stderr: "piped" })
        .output();
      assert.equal(dec.decode(run.stdout).trim(), "3", dec.decode(run.stderr));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("compile refuses a DENORT_BIN that is the deno CLI, before building anything", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const output = join(dir, "ptc-eval");
    const r = await deno(["run", "-A", "scripts/compile.ts", "--output", output, "--", "eval"], {
      DENORT_BIN: Deno.execPath(),
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /compile: DENORT_BIN=.* is the deno CLI, not the denort runtime \(it printed 'deno \d/);
    await assert.rejects(() => Deno.stat(output), Deno.errors.NotFound);
    assert.match((await denortProblem(join(dir, "nope")))!, /cannot be run \(not found\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compile's check of the built binary: it must answer --version as this ptc", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fake = join(dir, "fake");
    await Deno.writeTextFile(fake, "#!/bin/sh\necho 'deno 2.9.6 (stable)'\n", { mode: 0o755 });
    assert.match((await builtProblem(fake))!, /does not run as ptc: --version printed 'deno 2\.9\.6 \(stable\)'/);
    const real = join(dir, "real");
    const version = (await deno(["run", "main.ts", "--version"])).stdout.trim();
    await Deno.writeTextFile(real, `#!/bin/sh\necho '${version}'\n`, { mode: 0o755 });
    assert.equal(await builtProblem(real), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
