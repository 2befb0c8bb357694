/**
 * `ptc view` at the command line: usage errors and a bad recording name what is wrong in one line and exit 2, before
 * anything listens; `--help` prints the usage.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPtc } from "../integration/ptc_process.ts";

Deno.test("ptc view: usage errors, a missing or foreign recording, an unguardable bind, --help", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-cli-" });
  try {
    const none = await runPtc(["view"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^ptc view: name at least one --recordings DIR or --audit-log FILE/);
    const badListen = await runPtc(["view", "--recordings", dir, "--listen", "localhost"]);
    assert.equal(badListen.code, 2);
    assert.match(badListen.stderr, /--listen: expected HOST:PORT/);
    const missing = await runPtc(["view", "--recordings", join(dir, "nope"), "--listen", "127.0.0.1:0"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^ptc view: --recordings .*nope: cannot read the directory: no such file/);
    await Deno.writeTextFile(join(dir, "notes.txt"), "hi");
    const foreign = await runPtc(["view", "--recordings", dir, "--listen", "127.0.0.1:0"]);
    assert.equal(foreign.code, 2);
    assert.match(foreign.stderr, /notes\.txt is not part of a ptc recording/);
    const open = await runPtc(["view", "--audit-log", join(dir, "a.jsonl"), "--listen", "0.0.0.0:0"]);
    assert.equal(open.code, 2);
    assert.match(open.stderr, /off loopback requires a bearer token/);
    const help = await runPtc(["view", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: ptc view \[--recordings DIR\]/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
