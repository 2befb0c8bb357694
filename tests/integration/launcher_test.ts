/**
 * `bin/ptc` itself: reached through a symlink on PATH from any directory, paths with spaces, the `--unconfined`
 * opt-out, and a clear message when the checkout has no pinned Deno.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cleanEnv, elsewhere, launch, launchedFlags, LAUNCHER } from "./launcher_helpers.ts";
import { codeNeeds } from "../../src/cli/face_needs.ts";

Deno.test("bin/ptc through a symlink on PATH, from another directory, with a space in the config's path", async () => {
  const dir = await elsewhere();
  try {
    const bin = join(dir, "bin dir");
    await Deno.mkdir(bin);
    await Deno.symlink(LAUNCHER, join(bin, "ptc"));
    const data = join(dir, "my data.json");
    await Deno.writeTextFile(data, JSON.stringify([1, 2, 3]));
    const out = await new Deno.Command("sh", {
      args: ["-c", 'ptc eval --data "$1" "(reduce + data)"', "sh", data],
      cwd: dir,
      clearEnv: true,
      env: cleanEnv({ PATH: `${bin}:${Deno.env.get("PATH")}`, PTC_LAUNCHER_DEBUG: "1" }),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout), "6\n");
    // it read the file under a read grant naming it (not a blanket --allow-read)
    assert.match(stderr, new RegExp(`--allow-read=(\\S*,)?${data.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    assert.ok(!/--allow-read( |$)/m.test(stderr), stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/ptc --unconfined opts out; a command it does not know still gets ptc's own usage error", async () => {
  const dir = await elsewhere();
  try {
    const r = await launch(["--unconfined", "eval", "(+ 1 2)"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "3\n");
    const unknown = await launch(["nope"], { cwd: dir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /ptc: unknown command 'nope'/);
    // an unknown command needs nothing but the read that loads ptc's own modules (to print its usage error)
    assert.deepEqual(launchedFlags(unknown.stderr), [`--allow-read=${codeNeeds("source").read.join(",")}`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/ptc in a checkout without node_modules says to run npm ci", async () => {
  const dir = await elsewhere();
  try {
    await Deno.mkdir(join(dir, "bin"));
    await Deno.copyFile(LAUNCHER, join(dir, "bin/ptc"));
    await Deno.chmod(join(dir, "bin/ptc"), 0o755);
    const out = await new Deno.Command(join(dir, "bin/ptc"), {
      args: ["eval", "1"],
      clearEnv: true,
      env: cleanEnv(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 127);
    assert.match(new TextDecoder().decode(out.stderr), /^ptc: no pinned Deno in .*node_modules \(run `npm ci` in /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
