/**
 * Overlays end to end, as a user runs them: through `bin/ptc` from a working directory outside the checkout, under
 * exactly the flags `ptc permissions` prints — `ptc catalog` on a config with two overlays (a YAML and a JSON one),
 * `ptc catalog --operations DOC --overlay F` and `ptc init openapi DOC --overlay F -o FILE`, whose config then
 * compiles with `ptc catalog` and names the overlay relative to itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { elsewhere, launchConfined } from "./launcher_helpers.ts";

const DATA = new URL("../transports/openapi/data/overlays/", import.meta.url).pathname;
const FILES = ["pets.openapi.yaml", "curate.overlay.yaml", "later.overlay.json"];

Deno.test("overlays through bin/ptc under the printed flags, from another directory", async (t) => {
  const cwd = await elsewhere();
  try {
    await Deno.mkdir(join(cwd, "api"));
    for (const f of FILES) await Deno.copyFile(join(DATA, f), join(cwd, "api", f));
    await Deno.writeTextFile(
      join(cwd, "api", "ptc.jsonc"),
      JSON.stringify({
        upstreams: {
          pets: {
            transport: "openapi",
            base_url: "https://pets.example.com",
            schema_file: "pets.openapi.yaml",
            overlays: ["curate.overlay.yaml", "later.overlay.json"],
            include_operations: ["listPets", "showPetById", "adminDump"],
          },
        },
      }),
    );

    /** Run through the launcher; check it ran under exactly `ptc permissions` of the same arguments. */
    const face = (args: string[]) => launchConfined(args, { cwd });

    await t.step("catalog of a config with overlays", async () => {
      const r = await face(["catalog", "--upstreams-config", "api/ptc.jsonc"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^pets \(2 tools\)/m);
      assert.match(r.stdout, /pets\/all-pets \{/);
      assert.match(r.stdout, /pets\/pet \{/);
      assert.doesNotMatch(r.stdout, /admin/);
      assert.match(
        r.stderr,
        /later\.overlay\.json: actions\[1\] \(target "\$\.paths\['\/nowhere'\]\.get"\): matches nothing/,
      );
      const read = r.flags.find((f) => f.startsWith("--allow-read="))!;
      for (const f of FILES) assert.ok(read.includes(join(cwd, "api", f)), `${f} in ${read}`);
      assert.ok(r.flags.some((f) => /^--allow-env=.*LOG_STREAM,LOG_TOKENS/.test(f)), `${r.flags}`);
    });

    await t.step("catalog --operations DOC --overlay F", async () => {
      const r = await face([
        "catalog",
        "--operations",
        "api/pets.openapi.yaml",
        "--overlay",
        "api/curate.overlay.yaml",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^\+ listPets +GET \/pets → pets$/m);
      assert.match(r.stdout, /^\+ showPetById +GET \/pets\/\{petId\} → pet$/m);
      assert.match(
        r.stdout,
        /^- adminDump +GET \/admin\/dump: disabled by x-mcp-enabled: false \(in the document or an overlay\)$/m,
      );
      assert.doesNotMatch(r.stdout, /legacyList/);
      assert.deepEqual(r.flags.filter((f) => f.startsWith("--allow-net")), []);
    });

    await t.step("init openapi DOC --overlay F -o FILE, then catalog of what it wrote", async () => {
      await Deno.mkdir(join(cwd, "gen"));
      const r = await face([
        "init",
        "openapi",
        "api/pets.openapi.yaml",
        "--name",
        "pets",
        "--overlay",
        "api/curate.overlay.yaml",
        "-o",
        "gen/ptc.jsonc",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.flags.includes(`--allow-write=${join(cwd, "gen", "ptc.jsonc")}`), `${r.flags}`);
      const config = parseJsonc(await Deno.readTextFile(join(cwd, "gen", "ptc.jsonc")));
      assert.deepEqual(config.upstreams.pets.overlays, ["../api/curate.overlay.yaml"]);
      assert.deepEqual(config.upstreams.pets.include_operations, ["listPets", "showPetById"]);
      const catalog = await face(["catalog", "--upstreams-config", "gen/ptc.jsonc"]);
      assert.equal(catalog.code, 0, catalog.stderr);
      assert.match(catalog.stdout, /pets\/pets \{/);
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
