/**
 * `--overlay` on the command line (subprocesses): only with `catalog --operations`, repeatable and applied in order,
 * its problems one line each with exit 2, and the JSON survey showing the overlay's effect.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const DATA = new URL("../transports/openapi/data/overlays/", import.meta.url).pathname;
const DOC = join(DATA, "pets.openapi.yaml");

async function ptc(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("ptc catalog --overlay: only with --operations; applied in order; problems exit 2 naming the file", async () => {
  const alone = await ptc(["catalog", "--overlay", join(DATA, "curate.overlay.yaml")]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /^ptc catalog: --overlay goes with --operations DOC/);
  const both = await ptc([
    "catalog",
    "--operations",
    DOC,
    "--overlay",
    join(DATA, "curate.overlay.yaml"),
    "--overlay",
    join(DATA, "later.overlay.json"),
    "--format",
    "json",
  ]);
  assert.equal(both.code, 0, both.stderr);
  const ops = JSON.parse(both.stdout) as { id: string; tool?: string; problems?: string[] }[];
  assert.equal(ops.find((o) => o.id === "listPets")?.tool, "all-pets");
  assert.deepEqual(ops.find((o) => o.id === "adminDump")?.problems, [
    "the document disables it (x-mcp-enabled: false)",
  ]);
  assert.match(
    both.stderr,
    /^ptc catalog: warning: overlays\[1\] .*later\.overlay\.json: actions\[1\] .*matches nothing/m,
  );
  const dir = await Deno.makeTempDir({ prefix: "ptc-overlay-cli-" });
  try {
    const bad = join(dir, "bad.overlay.yaml");
    await Deno.writeTextFile(bad, "overlay: 2.0.0\nactions: [{target: nope, update: {}}]\n");
    const r = await ptc(["catalog", "--operations", DOC, "--overlay", bad]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.stderr.trim().split("\n").map((l) => l.replace(bad, "F")), [
      'ptc catalog: overlays[0] F: overlay: "2.0.0" is not supported; ptc reads Overlay 1.0 documents (overlay: 1.0.0)',
      "ptc catalog: overlays[0] F: info: is required: an object with title and version",
      'ptc catalog: overlays[0] F: actions[0] (target "nope"): is not an RFC 9535 JSONPath query (Expected "$" but "n" found.)',
    ]);
    const init = await ptc(["init", "openapi", DOC, "--overlay", bad]);
    assert.equal(init.code, 2);
    assert.match(init.stderr, /^ptc init: overlays\[0\] .*: overlay: "2\.0\.0" is not supported/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
