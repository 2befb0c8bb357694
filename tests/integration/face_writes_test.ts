/**
 * What the person sees of writes outside MCP: `ptc eval` (text: a `Writes:` line on stderr; `--format json`: a
 * `writes` list) and `ptc repl` list each write an evaluation performed with its mutation state, through a real stdio
 * MCP fixture whose write tools are installed by `allow_writes: true` and `--allow-writes`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, stdioFixture } from "../transports/mcp_common/helpers.ts";
import { runRepl } from "./repl_fixture.ts";
import { runPtc as ptc } from "./ptc_process.ts";

/** `ptc eval --upstreams-config CONFIG --allow-writes [--format json] [MORE…] PROGRAM`. */
function evalWrites(config: string, program: string, json = false, more: string[] = []) {
  const format = json ? ["--format", "json"] : [];
  return ptc(["eval", "--upstreams-config", config, "--allow-writes", ...format, ...more, program]);
}

async function withWriteConfig(fn: (config: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-face-writes-" });
  try {
    const config = join(dir, "ptc.json");
    const fx = {
      ...stdioFixture(),
      cwd: ROOT,
      allow_writes: true,
      tools: {
        echo: { effect: "read" },
        delete_item: { effect: "write", as: "remove-item" },
        fail: { effect: "write" },
        rpc_error: { effect: "write" },
      },
    };
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: { fx } }));
    await fn(config);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const TWO_WRITES = `(do (tool/call 'fx/remove-item {:id "7"}) (tool/call 'fx/fail {:reason "no"}) :done)`;

Deno.test("ptc eval lists the writes of an evaluation: stderr line in text, a writes list in JSON", async () => {
  await withWriteConfig(async (config) => {
    const text = await evalWrites(config, TWO_WRITES);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, ":done\n", "stdout stays the answer");
    assert.ok(
      text.stderr.split("\n").includes("Writes: fx/remove-item applied, fx/fail not_applied"),
      text.stderr,
    );

    const json = await evalWrites(config, TWO_WRITES, true);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).writes, [
      { server: "fx", tool: "remove-item", mutation_state: "applied" },
      { server: "fx", tool: "fail", mutation_state: "not_applied" },
    ]);

    // A program that wrote and then failed still says what it changed.
    const failed = await evalWrites(config, `(do (tool/call 'fx/remove-item {:id "8"}) (/ 1 0))`, true);
    assert.equal(failed.code, 1);
    const out = JSON.parse(failed.stdout);
    assert.equal(out.ok, false);
    assert.deepEqual(out.writes, [{ server: "fx", tool: "remove-item", mutation_state: "applied" }]);

    // Reads only: no Writes line and no writes field.
    const reads = await evalWrites(config, "(tool/call 'fx/echo {:a 1})", true);
    assert.equal(reads.code, 0, reads.stderr);
    assert.equal(JSON.parse(reads.stdout).writes, undefined);
    const readsText = await evalWrites(config, "(tool/call 'fx/echo {:a 1})");
    assert.ok(!readsText.stderr.includes("Writes:"), readsText.stderr);
  });
});

Deno.test("ptc repl lists the writes of each evaluation after its answer", async () => {
  await withWriteConfig(async (config) => {
    const r = await runRepl(
      ["--upstreams-config", config, "--allow-writes", "-e", TWO_WRITES, "-e", "(:ok (tool/call 'fx/echo {:a 1}))"],
      { env: { NO_COLOR: "1" } },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, ":done\ntrue\n");
    assert.deepEqual(r.stderr.split("\n").filter((l) => l.startsWith("Writes:")), [
      "Writes: fx/remove-item applied, fx/fail not_applied",
    ]);
  });
});

Deno.test("ptc eval --record / --replay: a write refused with a JSON-RPC error replays as not_applied", async () => {
  await withWriteConfig(async (config) => {
    const dir = await Deno.makeTempDir({ prefix: "ptc-face-writes-rec-" });
    try {
      const program = `(:mutation_state (tool/call 'fx/rpc-error {:message "no such row"}))`;
      const live = await evalWrites(config, program, true, ["--record", join(dir, "rec")]);
      assert.equal(live.code, 0, live.stderr);
      const replayed = await evalWrites(config, program, true, ["--replay", join(dir, "rec")]);
      assert.equal(replayed.code, 0, replayed.stderr);
      for (const r of [live, replayed]) {
        const out = JSON.parse(r.stdout);
        assert.equal(out.printed, ":not_applied");
        assert.deepEqual(out.writes, [{ server: "fx", tool: "rpc-error", mutation_state: "not_applied" }]);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
