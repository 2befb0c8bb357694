/**
 * `ptc eval --record DIR` / `--replay DIR` as a real subprocess against the Observatory fixture on loopback: the
 * recording is replayed with the fixture STOPPED (values, discovery and failures come back as recorded), the
 * answers do not depend on the order calls complete in, an unrecorded call fails loudly, budgets still count, a
 * reflected credential never reaches the recording, and broken or foreign recordings are refused naming the file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { startReflector, writeReflectorConfig } from "./reflector.ts";
import { runDeno } from "../cli/run_deno.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

const ptc = (args: string[], stdin?: string) => runDeno([MAIN, ...args], { stdin });

/** Calls in parallel (pmap), a world fault, and every discovery form over the catalog. */
const PROGRAM = `(let [r (pmap (fn [s] (tool/call 'observatory/list-traces {:org_id "acme" :status s :limit 3}))
                           ["error" "ok"])
      missing (tool/call 'observatory/get-trace {:trace-id "nope"})]
  {:statuses (mapv (fn [x] (->> x :value :traces (map :status) distinct vec)) r)
   :ids (mapv (fn [x] (->> x :value :traces (mapv :id))) r)
   :missing [(:ok missing) (:reason missing)]
   :servers (tool/servers)
   :dir (dir 'observatory)
   :apropos (apropos "cost")
   :meta (:name (meta 'observatory/get-trace))})`;

/** Three sequential calls. */
const THREE_CALLS = `(mapv (fn [id] (:reason (tool/call 'observatory/get-trace {:trace-id id}))) ["a" "b" "c"])`;

async function evalFiles(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n !== "manifest.json").sort();
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to);
  for await (const e of Deno.readDir(from)) await Deno.copyFile(join(from, e.name), join(to, e.name));
}

Deno.test("ptc eval --record / --replay: a recording replays with the Observatory stopped", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-rr-eval-" });
  await Deno.mkdir(join(dir, ".observatory"));
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 200 });
  let stopped = false;
  try {
    const config = await writeConcreteConfig(dir, server.url);
    const rec = join(dir, "rec");
    let recorded: Record<string, unknown> = {};

    await t.step("record: one file per evaluation plus a manifest", async () => {
      const r = await ptc(["eval", "--upstreams-config", config, "--record", rec, "--format", "json", PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      recorded = JSON.parse(r.stdout).value;
      assert.deepEqual(recorded.statuses, [["error"], ["ok"]]);
      assert.deepEqual(recorded.missing, [false, "not_found"]);
      const ids = recorded.ids as string[][];
      assert.ok(ids.every((l) => l.length > 0 && l.every((id) => /^trc_/.test(id))), JSON.stringify(ids));
      const jsonl = [THREE_CALLS, THREE_CALLS].map((p) => JSON.stringify(p)).join("\n") + "\n";
      const more = await ptc(["eval", "--upstreams-config", config, "--record", join(dir, "rec3"), "--jsonl"], jsonl);
      assert.equal(more.code, 0, more.stderr);
      const names = await evalFiles(join(dir, "rec3"));
      assert.equal(names.length, 2);
      assert.match(names[0], /^000001-[0-9a-f]{12}\.json$/);
      assert.equal(names[0].slice(7), names[1].slice(7), "the same program has the same hash in its file name");
      const evaluation = JSON.parse(await Deno.readTextFile(join(rec, (await evalFiles(rec))[0])));
      assert.equal(evaluation.format, "ptc-recording-evaluation");
      assert.equal(evaluation.version, 2);
      assert.equal(evaluation.program, PROGRAM);
      assert.equal(evaluation.calls.length, 3);
      assert.equal(evaluation.face, "eval");
      // version 2: each call's start offset, duration and status; the run's usage, writes and catalog snapshot
      for (const c of evaluation.calls) {
        assert.ok(c.start_ms >= 0 && c.duration_ms >= 0 && ["ok", "error"].includes(c.status), JSON.stringify(c));
      }
      assert.ok(
        evaluation.duration_ms >= Math.max(...evaluation.calls.map((c: { duration_ms: number }) => c.duration_ms)),
      );
      assert.deepEqual(evaluation.usage, { tool_calls: 3, write_calls: 0, discovery_ops: 4 });
      assert.deepEqual(evaluation.writes, []);
      const fault = evaluation.calls.find((c: { tool: string }) => c.tool === "get-trace");
      assert.deepEqual([fault.args, fault.result.ok, fault.result.reason], [{ trace_id: "nope" }, false, "not_found"]);
      const manifest = JSON.parse(await Deno.readTextFile(join(rec, "manifest.json")));
      assert.equal(manifest.format, "ptc-recording");
      assert.deepEqual(manifest.servers.map((s: { name: string }) => s.name), ["observatory"]);
      assert.match(manifest.servers[0].snapshot, /^[0-9a-f]{64}$/);
      assert.deepEqual(evaluation.snapshots, { observatory: manifest.servers[0].snapshot });
      // ptc catalog --format json names the same snapshot identity for the same config
      const catalog = await ptc(["catalog", "--upstreams-config", config, "--format", "json"]);
      assert.equal(catalog.code, 0, catalog.stderr);
      assert.equal(JSON.parse(catalog.stdout).servers[0].snapshot, manifest.servers[0].snapshot);
    });

    await t.step("recording again adds to a recording of the same catalog; anything else is refused", async () => {
      const again = join(dir, "again");
      await copyDir(rec, again);
      const r = await ptc(["eval", "--upstreams-config", config, "--record", again, "(+ 1 2)"]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual((await evalFiles(again)).map((n) => n.slice(0, 7)), ["000001-", "000002-"]);
      const text = await Deno.readTextFile(config);
      const other = join(dir, "other-limits.jsonc");
      await Deno.writeTextFile(other, applyEdits(text, modify(text, ["limits", "max_tool_calls"], 7, {})));
      const o = await ptc(["eval", "--upstreams-config", other, "--record", again, "(+ 1 2)"]);
      assert.equal(o.code, 2);
      assert.match(o.stderr, /--record .*again: it holds a recording of another catalog or other limits/);
      await Deno.writeTextFile(join(again, "notes.txt"), "mine");
      const f = await ptc(["eval", "--upstreams-config", config, "--record", again, "(+ 1 2)"]);
      assert.equal(f.code, 2);
      assert.match(f.stderr, /again\/notes\.txt is not part of a ptc recording/);
      const n = await ptc(["eval", "--upstreams-config", config, "--record", config, "(+ 1 2)"]);
      assert.equal(n.code, 2);
      assert.match(n.stderr, /--record .*upstreams\.jsonc: not a directory/);
    });

    await server.stop();
    stopped = true;

    await t.step("replay with the fixture stopped: the same value, discovery included", async () => {
      for (const withConfig of [["--upstreams-config", config], []]) {
        const r = await ptc(["eval", ...withConfig, "--replay", rec, "--format", "json", PROGRAM]);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout).value, recorded);
      }
    });

    await t.step("answers do not depend on the order calls completed in (pmap)", async () => {
      const reordered = join(dir, "reordered");
      await copyDir(rec, reordered);
      const file = join(reordered, (await evalFiles(reordered))[0]);
      const evaluation = JSON.parse(await Deno.readTextFile(file));
      evaluation.calls.reverse();
      await Deno.writeTextFile(file, JSON.stringify(evaluation));
      const r = await ptc(["eval", "--upstreams-config", config, "--replay", reordered, "--format", "json", PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).value, recorded);
      // Another program making the same calls in another order replays from the whole recording, and says so.
      const swapped = PROGRAM.replace(`["error" "ok"]`, `["ok" "error"]`);
      const s = await ptc(["eval", "--upstreams-config", config, "--replay", rec, "--format", "json", swapped]);
      assert.equal(s.code, 0, s.stderr);
      assert.deepEqual(JSON.parse(s.stdout).value.statuses, [["ok"], ["error"]]);
      assert.match(s.stderr, /replay: no unused recorded evaluation of this program/);
    });

    await t.step("a call that is not in the recording fails loudly, naming the tool", async () => {
      const r = await ptc([
        "eval",
        "--upstreams-config",
        config,
        "--replay",
        rec,
        `(or (:value (tool/call 'observatory/get-trace {:trace-id "other"})) :default)`,
      ]);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /replay_mismatch: tool 'observatory\/get-trace' with arguments \{"trace_id":"other"\}: this call is not in the recording/,
      );
      assert.match(r.stderr, /this program has no unused recorded evaluation, so only the recording's reads answer it/);
      assert.doesNotMatch(r.stdout, /:default/);
      // a recorded answer is used once: the same call a second time is not in the recording either
      const twice = `(do (tool/call 'observatory/get-trace {:trace-id "nope"})
                         (tool/call 'observatory/get-trace {:trace-id "nope"}))`;
      const t2 = await ptc(["eval", "--upstreams-config", config, "--replay", rec, twice]);
      assert.equal(t2.code, 1);
      assert.match(t2.stderr, /replay_mismatch: .*get-trace/);
    });

    await t.step("replayed calls count against the budgets in force", async () => {
      const text = await Deno.readTextFile(config);
      const tight = join(dir, "tight.jsonc");
      await Deno.writeTextFile(tight, applyEdits(text, modify(text, ["limits", "max_tool_calls"], 2, {})));
      const r = await ptc(["eval", "--upstreams-config", tight, "--replay", join(dir, "rec3"), THREE_CALLS]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "[:not_found :not_found :cap_exhausted]");
      assert.match(r.stderr, /warning: budget exhausted — 1 tool call\(s\) refused/);
      assert.match(r.stderr, /replay: limits differ from the recording \(maxToolCalls 50 → 2\)/);
      const ok = await ptc(["eval", "--upstreams-config", config, "--replay", join(dir, "rec3"), THREE_CALLS]);
      assert.equal(ok.stdout.trim(), "[:not_found :not_found :not_found]", ok.stderr);
    });

    await t.step("broken, foreign and missing recordings are refused, naming the file", async () => {
      const cases: [string, (d: string) => Promise<void>, RegExp][] = [
        ["corrupt", async (d) => {
          await Deno.writeTextFile(join(d, (await evalFiles(d))[0]), "{ not json");
        }, /--replay .*corrupt: .*corrupt\/000001-[0-9a-f]{12}\.json: not valid JSON/],
        ["foreign", async (d) => {
          await Deno.writeTextFile(join(d, "notes.txt"), "hello");
        }, /foreign\/notes\.txt is not part of a ptc recording/],
        ["other-format", async (d) => {
          await Deno.writeTextFile(join(d, (await evalFiles(d))[0]), JSON.stringify({ format: "something", x: 1 }));
        }, /other-format\/000001-[0-9a-f]{12}\.json: not a ptc recording file/],
        ["version", async (d) => {
          const m = JSON.parse(await Deno.readTextFile(join(d, "manifest.json")));
          await Deno.writeTextFile(join(d, "manifest.json"), JSON.stringify({ ...m, version: 99 }));
        }, /version\/manifest\.json: recording format version 99 is not supported \(this ptc reads versions 1 and 2/],
        ["malformed", async (d) => {
          const file = join(d, (await evalFiles(d))[0]);
          const e = JSON.parse(await Deno.readTextFile(file));
          e.calls[0].result = { ok: "maybe" };
          await Deno.writeTextFile(file, JSON.stringify(e));
        }, /malformed\/000001-[0-9a-f]{12}\.json: malformed recording at \/calls\/0\/result/],
        ["renamed", async (d) => {
          const name = (await evalFiles(d))[0];
          await Deno.rename(join(d, name), join(d, `000007-${name.slice(7)}`));
        }, /renamed\/000007-[0-9a-f]{12}\.json: the name does not match its sequence 1/],
        [
          "no-manifest",
          (d) => Deno.remove(join(d, "manifest.json")),
          /no-manifest: not a ptc recording \(no manifest\.json/,
        ],
      ];
      for (const [name, damage, expected] of cases) {
        const d = join(dir, name);
        await copyDir(rec, d);
        await damage(d);
        const r = await ptc(["eval", "--replay", d, PROGRAM]);
        assert.equal(r.code, 2, `${name}: ${r.stderr}`);
        assert.match(r.stderr, expected, name);
        assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      }
      const missing = await ptc(["eval", "--replay", join(dir, "nowhere"), "1"]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--replay .*nowhere: no such directory/);
      const file = await ptc(["eval", "--replay", config, "1"]);
      assert.equal(file.code, 2);
      assert.match(file.stderr, /--replay .*upstreams\.jsonc: not a directory/);
      const both = await ptc(["eval", "--record", join(dir, "x"), "--replay", rec, "1"]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--record and --replay exclude each other/);
    });
  } finally {
    if (!stopped) await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

const CANARY = `canary-${crypto.randomUUID()}`;

Deno.test("ptc eval --record: a credential the upstream reflects never reaches the recording", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-rr-canary-" });
  const reflector = startReflector();
  try {
    const config = await writeReflectorConfig(dir, reflector.addr.port, CANARY);
    const rec = join(dir, "rec");
    const program = `[(tool/call 'reflect/echo {:q "hi"}) (tool/call 'reflect/echo {:q "fail"})
                      (tool/call 'reflect/whoami {})]`;
    const r = await ptc(["eval", "--upstreams-config", config, "--record", rec, program]);
    assert.equal(r.code, 0, r.stderr);
    let all = "";
    for await (const e of Deno.readDir(rec)) all += await Deno.readTextFile(join(rec, e.name));
    assert.ok(!all.includes(CANARY), "the canary reached the recording");
    assert.match(all, /"token": "\[REDACTED\]"/);
    assert.match(all, /"ok": false,\s+"reason": "[a-z_]+",\s+"message": "[^"]*\[REDACTED\]/);
    await reflector.shutdown();
    const replayed = await ptc(["eval", "--replay", rec, program]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, r.stdout);
  } finally {
    await reflector.shutdown().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
