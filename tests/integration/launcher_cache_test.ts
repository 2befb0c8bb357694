/**
 * `bin/ptc`'s flag cache: a second identical launch reuses the flags step 1 computed, and a changed config file, a
 * changed environment variable step 1 read or `PTC_LAUNCH_CACHE=0` never reuses them (the flags always match what
 * `ptc permissions` computes for the current inputs).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { elsewhere, launch } from "./launcher_helpers.ts";

const cacheLine = (stderr: string) => /^ptc: flags from cache: (yes|no)$/m.exec(stderr)?.[1];
const flagsLine = (stderr: string) => /^ptc: .* run .*$/m.exec(stderr)?.[0] ?? "";
/** The paths the launch line's `--allow-read` grants (ptc's own code directories among them when run from source). */
const readGrants = (stderr: string) => (/--allow-read=(\S+)/.exec(flagsLine(stderr))?.[1] ?? "").split(",");

Deno.test("bin/ptc reuses computed flags only while the command line, config files and environment are unchanged", async () => {
  const dir = await elsewhere();
  try {
    const env = { XDG_CACHE_HOME: join(dir, "cache") };
    const evalArgs = ["eval", "(+ 1 2)"];
    const first = await launch(evalArgs, { cwd: dir, env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "3\n");
    assert.equal(cacheLine(first.stderr), "no");
    const second = await launch(evalArgs, { cwd: dir, env });
    assert.equal(second.stdout, "3\n");
    assert.equal(cacheLine(second.stderr), "yes");
    assert.equal(flagsLine(second.stderr), flagsLine(first.stderr));
    const mode = (await Deno.stat(join(dir, "cache", "ptc", "launch"))).mode! & 0o777;
    assert.equal(mode, 0o700);

    // a config file appears where step 1 looked: the flags are computed again and now grant reading it
    const config = join(dir, "ptc.jsonc");
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: {} }));
    const withConfig = await launch(evalArgs, { cwd: dir, env });
    assert.equal(cacheLine(withConfig.stderr), "no");
    assert.ok(readGrants(withConfig.stderr).includes(config), withConfig.stderr);
    assert.ok(!readGrants(first.stderr).includes(config), first.stderr);
    assert.equal(cacheLine((await launch(evalArgs, { cwd: dir, env })).stderr), "yes");
    // its content changes: recomputed
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: {} }) + " ");
    assert.equal(cacheLine((await launch(evalArgs, { cwd: dir, env })).stderr), "no");

    // an environment variable step 1 read changes: recomputed, with the flags of the new value
    const other = join(dir, "other.jsonc");
    await Deno.writeTextFile(other, JSON.stringify({ upstreams: {} }));
    const viaEnv = await launch(evalArgs, { cwd: dir, env: { ...env, PTC_UPSTREAMS: other } });
    assert.equal(cacheLine(viaEnv.stderr), "no");
    assert.ok(flagsLine(viaEnv.stderr).includes(other), viaEnv.stderr);

    // another command line is another entry; PTC_LAUNCH_CACHE=0 computes every time
    assert.equal(cacheLine((await launch(["eval", "(+ 1 3)"], { cwd: dir, env })).stderr), "no");
    const off = { ...env, PTC_LAUNCH_CACHE: "0" };
    assert.equal(cacheLine((await launch(["eval", "(+ 1 4)"], { cwd: dir, env: off })).stderr), "no");
    assert.equal(cacheLine((await launch(["eval", "(+ 1 4)"], { cwd: dir, env: off })).stderr), "no");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
