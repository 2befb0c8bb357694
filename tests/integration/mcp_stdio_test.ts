import assert from "node:assert/strict";
import stdio from "../../transports/mcp_stdio/mod.ts";
import { clearVerdictCache } from "../../transports/mcp_common/session.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { installTools } from "../../src/upstream/install.ts";
import {
  callCtx,
  makeCtx,
  makeDeps,
  parseOk,
  pidAlive,
  startUpstream,
  stdioFixture,
  waitFor,
} from "../transports/mcp_common/helpers.ts";

const ERAS = ["both", "modern", "legacy"] as const;
const MODES = ["auto", "2026-07-28", "legacy"] as const;

for (const era of ERAS) {
  for (const protocol of MODES) {
    const expectFail = (era === "legacy" && protocol === "2026-07-28") || (era === "modern" && protocol === "legacy");
    Deno.test(`mcp_stdio: ${era} server × protocol ${protocol}`, async () => {
      clearVerdictCache();
      const raw = stdioFixture(["--era", era], { protocol });
      if (expectFail) {
        const err = await startUpstream(stdio, raw).then(
          async (u) => {
            await u.stop();
            return undefined;
          },
          (e) => e,
        );
        assert.ok(err instanceof UpstreamStartError, `expected a start error, got ${err}`);
        const expected = protocol === "legacy" ? "protocol_legacy_rejected" : "protocol_method_not_found";
        assert.equal(err.code, expected);
        assert.match(err.message, /upstream fx/);
        assert.ok(err.hint);
        return;
      }
      const u = await startUpstream(stdio, raw);
      try {
        const d = u.diagnostics();
        const modern = protocol !== "legacy" && era !== "legacy";
        assert.equal(d.era, modern ? "modern" : "legacy");
        assert.equal(d.protocolVersion, modern ? "2026-07-28" : "2025-11-25");
        const r = await u.call("echo", { a: 1, b: [1, 2] }, callCtx());
        assert.deepEqual(r, { ok: true, value: { a: 1, b: [1, 2] }, valueKind: "json", bytes: r.bytes });
      } finally {
        await u.stop();
      }
    });
  }
}

Deno.test("mcp_stdio: tool list paging, kebab-case names, collisions, annotations", async () => {
  const deps = makeDeps();
  const u = await startUpstream(stdio, stdioFixture(["--page-size", "4", "--extra-tools", "30"]), deps);
  try {
    const tools = u.listTools();
    const names = tools.map((t) => t.name);
    assert.equal(names.length, 16 + 30 - 1, "every page followed, one collision hidden");
    assert.ok(names.includes("get-user"));
    assert.ok(names.includes("plain-text"));
    assert.ok(names.includes("filler-030"));
    const li = tools.find((t) => t.name === "list-items")!;
    assert.equal(li._ptc.upstreamName, "listItems", "first in server order wins");
    assert.equal(li._ptc.transport, "mcp_stdio");
    const gu = tools.find((t) => t.name === "get-user")!;
    assert.equal(gu._ptc.upstreamName, "get_user");
    assert.ok(gu.outputSchema);
    assert.equal(gu.annotations.readOnlyHint, true);
    const del = tools.find((t) => t.name === "delete-item")!;
    assert.equal(del.annotations.destructiveHint, true);
    assert.equal(del.annotations.readOnlyHint, false);
    const d = u.diagnostics();
    assert.deepEqual(d.collisions, [{ name: "list-items", exposed: "listItems", hidden: ["list_items"] }]);
    assert.ok(deps.logs.some((l) => l.includes('"listItems", "list_items"') && l.includes("list-items")));
  } finally {
    await u.stop();
  }
});

Deno.test("mcp_stdio: result normalization", async () => {
  const u = await startUpstream(stdio, stdioFixture());
  try {
    // structuredContent when the tool has an outputSchema; argument key user-id reaches user_id
    const user = await u.call("get-user", { "user-id": "u1" }, callCtx());
    assert.equal(user.ok, true);
    assert.deepEqual(user.ok && user.value, { id: "u1", name: "Ada Lovelace", email: "ada@example.org" });
    // isError -> tool_error with the text
    const fail = await u.call("fail", { reason: "nope" }, callCtx());
    // Unmapped, the server's error text is bounded and marked untrusted, as under error_feedback "bounded".
    assert.deepEqual(fail, {
      ok: false,
      reason: "tool_error",
      message:
        'upstream fx, tool fail: the tool reported an error; untrusted server text follows: "fixture failure: nope"',
      bytes: fail.bytes,
    });
    // non-JSON text
    const text = await u.call("plain-text", {}, callCtx());
    assert.equal(text.ok && text.valueKind, "text");
    assert.equal(text.ok && text.value, "hello, world (not JSON)");
    // empty content
    const none = await u.call("no-content", {}, callCtx());
    assert.equal(none.ok && none.valueKind, "none");
    assert.equal(none.ok && none.value, null);
    // unknown exposed tool
    const missing = await u.call("nope", {}, callCtx());
    assert.equal(!missing.ok && missing.reason, "not_found");
  } finally {
    await u.stop();
  }
});

Deno.test("mcp_stdio: byte caps (call cap and upstream hard cap) and timeout", async () => {
  const u = await startUpstream(stdio, stdioFixture([], { max_response_bytes: 200_000 }));
  try {
    const ok = await u.call("big", { bytes: 10_000 }, callCtx());
    assert.equal(ok.ok, true);
    const capped = await u.call("big", { bytes: 50_000 }, callCtx({ maxResponseBytes: 20_000 }));
    assert.equal(!capped.ok && capped.reason, "response_too_large");
    assert.match(!capped.ok ? capped.message : "", /20000 bytes/);
    const hard = await u.call("big", { bytes: 500_000 }, callCtx());
    assert.equal(!hard.ok && hard.reason, "response_too_large");
    // the connection survives an oversized message
    const after = await u.call("echo", { still: "alive" }, callCtx());
    assert.deepEqual(after.ok && after.value, { still: "alive" });
    const slow = await u.call("sleep", { ms: 3000 }, callCtx({ timeoutMs: 150 }));
    assert.equal(!slow.ok && slow.reason, "timeout");
    assert.match(!slow.ok ? slow.message : "", /150 ms/);
  } finally {
    await u.stop();
  }
});

Deno.test("mcp_stdio: explicit environment, literal and binding env, redacted stderr", async () => {
  Deno.env.set("PTC_TEST_PARENT_ONLY", "parent-value");
  try {
    const deps = makeDeps({ credentials: { tok: "s3cr3t-token-value" } });
    const raw = stdioFixture([], {
      env: { LOG_LEVEL: "debug", NUM: 3, API_TOKEN: { binding: "tok" }, FIXTURE_LOG_ENV: "API_TOKEN" },
    });
    const u = await t_start(raw, deps, ["tok"]);
    try {
      const r = await u.call("env", { name: "API_TOKEN" }, callCtx());
      assert.ok(r.ok);
      const v = r.value as { value: string; names: string[] };
      assert.equal(v.value, "s3cr3t-token-value");
      assert.deepEqual(v.names, ["API_TOKEN", "FIXTURE_LOG_ENV", "LOG_LEVEL", "NUM", "PATH"]);
      const d = JSON.stringify(u.diagnostics());
      assert.ok(d.includes("[REDACTED]"), "stderr tail captured and redacted");
      assert.ok(!d.includes("s3cr3t-token-value"));
    } finally {
      await u.stop();
    }
    const inherit = await t_start(stdioFixture([], { inherit_environment: true }), makeDeps(), []);
    try {
      const r = await inherit.call("env", { name: "PTC_TEST_PARENT_ONLY" }, callCtx());
      assert.equal(r.ok && (r.value as { value: string }).value, "parent-value");
    } finally {
      await inherit.stop();
    }
  } finally {
    Deno.env.delete("PTC_TEST_PARENT_ONLY");
  }
});

async function t_start(raw: Record<string, unknown>, deps: ReturnType<typeof makeDeps>, creds: string[]) {
  // deno-lint-ignore no-explicit-any
  return await stdio.start(parseOk(stdio, raw as any, makeCtx({ credentials: creds })), deps);
}

Deno.test("mcp_stdio: crash → fail fast → restart with backoff; stop leaves no orphan", async () => {
  const secrets = { tok: "first-secret" };
  const deps = makeDeps({ credentials: secrets });
  const raw = stdioFixture([], { restart_backoff_ms: 300, env: { API_TOKEN: { binding: "tok" } } });
  const u = await t_start(raw, deps, ["tok"]);
  let pid = 0;
  try {
    const first = u.diagnostics().pid as number;
    assert.ok(pidAlive(first));
    await u.call("crash", {}, callCtx());
    assert.ok(await waitFor(() => u.diagnostics().state !== "ready"), "crash noticed");
    secrets.tok = "second-secret";
    const during = await u.call("echo", {}, callCtx());
    assert.equal(!during.ok && during.reason, "upstream_unavailable");
    assert.match(!during.ok ? during.message : "", /restarting/);
    assert.ok(await waitFor(() => u.diagnostics().state === "ready"), "restarted");
    assert.equal(u.diagnostics().restarts, 1);
    assert.equal(u.diagnostics().reusedVerdict, true, "reconnect reused the cached discover result");
    pid = u.diagnostics().pid as number;
    assert.notEqual(pid, first);
    assert.ok(!pidAlive(first));
    const again = await u.call("echo", { back: true }, callCtx());
    assert.deepEqual(again.ok && again.value, { back: true });
    // bindings are resolved again at restart: a rotated credential reaches the new process
    const rotated = await u.call("env", { name: "API_TOKEN" }, callCtx());
    assert.equal(rotated.ok && (rotated.value as { value: string }).value, "second-secret");
  } finally {
    await u.stop();
  }
  assert.ok(!pidAlive(pid), "child reaped on stop");
});

Deno.test("mcp_stdio: every tool is listed with its annotations; read-only mode withholds the write ones", async () => {
  const u = await startUpstream(stdio, stdioFixture());
  try {
    const { installed, withheld } = installTools(u.listTools(), { readOnly: true });
    const names = installed.map((t) => t.name);
    assert.ok(names.includes("echo"));
    assert.ok(!names.includes("delete-item"));
    assert.ok(!names.includes("crash"));
    assert.match(withheld.get("delete-item") ?? "", /is a write tool .*and ptc runs in read-only mode/);
    const open = { readOnly: false, configAllowsWrites: true, processAllowsWrites: true };
    assert.deepEqual(installTools(u.listTools(), open).installed.map((t) => t.name), u.listTools().map((t) => t.name));
  } finally {
    await u.stop();
  }
});

Deno.test("mcp_stdio: start failures are closed diagnostics", async () => {
  const missing = await startUpstream(stdio, { transport: "mcp_stdio", command: "no-such-command-ptc-test" }).catch(
    (e) => e,
  );
  assert.ok(missing instanceof UpstreamStartError);
  assert.equal(missing.code, "command_not_found");
  const noDir = await startUpstream(stdio, { transport: "mcp_stdio", command: "sh", cwd: "no/such/dir" }).catch((e) =>
    e
  );
  assert.ok(noDir instanceof UpstreamStartError);
  assert.equal(noDir.code, "cwd_not_found");
  const exits = await startUpstream(stdio, {
    transport: "mcp_stdio",
    command: "sh",
    args: ["-c", "echo boom-on-stderr >&2; exit 7"],
    start_timeout_ms: 3000,
  }).catch((e) => e);
  assert.ok(exits instanceof UpstreamStartError);
  assert.equal(exits.code, "handshake_failed");
  assert.match(exits.message, /boom-on-stderr/);
  const silent = await startUpstream(stdio, {
    transport: "mcp_stdio",
    command: "sh",
    args: ["-c", "exec sleep 30"],
    start_timeout_ms: 300,
  }).catch((e) => e);
  assert.ok(silent instanceof UpstreamStartError);
  assert.equal(silent.code, "start_timeout");
  assert.match(silent.hint ?? "", /start_timeout_ms/);
});

Deno.test("mcp_stdio: config errors name the key path; ptc itself is refused", () => {
  const errs = stdio.parseConfig(
    { transport: "mcp_stdio", command: "", args: [1], env: { "BAD-NAME": "x", T: { binding: "nope" } }, protocl: 1 },
    makeCtx(),
  );
  assert.ok(Array.isArray(errs));
  const paths = (errs as { path: string }[]).map((e) => e.path).sort();
  assert.deepEqual(paths, [
    "upstreams.fx.args[0]",
    "upstreams.fx.command",
    "upstreams.fx.env.BAD-NAME",
    "upstreams.fx.env.T.binding",
    "upstreams.fx.protocl",
  ]);
  const self = stdio.parseConfig({ transport: "mcp_stdio", command: "deno", args: ["run", "-A", "main.ts", "mcp"] }, {
    ...makeCtx(),
  });
  assert.ok(Array.isArray(self));
  assert.match((self as { message: string }[])[0].message, /ptc itself/);
  const ptc = stdio.parseConfig({ transport: "mcp_stdio", command: "/usr/local/bin/ptc", args: ["mcp"] }, makeCtx());
  assert.ok(Array.isArray(ptc));
  const perms = stdio.permissions(parseOk(stdio, { transport: "mcp_stdio", command: "/bin/echo" }));
  // `kill` signals the server's whole process group (transports/mcp_stdio/group.ts)
  assert.deepEqual(perms, { net: [], read: [], env: ["PATH"], run: ["/bin/echo", "kill"] });
});

for (const how of ["exit", "SIGTERM", "SIGINT", "graceful"] as const) {
  Deno.test(`mcp_stdio: no orphaned child when ptc ends (${how})`, async () => {
    const helper = new URL("./mcp_orphan_child.ts", import.meta.url).pathname;
    const proc = new Deno.Command(Deno.execPath(), {
      args: ["run", "--frozen", "--cached-only", "-A", helper, how === "exit" || how === "graceful" ? how : "wait"],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const pid = Number(out.trim());
    assert.ok(pid > 0, `helper printed a pid (${out})`);
    if (how !== "exit") {
      assert.ok(pidAlive(pid));
      proc.kill(how === "graceful" ? "SIGTERM" : how);
    }
    while (how === "graceful" && !out.includes("graceful")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const status = await proc.status;
    reader.releaseLock();
    await proc.stdout.cancel().catch(() => {});
    if (how === "graceful") {
      assert.ok(out.includes("graceful"), "ptc's own SIGTERM handling still ran");
      assert.equal(status.code, 0);
    } else if (how !== "exit") assert.equal(status.success, false, "the signal still ends ptc");
    assert.ok(await waitFor(() => !pidAlive(pid), 5000), "the MCP server child is gone");
  });
}

Deno.test("mcp_stdio: stop() kills a server that ignores stdin EOF", async () => {
  const u = await startUpstream(stdio, stdioFixture(["--linger"]));
  const pid = u.diagnostics().pid as number;
  assert.ok(pidAlive(pid));
  await u.stop();
  assert.ok(!pidAlive(pid));
});

Deno.test("mcp_stdio: restarts are given up after restart_max_attempts failures", async () => {
  const secrets: Record<string, string> = { tok: "a-long-secret-value" };
  const deps = makeDeps({ credentials: secrets });
  const raw = stdioFixture([], { restart_backoff_ms: 50, restart_max_attempts: 2, env: { T: { binding: "tok" } } });
  const u = await t_start(raw, deps, ["tok"]);
  try {
    delete secrets.tok; // every restart now fails (credential unavailable)
    await u.call("crash", {}, callCtx());
    assert.ok(await waitFor(() => u.diagnostics().state === "failed"), "gave up");
    const r = await u.call("echo", {}, callCtx());
    assert.equal(!r.ok && r.reason, "upstream_unavailable");
    assert.match(!r.ok ? r.message : "", /restarts were given up/);
    assert.ok(deps.logs.some((l) => l.includes("gave up after 2 failed restarts")));
  } finally {
    await u.stop();
  }
});
