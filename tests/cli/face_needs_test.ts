import assert from "node:assert/strict";
import { join } from "node:path";
import { faceNeeds, sandboxNeeds } from "../../src/cli/face_needs.ts";
import { faceFlags, mergeNeeds } from "../../src/cli/needs.ts";
import { MCP_FLAGS } from "../../src/cli/mcp_flags.ts";
import { run as permissions } from "../../src/cli/permissions.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const EXAMPLE = join(ROOT, "upstreams.example.jsonc");
const TOKEN = join(ROOT, ".observatory/observatory.token");
const LIBRARY = join(ROOT, "fixtures/observatory/lib/oncall.clj");

/** An environment of exactly `vars`. */
const envOf = (vars: Record<string, string> = {}) => (name: string) => vars[name];

const needs = async (command: string, args: string[], vars: Record<string, string> = {}) => {
  const r = await faceNeeds(command, args, { env: envOf(vars), target: "source" });
  assert.deepEqual(r.problems, []);
  return r.needs;
};

const SANDBOX = sandboxNeeds("source");
const MCP_ENV = Object.entries(MCP_FLAGS).map(([name, spec]) =>
  "env" in spec ? spec.env : `PTC_${name.toUpperCase().replaceAll("-", "_")}`
);

Deno.test("eval: the config's hosts, secrets and command, the files on its command line, the sandbox", async () => {
  const n = await needs("eval", ["--upstreams-config", EXAMPLE, "-f", "prog.clj", "--data", "d.json", "1"]);
  assert.deepEqual(n.net, ["127.0.0.1:8765"]);
  assert.deepEqual(
    n.read,
    [EXAMPLE, TOKEN, LIBRARY, join(Deno.cwd(), "d.json"), join(Deno.cwd(), "prog.clj"), ...SANDBOX.read].sort(),
  );
  assert.deepEqual(n.env, ["PATH"], "PTC_UPSTREAMS is not read when the flag is given");
  // `kill` signals a stdio server's whole process group (transports/mcp_stdio/group.ts)
  assert.deepEqual(n.run, [...SANDBOX.run, "kill", "node"].sort());
  assert.deepEqual(n.write, []);
});

Deno.test("eval without the flag reads $PTC_UPSTREAMS, and the config it names", async () => {
  // neither flag nor variable: the default places are looked at, which reads the variables naming them
  assert.deepEqual((await needs("eval", ["1"])).env, ["HOME", "PTC_UPSTREAMS", "XDG_CONFIG_HOME"]);
  const n = await needs("eval", ["1"], { PTC_UPSTREAMS: EXAMPLE });
  assert.deepEqual(n.env, ["PATH", "PTC_UPSTREAMS"]);
  assert.ok(n.read.includes(EXAMPLE));
});

Deno.test("mcp over stdio reads every PTC_<FLAG> fallback; over HTTP it listens and reads its token file", async () => {
  const stdio = await needs("mcp", ["--upstreams-config", EXAMPLE]);
  const fallbacks = MCP_ENV.filter((e) => e !== "PTC_UPSTREAMS");
  assert.deepEqual(stdio.env, ["PATH", ...fallbacks].sort());
  assert.deepEqual(stdio.net, ["127.0.0.1:8765"]);
  assert.ok(SANDBOX.read.every((p) => stdio.read.includes(p)));

  const http = await needs("mcp", [
    "--http",
    "127.0.0.1:7332",
    "--http-auth-token-file",
    "/run/t",
    "--upstreams-config",
    EXAMPLE,
  ]);
  // the public address, and loopback, where the HTTP server listens behind the door on an OS-assigned port
  assert.deepEqual(http.net, ["127.0.0.1", "127.0.0.1:7332", "127.0.0.1:8765"]);
  assert.ok(http.read.includes("/run/t"));
  assert.ok(!http.env.includes("PTC_HTTP") && !http.env.includes("PTC_HTTP_AUTH_TOKEN_FILE"));

  const fromEnv = await needs("mcp", [], { PTC_HTTP: "[::1]:9000", PTC_UPSTREAMS: EXAMPLE });
  assert.deepEqual(fromEnv.net, ["127.0.0.1", "127.0.0.1:8765", "[::1]:9000"]);
  assert.ok(fromEnv.env.includes("PTC_HTTP") && fromEnv.env.includes("PTC_UPSTREAMS"));
});

Deno.test("repl: NO_COLOR always; interactive adds the history folder (read and write) and the variables naming it", async () => {
  const batch = await needs("repl", ["-e", "1"]);
  assert.deepEqual(batch.env, ["HOME", "NO_COLOR", "PTC_UPSTREAMS", "XDG_CONFIG_HOME"]);
  assert.deepEqual(batch.write, []);
  const interactive = await needs("repl", [], { HOME: "/home/u" });
  assert.deepEqual(interactive.env, [
    "HOME",
    "NO_COLOR",
    "PTC_HISTORY_FILE",
    "PTC_UPSTREAMS",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
  ]);
  assert.deepEqual(interactive.write, ["/home/u/.local/state/ptc"]);
  const explicit = await needs("repl", ["--upstreams-config", EXAMPLE], { PTC_HISTORY_FILE: "/h/hist" });
  assert.deepEqual(explicit.write, ["/h"]);
  assert.ok(!explicit.env.includes("HOME"), "historyPath stops at PTC_HISTORY_FILE");
  assert.ok((await needs("repl", ["script.clj"])).read.includes(join(Deno.cwd(), "script.clj")));
});

Deno.test("catalog starts no sandbox; doctor reads the stdio command where PATH finds it", async () => {
  const catalog = await needs("catalog", ["--upstreams-config", EXAMPLE, "--diff", "old.json"]);
  assert.ok(!SANDBOX.read.some((p) => catalog.read.includes(p)));
  assert.ok(catalog.read.includes(join(Deno.cwd(), "old.json")));
  const bin = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(bin, "node"), "#!/bin/sh\n", { mode: 0o755 });
    const doctor = await needs("doctor", ["--upstreams-config", EXAMPLE, "--connect"], { PATH: `/nonexistent:${bin}` });
    assert.ok(doctor.read.includes(join(bin, "node")), doctor.read.join());
    assert.deepEqual(doctor.env, ["PATH"]);
    assert.deepEqual(doctor.run, ["kill", "node"], "doctor starts no sandbox");
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("demo: loopback on any port, the temporary folder, the example config; fixture: its address and files", async () => {
  const demo = await needs("demo", [], { TMPDIR: "/var/tmp/" });
  assert.deepEqual(demo.net, ["127.0.0.1"]);
  assert.deepEqual(demo.write, ["/var/tmp"]);
  assert.deepEqual(demo.env, ["PATH", "TMPDIR"]);
  assert.deepEqual(demo.read, [EXAMPLE, LIBRARY, ...SANDBOX.read, "/var/tmp"].sort());
  assert.deepEqual((await needs("demo", ["--port", "9999"])).net, ["127.0.0.1:9999"]);
  const fixture = await needs("fixture", ["observatory", "--port", "8765", "--token-dir", "/t/obs"]);
  assert.deepEqual(faceFlags(fixture), ["--allow-net=127.0.0.1:8765", "--allow-read=/t/obs", "--allow-write=/t/obs"]);
  const fresh = await needs("fixture", ["observatory", "--audit-log", "/l/audit.log"], { TMPDIR: "/tt" });
  assert.deepEqual(faceFlags(fresh), [
    "--allow-net=127.0.0.1:0",
    "--allow-read=/tt",
    "--allow-write=/l/audit.log,/tt",
    "--allow-env=TMPDIR",
  ]);
});

Deno.test("compiled target: the sandbox is the binary itself, at its installed path", async () => {
  const r = await faceNeeds("eval", ["1"], { env: envOf(), target: "compiled", executable: "/opt/ptc-eval" });
  assert.deepEqual(r.needs.read, []);
  assert.deepEqual(r.needs.run, ["/opt/ptc-eval"], "a compiled binary starts its sandboxes as itself");
});

Deno.test("args a face rejects: no needs but the face's own error; config problems are reported", async () => {
  const r = await faceNeeds("eval", ["--no-such-flag"], { env: envOf() });
  assert.equal(r.problems.length, 1);
  const dir = await Deno.makeTempDir();
  try {
    const bad = join(dir, "bad.jsonc");
    await Deno.writeTextFile(bad, `{"upstreams": {"x": {"transport": "nope"}}}`);
    const p = await faceNeeds("eval", ["--upstreams-config", bad, "1"], { env: envOf() });
    assert.match(p.problems.join("\n"), /nope/);
    assert.deepEqual(p.needs.read, [bad, ...SANDBOX.read].sort(), "the config's read is still named");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("faceFlags: write sits between read and env; merge sorts and dedupes", () => {
  const n = mergeNeeds({ read: ["/b", "/a"], env: ["X"] }, { read: ["/a"], write: ["/w"], run: ["node"] });
  assert.deepEqual(faceFlags(n), ["--allow-read=/a,/b", "--allow-write=/w", "--allow-env=X", "--allow-run=node"]);
});

Deno.test("ptc permissions: usage errors name the fix", async () => {
  const capture = async (args: string[]) => {
    const errors: string[] = [];
    const orig = console.error;
    console.error = (...a: unknown[]) => void errors.push(a.join(" "));
    try {
      return { code: await permissions(args), err: errors.join("\n") };
    } finally {
      console.error = orig;
    }
  };
  const wrongOrder = await capture(["mcp", "--http", "x"]);
  assert.equal(wrongOrder.code, 2);
  assert.match(wrongOrder.err, /arguments of `ptc mcp` do not parse/);
  const unknown = await capture(["--http", "127.0.0.1:1"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /options of a command go after it/);
  const bogus = await capture(["bogus"]);
  assert.equal(bogus.code, 2);
  assert.match(bogus.err, /unknown command 'bogus'/);
});

Deno.test("mcp --audit-log: a write and a look (lstat) of that file only (absolute); PTC_AUDIT_LOG names it too", async () => {
  const n = await needs("mcp", ["--upstreams-config", EXAMPLE, "--audit-log", "logs/audit.jsonl"]);
  assert.deepEqual(n.write, [join(Deno.cwd(), "logs/audit.jsonl")]);
  assert.ok(n.read.includes(join(Deno.cwd(), "logs/audit.jsonl")));
  assert.ok(!n.read.includes(join(Deno.cwd(), "logs")), "not its directory");
  assert.ok(!n.env.includes("PTC_AUDIT_LOG"), "the flag was given");
  const fromEnv = await needs("mcp", ["--upstreams-config", EXAMPLE], { PTC_AUDIT_LOG: "/var/log/ptc.jsonl" });
  assert.deepEqual(fromEnv.write, ["/var/log/ptc.jsonl"]);
  assert.deepEqual((await needs("mcp", ["--upstreams-config", EXAMPLE])).write, []);
});

Deno.test("catalog --operations and init read the document (or reach its URL) and the overlays; init writes -o", async () => {
  const cwd = Deno.cwd();
  const ops = await needs("catalog", ["--operations", "doc.json", "--overlay", "a.overlay.json"]);
  assert.deepEqual(faceFlags(ops), [`--allow-read=${join(cwd, "a.overlay.json")},${join(cwd, "doc.json")}`]);
  const yaml = await needs("catalog", ["--operations", "https://specs.example.org/x", "--overlay", "/o/b.yaml"]);
  assert.deepEqual(faceFlags(yaml), [
    "--allow-net=specs.example.org:443",
    "--allow-read=/o/b.yaml",
    "--allow-env=LOG_STREAM,LOG_TOKENS",
  ]);
  // a document from a URL not named .json may be YAML (decided by its answer): the YAML parser's variables come with it
  const url = await needs("catalog", ["--operations", "http://127.0.0.1:9000/openapi.yaml"]);
  assert.deepEqual(faceFlags(url), ["--allow-net=127.0.0.1:9000", "--allow-env=LOG_STREAM,LOG_TOKENS"]);
  const json = await needs("init", ["openapi", "http://127.0.0.1:9000/v1/openapi.json?x=1"]);
  assert.deepEqual(faceFlags(json), ["--allow-net=127.0.0.1:9000"]);
  const init = await needs("init", ["openapi", "/d/doc.yaml", "--overlay", "c.json", "-o", "out/ptc.jsonc"]);
  assert.deepEqual(faceFlags(init), [
    // the read list is sorted, so where the checkout sits decides the order
    `--allow-read=${["/d/doc.yaml", join(cwd, "c.json")].sort().join(",")}`,
    `--allow-write=${join(cwd, "out/ptc.jsonc")}`,
    "--allow-env=LOG_STREAM,LOG_TOKENS",
  ]);
});

Deno.test("PTC_ALLOW_WRITES is read by eval, repl, catalog and doctor when the config allows writes and the flag is absent", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const write = async (name: string, doc: Record<string, unknown>) => {
      const file = join(dir, name);
      await Deno.writeTextFile(file, JSON.stringify(doc));
      return file;
    };
    const upstream = (extra: Record<string, unknown>) => ({
      upstreams: { fx: { transport: "mcp_stdio", command: "node", args: ["x.js"], ...extra } },
    });
    const allows = await write("allows.json", upstream({ allow_writes: true }));
    const global = await write("global.json", { allow_writes: true, ...upstream({}) });
    const never = await write("never.json", upstream({}));
    for (const command of ["eval", "repl", "catalog", "doctor"]) {
      const program = command === "eval" ? ["1"] : command === "repl" ? ["-e", "1"] : [];
      const envOfRun = async (config: string, more: string[] = []) =>
        (await needs(command, ["--upstreams-config", config, ...more, ...program])).env;
      assert.ok((await envOfRun(allows)).includes("PTC_ALLOW_WRITES"), `${command}: the fallback can matter`);
      assert.ok((await envOfRun(global)).includes("PTC_ALLOW_WRITES"), `${command}: top-level allow_writes`);
      assert.ok(!(await envOfRun(never)).includes("PTC_ALLOW_WRITES"), `${command}: the config allows no write`);
      assert.ok(!(await envOfRun(allows, ["--allow-writes"])).includes("PTC_ALLOW_WRITES"), `${command}: flag given`);
      assert.ok(!(await envOfRun(allows, ["--read-only"])).includes("PTC_ALLOW_WRITES"), `${command}: read-only`);
      // PTC_READ_ONLY can close the gate the config and the flag (or PTC_ALLOW_WRITES) open: read whenever writes
      // could be installed, also with --allow-writes given
      assert.ok((await envOfRun(allows)).includes("PTC_READ_ONLY"), `${command}: read-only fallback`);
      assert.ok((await envOfRun(allows, ["--allow-writes"])).includes("PTC_READ_ONLY"), `${command}: flag given`);
      assert.ok(!(await envOfRun(never)).includes("PTC_READ_ONLY"), `${command}: no write to close`);
      assert.ok(!(await envOfRun(allows, ["--read-only"])).includes("PTC_READ_ONLY"), `${command}: already read-only`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view: reads its recordings, logs and token file, listens, runs the opener only with --open; mcp --view listens", async () => {
  const view = await needs("view", [
    "--recordings",
    "/r/a",
    "--recordings",
    "/r/b",
    "--audit-log",
    "/l/audit.jsonl",
    "--auth-token-file",
    "/run/t",
    "--listen",
    "127.0.0.1:0",
  ]);
  assert.deepEqual(faceFlags(view), [
    "--allow-net=127.0.0.1:0",
    "--allow-read=/l/audit.jsonl,/r/a,/r/b,/run/t",
  ]);
  const opened = await needs("view", ["--recordings", "/r/a", "--open"]);
  assert.deepEqual(opened.net, ["127.0.0.1:7333"]);
  assert.equal(opened.run.length, 1);
  assert.match(opened.run[0], /^(xdg-open|open)$/);
  assert.equal(opened.env.length, 0, "the view reads no environment variable");
  const bad = await faceNeeds("view", [], { env: envOf(), target: "source" });
  assert.equal(bad.problems.length, 1, "no source: the face says so");

  const live = await needs("mcp", ["--upstreams-config", EXAMPLE, "--view", "127.0.0.1:7334"]);
  assert.deepEqual(live.net, ["127.0.0.1:7334", "127.0.0.1:8765"]);
  assert.ok(!live.env.includes("PTC_VIEW") && live.env.includes("PTC_VIEW_ALL_PROGRAMS"));
});
