/**
 * `ptc completion bash|zsh|fish` and `ptc help COMMAND`, run through the launcher from another directory as a user
 * would: the generated scripts are loaded into the real shells and asked for completions.
 */
import assert from "node:assert/strict";
import { flagsOfHelp } from "../../src/cli/completion.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const LAUNCHER = `${ROOT}bin/ptc`;

for (const shell of ["bash", "zsh", "fish"]) {
  const found = await new Deno.Command("sh", { args: ["-c", `command -v ${shell}`], stdout: "null" }).output();
  if (!found.success) throw new Error(`these tests need ${shell} (apt-get install -y zsh fish; .ci/run installs them)`);
}

async function run(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function script(shell: string, dir: string): Promise<string> {
  const r = await run(LAUNCHER, ["completion", shell], dir);
  assert.equal(r.code, 0, r.stderr);
  const path = `${dir}/ptc.${shell}`;
  await Deno.writeTextFile(path, r.stdout);
  return path;
}

Deno.test("flagsOfHelp finds long and short options, once each, and no words inside other words", () => {
  assert.deepEqual(
    flagsOfHelp("Usage: ptc x [-f FILE] [--format text|json]\n  --format again, some-word --no-prompt"),
    [
      "-f",
      "--format",
      "--no-prompt",
    ],
  );
});

Deno.test("ptc completion: bash, fish and zsh complete commands, subcommands and each command's own flags", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-completion-" });
  try {
    const bash = await script("bash", dir);
    const b = await run("bash", [
      "-c",
      `source ${bash}
       COMP_WORDS=(ptc ev); COMP_CWORD=1; _ptc; echo "1:\${COMPREPLY[*]}"
       COMP_WORDS=(ptc mcp --max-t); COMP_CWORD=2; _ptc; echo "2:\${COMPREPLY[*]}"
       COMP_WORDS=(ptc init op); COMP_CWORD=2; _ptc; echo "3:\${COMPREPLY[*]}"
       COMP_WORDS=(ptc eval --http); COMP_CWORD=2; _ptc; echo "4:\${COMPREPLY[*]}"`,
    ], dir);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(b.stdout.trim().split("\n"), ["1:eval", "2:--max-tool-calls", "3:openapi", "4:"]);

    const fish = await script("fish", dir);
    const f = await run("fish", [
      "-c",
      `source ${fish}; complete -C "ptc ev"; complete -C "ptc mcp --sandbox-h"; complete -C "ptc completion z"`,
    ], dir);
    assert.equal(f.code, 0, f.stderr);
    assert.deepEqual(f.stdout.trim().split("\n"), ["eval\tevaluate a PTC-Lisp program", "--sandbox-heap-mb", "zsh"]);

    const zsh = await script("zsh", dir);
    const z = await run("zsh", ["-c", `autoload -U compinit; compinit -u -D; source ${zsh}; whence -w _ptc`], dir);
    assert.equal(z.code, 0, z.stderr);
    assert.equal(z.stdout.trim(), "_ptc: function");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc help COMMAND prints that command's help; an unknown one is named with a suggestion", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-help-" });
  try {
    const ok = await run(LAUNCHER, ["help", "eval"], dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^Usage: ptc eval /);
    const bad = await run(LAUNCHER, ["help", "evl"], dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^ptc: help: unknown command 'evl' \(did you mean "eval"\?\)/);
    const unknown = await run(LAUNCHER, ["catlog"], dir);
    assert.match(unknown.stderr, /unknown command 'catlog' \(did you mean "catalog"\?\)/);
    const bogus = await run(LAUNCHER, ["completion", "tcsh"], dir);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /unknown shell 'tcsh'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
