/**
 * Lifecycle under the launcher: every face run as `bin/ptc …` from another working directory (so under exactly the
 * flags `ptc permissions` prints), with a stdio upstream started as `sh -c "sleep 987 & exec deno … stdio.ts"` — a
 * server whose orphan (`sleep`) holds its pipes. Checked by process group in /proc, before and after:
 *
 * - the server killed with -9 is noticed (its orphan does not hide the death), its whole group is gone and a new
 *   server serves the next call;
 * - `ptc mcp` (stdio) ends on the first SIGTERM and at the end of its stdin; `ptc mcp --http`, `ptc eval`,
 *   `ptc repl`, `ptc catalog` and `ptc doctor --connect` on the first SIGTERM (and `ptc repl` at the end of stdin): no
 *   process of ptc's — a sandbox, an upstream or anything an upstream started — is left behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  cleanEnv,
  elsewhere,
  freePort,
  launchedFlags,
  LAUNCHER,
  printedFlags,
  spawnLaunched,
  waitForListening,
} from "./launcher_helpers.ts";
import { evalLisp, newClient, textOf } from "./mcp_server_helpers.ts";
import { spawnStdioServer } from "./ptc_mcp_child.ts";
import { DENO, DENO_RUN_ARGS, pidAlive, ROOT, STDIO_FIXTURE } from "../transports/mcp_common/helpers.ts";
import { groupMembers, parentOf, pidsWithArg, processGroup, waitUntil } from "./proc_groups.ts";

/** A config whose upstream `up` is the stdio fixture behind a shell that leaves an orphan holding its pipes. */
async function orphanConfig(dir: string, marker: string): Promise<void> {
  const server = [DENO, ...DENO_RUN_ARGS, "--allow-env", STDIO_FIXTURE, "--name", marker].map((a) => `'${a}'`);
  const up = {
    transport: "mcp_stdio",
    command: "sh",
    args: ["-c", `sleep 987 & exec ${server.join(" ")}`],
    cwd: ROOT,
    env: {},
    restart_backoff_ms: 100,
  };
  await Deno.writeTextFile(join(dir, "upstreams.json"), JSON.stringify({ upstreams: { up } }));
}

/** A config whose upstream never answers the handshake: `sleep 986.<digits>` (the marker) behind an orphan. */
async function silentConfig(dir: string, marker: string): Promise<void> {
  const up = {
    transport: "mcp_stdio",
    command: "sh",
    args: ["-c", `sleep 987 & exec sleep ${marker}`],
    env: {},
    start_timeout_ms: 120_000,
  };
  await Deno.writeTextFile(join(dir, "upstreams.json"), JSON.stringify({ upstreams: { up } }));
}

/** Live processes whose parent is `pid` (a ptc's sandboxes and upstream leaders). */
function childrenOf(pid: number): number[] {
  return [...Deno.readDirSync("/proc")].filter((e) => /^\d+$/.test(e.name)).map((e) => Number(e.name)).filter((p) => {
    try {
      return pidAlive(p) && parentOf(p) === pid;
    } catch {
      return false;
    }
  });
}

/** The group the upstream process carrying `marker` leads, once it runs, with its members. */
async function upstreamGroup(marker: string): Promise<{ leader: number; group: number; members: number[] }> {
  assert.ok(await waitUntil(() => pidsWithArg(marker).length > 0, 20_000), "the upstream server started");
  const [leader] = pidsWithArg(marker);
  const group = processGroup(leader);
  assert.equal(group, leader, "the upstream leads a process group of its own");
  assert.ok(await waitUntil(() => groupMembers(group).length >= 2), "the orphan-to-be runs in the server's group");
  return { leader, group, members: groupMembers(group) };
}

/** Resolves with the status of `child`, or fails the test when it runs on for `ms` after a stop. */
async function endsWithin(child: Deno.ChildProcess, ms: number, what: string): Promise<Deno.CommandStatus> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), ms));
  const status = await Promise.race([child.status, late]);
  clearTimeout(timer);
  if (status === "late") {
    child.kill("SIGKILL");
    await child.status;
    assert.fail(`${what}: still running ${ms} ms later`);
  }
  return status;
}

/** Nothing of ptc is left: its children and every upstream group named are gone. */
async function nothingLeft(children: number[], groups: number[]): Promise<void> {
  for (const pid of children) assert.ok(await waitUntil(() => !pidAlive(pid)), `process ${pid} of ptc is left`);
  for (const g of groups) {
    assert.ok(await waitUntil(() => groupMembers(g).length === 0), `group ${g} is left: ${groupMembers(g)}`);
  }
}

/** SIGTERM `child` once; it must end within 15 s with `code`, leaving none of its children nor `group` behind. */
async function stopOnceLeavingNothing(child: Deno.ChildProcess, what: string, code: number, group: number) {
  const children = childrenOf(child.pid);
  child.kill("SIGTERM");
  const status = await endsWithin(child, 15_000, `${what} after one SIGTERM`);
  assert.equal(status.code, code, what);
  await nothingLeft(children, [group]);
}

/** For `finally`: SIGKILL `child` unless it ended, and wait for it. */
async function ended(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch { /* ended */ }
  await child.status;
}

/** `bin/ptc ARGS…` in `cwd` with a clean environment. */
function launched(args: string[], cwd: string, stdin: "piped" | "null" = "null"): Deno.ChildProcess {
  return new Deno.Command(LAUNCHER, {
    args,
    cwd,
    clearEnv: true,
    env: cleanEnv({ NO_COLOR: "1", PTC_LAUNCHER_DEBUG: "1" }),
    stdin,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("lifecycle: ptc mcp notices a server killed -9 whose orphan holds its pipe; one SIGTERM ends everything", async () => {
  const cwd = await elsewhere();
  const marker = `up-${crypto.randomUUID()}`;
  await orphanConfig(cwd, marker);
  const flags = ["--upstreams-config", "upstreams.json"];
  const printed = await printedFlags(["mcp", ...flags], cwd);
  assert.ok(printed.some((f) => /^--allow-run=.*\bkill\b/.test(f)), `kill is granted: ${printed}`);
  assert.ok(!printed.includes("--allow-run"), "no blanket --allow-run");
  const server = spawnStdioServer(flags, { command: LAUNCHER, args: ["mcp"], cwd, env: cleanEnv({ NO_COLOR: "1" }) });
  try {
    await server.initialize({ wait: true });
    await server.call(2, "(:ok (tool/call 'up/echo {:x 1}))");
    assert.match(JSON.stringify(await server.answer(2)), /"text":"true"/);
    const first = await upstreamGroup(marker);

    Deno.kill(first.leader, "SIGKILL");
    // The death is noticed although `sleep 987` still holds the pipes: the group is reaped, a new server starts.
    assert.ok(await waitUntil(() => groupMembers(first.group).length === 0), "the dead server's orphan is gone");
    assert.ok(await waitUntil(() => pidsWithArg(marker).some((p) => p !== first.leader), 20_000), "restarted");
    const second = await upstreamGroup(marker);
    let served = false;
    for (let id = 3; id < 60 && !served; id++) {
      await server.call(id, "(:ok (tool/call 'up/echo {:x 2}))");
      served = /"text":"true"/.test(JSON.stringify(await server.answer(id)));
      if (!served) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(served, "the restarted server answers");

    const children = childrenOf(server.child.pid);
    assert.ok(children.includes(second.leader), "ptc is the upstream's parent");
    server.child.kill("SIGTERM");
    const status = await endsWithin(server.child, 15_000, "ptc mcp after one SIGTERM");
    assert.equal(status.code, 0);
    await nothingLeft(children, [first.group, second.group]);
  } finally {
    await server.dispose();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("lifecycle: ptc mcp (stdio) ends at the end of its stdin, leaving nothing behind", async () => {
  const cwd = await elsewhere();
  const marker = `up-${crypto.randomUUID()}`;
  await orphanConfig(cwd, marker);
  const server = spawnStdioServer(["--upstreams-config", "upstreams.json"], {
    command: LAUNCHER,
    args: ["mcp"],
    cwd,
    env: cleanEnv({ NO_COLOR: "1" }),
  });
  try {
    await server.initialize({ wait: true });
    await server.call(2, "(:ok (tool/call 'up/echo {}))");
    assert.match(JSON.stringify(await server.answer(2)), /true/);
    const up = await upstreamGroup(marker);
    const children = childrenOf(server.child.pid);
    await server.closeInput();
    const status = await endsWithin(server.child, 15_000, "ptc mcp after the end of stdin");
    assert.equal(status.code, 0);
    await nothingLeft(children, [up.group]);
  } finally {
    await server.dispose();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("lifecycle: eval, repl, catalog and doctor end on the first SIGTERM, leaving nothing behind", async (t) => {
  const cwd = await elsewhere();
  const config = ["--upstreams-config", "upstreams.json"];
  /** Start a face, wait for its upstream, SIGTERM it once, and check it ended with 143 and left nothing. */
  const stopOnce = async (args: string[], silent: boolean, input?: string) => {
    const marker = silent
      ? `986.${Date.now() % 100_000}${Math.floor(Math.random() * 1000)}`
      : `up-${crypto.randomUUID()}`;
    await (silent ? silentConfig(cwd, marker) : orphanConfig(cwd, marker));
    const child = launched([...args, ...config], cwd, input === undefined ? "null" : "piped");
    const stderr = new Response(child.stderr).text();
    const stdout = new Response(child.stdout).text();
    if (input !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(input));
      await w.close();
    }
    try {
      const up = await upstreamGroup(marker);
      await new Promise((r) => setTimeout(r, 300)); // let the face reach its program or its wait
      await stopOnceLeavingNothing(child, `ptc ${args[0]}`, 143, up.group);
      assert.ok(launchedFlags(await stderr).length > 0, "ran confined by the launcher");
    } finally {
      await ended(child);
      await Promise.all([stderr, stdout]);
    }
  };
  await t.step("eval: a busy program after a tool call", async () => {
    await stopOnce(["eval", "(do (tool/call 'up/echo {}) (loop [i 0] (recur (inc i))))"], false);
  });
  await t.step("eval: a tool call the server is slow to answer", async () => {
    await stopOnce(["eval", "--timeout-ms", "60000", "(tool/call 'up/sleep {:ms 60000})"], false);
  });
  await t.step("repl: a tool call the server is slow to answer, the program read from stdin", async () => {
    await stopOnce(["repl"], false, "(tool/call 'up/sleep {:ms 60000})\n");
  });
  await t.step("catalog: an upstream that never answers the handshake", async () => {
    await stopOnce(["catalog"], true);
  });
  await t.step("doctor --connect: the same upstream", async () => {
    await stopOnce(["doctor", "--connect"], true);
  });
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("lifecycle: ptc repl ends at the end of its stdin, leaving nothing behind", async () => {
  const cwd = await elsewhere();
  const marker = `up-${crypto.randomUUID()}`;
  await orphanConfig(cwd, marker);
  const child = launched(["repl", "--upstreams-config", "upstreams.json"], cwd, "piped");
  const out = new Response(child.stdout).text();
  const err = new Response(child.stderr).text();
  const w = child.stdin.getWriter();
  // the REPL reads its whole stdin first: a slow call leaves time to see the upstream's group in /proc
  await w.write(new TextEncoder().encode("(tool/call 'up/sleep {:ms 1500})\n(:value (tool/call 'up/echo {:x 7}))\n"));
  await w.close();
  const up = await upstreamGroup(marker);
  const children = childrenOf(child.pid);
  const status = await endsWithin(child, 15_000, "ptc repl after the end of stdin");
  assert.equal(status.code, 0, await err);
  assert.match(await out, /7/);
  await nothingLeft(children, [up.group]);
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("lifecycle: ptc mcp --http ends on the first SIGTERM, leaving nothing behind", async () => {
  const cwd = await elsewhere();
  const marker = `up-${crypto.randomUUID()}`;
  await orphanConfig(cwd, marker);
  const child = spawnLaunched(
    ["mcp", "--http", `127.0.0.1:${freePort()}`, "--upstreams-config", "upstreams.json"],
    cwd,
  );
  try {
    const { url } = await waitForListening(child);
    const client = newClient("modern");
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      assert.equal(textOf(await evalLisp(client, "(:ok (tool/call 'up/echo {}))")), "true");
    } finally {
      await client.close();
    }
    const up = await upstreamGroup(marker);
    await stopOnceLeavingNothing(child, "ptc mcp --http", 0, up.group);
  } finally {
    await ended(child);
    await Deno.remove(cwd, { recursive: true });
  }
});
