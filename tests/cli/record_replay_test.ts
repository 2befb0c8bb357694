import assert from "node:assert/strict";
import { join } from "node:path";
import { faceNeeds, sandboxNeeds } from "../../src/cli/face_needs.ts";
import { FlagError, parseMcpFlags } from "../../src/cli/mcp_flags.ts";
import { recordReplayChoice } from "../../src/cli/record_replay.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const EXAMPLE = join(ROOT, "upstreams.example.jsonc");
const LIBRARY = join(ROOT, "fixtures/observatory/lib/oncall.clj");
const TOKEN = join(ROOT, ".observatory/observatory.token");
const SANDBOX = sandboxNeeds("source");
const noEnv = () => undefined;

const needs = async (command: string, args: string[]) => {
  const r = await faceNeeds(command, args, { env: noEnv, target: "source" });
  assert.deepEqual(r.problems, []);
  return r.needs;
};

Deno.test("--record and --replay exclude each other and need a DIR", () => {
  assert.deepEqual(recordReplayChoice(undefined, undefined), {});
  assert.deepEqual(recordReplayChoice("d", undefined), { record: "d" });
  assert.deepEqual(recordReplayChoice(undefined, "d"), { replay: "d" });
  assert.match(recordReplayChoice("a", "b") as string, /--record and --replay exclude each other/);
  assert.match(recordReplayChoice(" ", undefined) as string, /--record needs a DIR/);
});

Deno.test("ptc mcp: --record / --replay with their PTC_RECORD / PTC_REPLAY fallbacks", () => {
  assert.deepEqual(parseMcpFlags([], noEnv).recordReplay, {});
  assert.deepEqual(parseMcpFlags(["--record", "r"], noEnv).recordReplay, { record: "r" });
  assert.deepEqual(parseMcpFlags([], (n) => n === "PTC_REPLAY" ? "/rec" : undefined).recordReplay, { replay: "/rec" });
  assert.throws(() => parseMcpFlags(["--record", "a", "--replay", "b"], noEnv), FlagError);
  assert.throws(
    () => parseMcpFlags(["--record", "a"], (n) => n === "PTC_REPLAY" ? "/rec" : undefined),
    /exclude each other/,
  );
});

Deno.test("record: the config's needs plus DIR read and written", async () => {
  const n = await needs("eval", ["--upstreams-config", EXAMPLE, "--record", "rec", "1"]);
  const rec = join(Deno.cwd(), "rec");
  assert.deepEqual(n.net, ["127.0.0.1:8765"]);
  assert.deepEqual(n.write, [rec]);
  assert.ok(n.read.includes(rec) && n.read.includes(TOKEN));
});

Deno.test("replay: DIR, the config and its libraries read; nothing of the upstreams", async () => {
  for (const command of ["eval", "mcp"]) {
    const n = await needs(command, [
      "--upstreams-config",
      EXAMPLE,
      "--replay",
      "rec",
      ...(command === "eval" ? ["1"] : []),
    ]);
    assert.deepEqual(n.net, [], command);
    assert.deepEqual(n.write, [], command);
    assert.deepEqual(n.run, SANDBOX.run, `${command}: no upstream command`);
    assert.deepEqual(n.read, [EXAMPLE, LIBRARY, join(Deno.cwd(), "rec"), ...SANDBOX.read].sort(), command);
    assert.ok(!n.env.includes("PATH"), `${command}: ${n.env}`);
  }
});
