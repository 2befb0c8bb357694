/**
 * The sandbox process's command line is honoured by the real process: the heap cap and the young-generation tuning
 * (`SANDBOX_V8_TUNING`) are seen from inside it through V8's own heap statistics.
 */
import assert from "node:assert/strict";
import { SANDBOX_V8_TUNING, sandboxCommand, spawnSandboxChild } from "../../src/sandbox/spawn.ts";

const PROBE = new URL("./v8_probe.ts", import.meta.url);
const MiB = 1024 * 1024;

async function probe(args: string[]): Promise<{ newSpace: number; heapLimit: number }> {
  const child = spawnSandboxChild(Deno.execPath(), args);
  await child.stdin.close();
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(text);
}

Deno.test("spawn: a sandbox process runs with its heap cap and a young generation at its full size", async () => {
  const { args } = sandboxCommand({ entry: PROBE, heapMb: 64 });
  assert.ok(args.some((a) => a.startsWith("--v8-flags=") && a.includes(SANDBOX_V8_TUNING[0])), args.join(" "));
  const tuned = await probe(args);
  assert.ok(tuned.heapLimit < 256 * MiB, `heap limit ${tuned.heapLimit}`);
  // The same process without the tuning grows its young generation more slowly over the same garbage.
  const plain = await probe(args.map((a) => a.startsWith("--v8-flags=") ? "--v8-flags=--max-old-space-size=64" : a));
  assert.ok(tuned.newSpace >= 2 * plain.newSpace, `new space ${tuned.newSpace}, untuned ${plain.newSpace}`);
});
