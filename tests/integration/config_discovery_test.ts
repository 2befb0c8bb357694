/**
 * Default config discovery, the way a user meets it: `ptc init … -o ptc.jsonc`, then plain `ptc eval`/`ptc catalog`
 * in that folder, through the launcher (confined to the flags `ptc permissions` computes) with a clean environment.
 * Order: `--upstreams-config` > `$PTC_UPSTREAMS` > `./ptc.jsonc` > `$XDG_CONFIG_HOME/ptc/config.jsonc`; a config found
 * at a default place is named on stderr at start.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { launch, launchConfined } from "./launcher_helpers.ts";
import { startWorld } from "./mcp_server_helpers.ts";

const PROGRAM = `(count (:traces (:value (tool/call 'observatory/list-traces {:org_id "acme" :limit 3}))))`;

/** The world's config with its credential path made absolute, so the copy works from any folder. */
async function portableConfig(configPath: string, dir: string): Promise<string> {
  const text = await Deno.readTextFile(configPath);
  const path = join(dir, ".observatory/observatory.token");
  return applyEdits(text, modify(text, ["credentials", "observatory", "path"], path, {}));
}

Deno.test("config discovery: ./ptc.jsonc, then $XDG_CONFIG_HOME/ptc/config.jsonc; named ones win", async (t) => {
  const world = await startWorld({ mcp: false });
  const here = await Deno.makeTempDir({ prefix: "ptc-here-" });
  const xdg = await Deno.makeTempDir({ prefix: "ptc-xdg-" });
  const empty = await Deno.makeTempDir({ prefix: "ptc-empty-" });
  try {
    const config = await portableConfig(world.configPath, world.dir);
    await Deno.writeTextFile(join(here, "ptc.jsonc"), config);
    await Deno.mkdir(join(xdg, "ptc"));
    await Deno.writeTextFile(join(xdg, "ptc", "config.jsonc"), config);

    await t.step("./ptc.jsonc in the working directory", async () => {
      const r = await launchConfined(["eval", PROGRAM], { cwd: here });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "3");
      assert.match(r.stderr, new RegExp(`config: ${join(here, "ptc.jsonc")} \\(found at a default place\\)`));
      const c = await launchConfined(["catalog"], { cwd: here });
      assert.equal(c.code, 0, c.stderr);
      assert.match(c.stdout, /observatory\/list-traces/);
    });

    await t.step("$XDG_CONFIG_HOME/ptc/config.jsonc when the folder has none", async () => {
      const r = await launch(["eval", PROGRAM], { cwd: empty, env: { XDG_CONFIG_HOME: xdg } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "3");
      assert.match(r.stderr, /config: .*ptc-xdg-.*\/ptc\/config\.jsonc \(found at a default place\)/);
    });

    await t.step("without any: zero upstreams, and catalog says where it looked", async () => {
      const r = await launch(["eval", "(+ 1 2)"], { cwd: empty, env: { XDG_CONFIG_HOME: empty } });
      assert.deepEqual([r.code, r.stdout.trim()], [0, "3"]);
      assert.doesNotMatch(r.stderr, /config:/);
      const c = await launch(["catalog"], { cwd: empty, env: { XDG_CONFIG_HOME: empty } });
      assert.equal(c.code, 2);
      assert.match(c.stderr, /no config: pass --upstreams-config FILE, set PTC_UPSTREAMS, or create \.\/ptc\.jsonc/);
    });

    await t.step("PTC_UPSTREAMS and the flag beat ./ptc.jsonc", async () => {
      const broken = join(empty, "broken.jsonc");
      await Deno.writeTextFile(broken, "{ nope");
      const env = await launch(["eval", "(+ 1 2)"], { cwd: here, env: { PTC_UPSTREAMS: broken } });
      assert.equal(env.code, 2);
      assert.match(env.stderr, /broken\.jsonc:1:3: invalid JSONC/);
      const flag = await launch(["eval", "--upstreams-config", broken, "(+ 1 2)"], { cwd: here });
      assert.equal(flag.code, 2);
      assert.match(flag.stderr, /broken\.jsonc:1:3: invalid JSONC/);
    });
  } finally {
    for (const d of [here, xdg, empty]) await Deno.remove(d, { recursive: true });
    await world.close();
  }
});
