/**
 * OpenAPI writes through the whole program path — `ptc eval` as a user runs it (subprocess, sandbox, engine, runtime,
 * transport) — against a loopback service that counts what it received: with the gate closed the service never sees
 * the write; with both switches on exactly one request is sent per write, and a 401, a 5xx or a timeout after the
 * service received the request is not retried and says what it knows in `:mutation_state`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startNotesService, writeNotesConfig } from "../transports/openapi/write_fixture.ts";
import { launch } from "./launcher_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

async function ptc(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", PTC_ALLOW_WRITES: "" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("ptc eval: OpenAPI writes behind the gate, sent once, with honest outcomes", async () => {
  const service = startNotesService("notes-token");
  const dir = await Deno.makeTempDir({ prefix: "ptc-eval-writes-" });
  try {
    const config = await writeNotesConfig(dir, service.url);
    const create = `(tool/call 'notes/create-note {:title "From eval" :idempotency-key "k-9"})`;

    // gate closed (no --allow-writes): a programmer fault naming the switch; nothing reaches the service
    const closed = await ptc(["eval", "--upstreams-config", config, create]);
    assert.notEqual(closed.code, 0);
    assert.match(closed.stderr + closed.stdout, /is a write tool and ptc was started without --allow-writes/);
    assert.equal(service.count("POST", "/notes"), 0);

    const program = `{:created (select-keys ${create} [:ok :mutation_state])
                      :deleted (select-keys (tool/call 'notes/delete-note {:note-id "n-1"}) [:ok :value :mutation_state])
                      :refused (select-keys (tool/call 'notes/write-outcome {:code 422}) [:reason :mutation_state])
                      :failed (select-keys (tool/call 'notes/write-outcome {:code 502}) [:reason :mutation_state])
                      :late (select-keys (tool/call 'notes/slow-write {}) [:reason :mutation_state])}`;
    const open = await ptc(["eval", "--upstreams-config", config, "--allow-writes", "--format", "json", program]);
    assert.equal(open.code, 0, open.stderr);
    assert.deepEqual(JSON.parse(open.stdout).value, {
      created: { ok: true, mutation_state: "applied" },
      deleted: { ok: true, value: null, mutation_state: "applied" },
      refused: { reason: "upstream_error", mutation_state: "not_applied" },
      failed: { reason: "upstream_unavailable", mutation_state: "indeterminate" },
      late: { reason: "timeout", mutation_state: "indeterminate" },
    });
    const post = service.received.find((r) => r.method === "POST" && r.target === "/notes")!;
    assert.deepEqual(JSON.parse(post.body), { title: "From eval" });
    assert.equal(post.headers["idempotency-key"], "k-9");
    for (const [method, path] of [["POST", "/notes"], ["DELETE", "/notes/n-1"], ["POST", "/outcome/422"]]) {
      assert.equal(service.count(method, path), 1, `${method} ${path} sent exactly once`);
    }
    assert.equal(service.count("POST", "/outcome/502"), 1, "a 5xx write is not retried");
    assert.equal(service.count("POST", "/slow"), 1, "the timed-out write was received, and not retried");

    // recorded and replayed, a write keeps the mutation state the transport knew (a 422 is not_applied, a 502
    // indeterminate), and the replay sends nothing
    const rec = join(dir, "rec");
    const outcomes = `[(:mutation_state (tool/call 'notes/write-outcome {:code 422}))
                       (:mutation_state (tool/call 'notes/write-outcome {:code 502}))]`;
    const recorded = await ptc(["eval", "--upstreams-config", config, "--allow-writes", "--record", rec, outcomes]);
    assert.equal(recorded.stdout.trim(), "[:not_applied :indeterminate]", recorded.stderr);
    const sent = service.received.length;
    const replayed = await ptc(["eval", "--upstreams-config", config, "--replay", rec, outcomes]);
    assert.equal(replayed.stdout.trim(), "[:not_applied :indeterminate]", replayed.stderr);
    assert.equal(service.received.length, sent);

    // a stale credential: the write's 401 is not retried
    await Deno.writeTextFile(join(dir, "token"), "stale");
    const stale = await ptc(["eval", "--upstreams-config", config, "--allow-writes", `(:mutation_state ${create})`]);
    assert.equal(stale.code, 0, stale.stderr);
    assert.equal(stale.stdout.trim(), ":not_applied");
    assert.equal(service.count("POST", "/notes"), 2, "one more request for the 401, no retry");
  } finally {
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/ptc eval: PTC_ALLOW_WRITES=1 opens the process half of the gate under the computed flags", async () => {
  const service = startNotesService("notes-token");
  const dir = await Deno.makeTempDir({ prefix: "ptc-eval-writes-env-" });
  try {
    const config = await writeNotesConfig(dir, service.url);
    const program = `(:mutation_state (tool/call 'notes/create-note {:title "env"}))`;
    const closed = await launch(["eval", "--upstreams-config", config, program], { cwd: dir });
    assert.match(closed.stderr, /started without --allow-writes \(or PTC_ALLOW_WRITES=1\)/);
    const open = await launch(["eval", "--upstreams-config", config, program], {
      cwd: dir,
      env: { PTC_ALLOW_WRITES: "1" },
    });
    assert.equal(open.stdout.trim(), ":applied", open.stderr);
    assert.equal(service.count("POST", "/notes"), 1, "only the launch with the variable wrote");
    // PTC_READ_ONLY=1 (read-only mode's fallback, as for `ptc mcp`) closes the gate whatever opens it
    for (const more of [[], ["--allow-writes"]]) {
      const closedAgain = await launch(["eval", "--upstreams-config", config, ...more, program], {
        cwd: dir,
        env: { PTC_ALLOW_WRITES: "1", PTC_READ_ONLY: "1" },
      });
      assert.match(closedAgain.stderr, /is a write tool and ptc runs in read-only mode/, closedAgain.stderr);
    }
    assert.equal(service.count("POST", "/notes"), 1, "the read-only launches never wrote");
  } finally {
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
});
