/**
 * `ptc mcp --record DIR` / `--replay DIR` through the official MCP SDK client over stdio: a session against the
 * Observatory and the MCP HTTP fixture (a read, a write, discovery) is recorded; both fixtures are STOPPED; a
 * second `ptc mcp --replay` answers the same programs — in another order, matched by program hash — with the same
 * envelopes, the write's mutation state as recorded (and nothing performed), and an unrecorded call fails loudly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { connectStdio, evalLisp, startWorld, textOf } from "./mcp_server_helpers.ts";

const READ = `(->> (tool/call 'observatory/list-traces {:org_id "acme" :status "error" :limit 3}) :value :traces
                   (mapv :id))`;
const WRITE = `(tool/call 'fixture/delete-item {:id "item-7"})`;
const DISCOVER = `[(count (dir 'fixture)) (:name (meta 'fixture/delete-item)) (count (tool/servers))]`;
/** The same read, sent twice in the recording (two answers for one program hash). */
const PROGRAMS = [READ, WRITE, DISCOVER, READ];

/** The envelope text without the timing line (elapsed times differ between runs). */
function stable(text: string): string {
  return text.split("\n").filter((l) => !/\b\d+(\.\d+)? ?ms\b/.test(l)).join("\n");
}

Deno.test("ptc mcp --record / --replay through the SDK client, fixtures stopped for the replay", async (t) => {
  const world = await startWorld({ traces: 200 });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await world.mcp?.close();
    await world.observatory.stop();
  };
  try {
    let text = await Deno.readTextFile(world.configPath);
    text = applyEdits(text, modify(text, ["read_only"], false, {}));
    await Deno.writeTextFile(
      world.configPath,
      applyEdits(text, modify(text, ["upstreams", "fixture", "allow_writes"], true, {})),
    );
    const rec = join(world.dir, "rec");
    const recorded: string[] = [];
    const profile = ["--response-profile", "debug"];

    await t.step("record a session: one file per lisp_eval", async () => {
      const client = await connectStdio("modern", [
        "--upstreams-config",
        world.configPath,
        "--allow-writes",
        "--record",
        rec,
        ...profile,
      ]);
      try {
        for (const program of PROGRAMS) {
          const r = await evalLisp(client, program);
          assert.ok(!r.isError, textOf(r));
          recorded.push(textOf(r));
        }
      } finally {
        await client.close();
      }
      assert.match(recorded[1], /Writes: fixture\/delete-item applied/);
      const names = (await Array.fromAsync(Deno.readDir(rec))).map((e) => e.name).sort();
      assert.equal(names.length, PROGRAMS.length + 1, `${names}`);
      assert.equal(names.at(-1), "manifest.json");
      const write = JSON.parse(await Deno.readTextFile(join(rec, names[1])));
      assert.deepEqual(write.calls.map((c: { effect: string; args: unknown }) => [c.effect, c.args]), [
        ["write", { id: "item-7" }],
      ]);
      // who asked and through which face, and what the write did
      assert.deepEqual([write.face, write.owner], ["mcp", "local"]);
      assert.deepEqual(write.writes, [{ server: "fixture", tool: "delete-item", mutation_state: "applied" }]);
    });

    await stop();

    await t.step("replay in another order: each program gets its own recorded answers", async () => {
      const client = await connectStdio("modern", [
        "--upstreams-config",
        world.configPath,
        "--replay",
        rec,
        ...profile,
      ]);
      try {
        for (const i of [2, 1, 0, 3]) {
          const r = await evalLisp(client, PROGRAMS[i]);
          assert.ok(!r.isError, textOf(r));
          assert.equal(stable(textOf(r)), stable(recorded[i]), `program ${i}`);
          if (i === 1) assert.match(textOf(r), /Writes: fixture\/delete-item applied/);
          if (i === 0) assert.match(textOf(r), /\["trc_[0-9a-f]{16}"/);
        }
        // the write's mutation state as recorded, and the fixture (stopped) performed nothing
        const again = await evalLisp(client, WRITE);
        assert.ok(again.isError, textOf(again));
        assert.match(textOf(again), /replay_mismatch/);
        assert.match(textOf(again), /tool 'fixture\/delete-item' with arguments \{"id":"item-7"\}/);
        const other = await evalLisp(client, `(tool/call 'fixture/delete-item {:id "item-8"})`);
        assert.ok(other.isError);
        assert.match(textOf(other), /this call is not in the recording .*a replay never contacts upstreams/);
      } finally {
        await client.close();
      }
    });

    await t.step("the lisp_eval description lists the recorded catalog", async () => {
      const client = await connectStdio("modern", ["--replay", rec]);
      try {
        const tools = await client.listTools();
        const description = tools.tools.find((x) => x.name === "lisp_eval")?.description ?? "";
        assert.match(description, /observatory/);
        assert.match(description, /fixture/);
        const r = await evalLisp(client, READ);
        assert.equal(stable(textOf(r)).split("\n")[0], stable(recorded[0]).split("\n")[0]);
      } finally {
        await client.close();
      }
    });
  } finally {
    await stop();
    await world.close();
  }
});
