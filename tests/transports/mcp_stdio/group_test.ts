/**
 * An MCP stdio server runs in a process group of its own: stopping it, or its crash and restart, also ends what it
 * started (a `sleep 300` it spawned, the real server behind a `node` launcher), so nothing survives with PPID 1.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import stdio from "../../../transports/mcp_stdio/mod.ts";
import { callCtx, makeDeps, pidAlive, startUpstream, waitFor } from "../mcp_common/helpers.ts";
import { nodeLauncher, shellLauncher } from "./launchers.ts";

async function pidsIn(file: string): Promise<number[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

Deno.test("mcp_stdio group: stop ends the server's grandchildren", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-group-" });
  const pidFile = join(dir, "pids");
  const u = await startUpstream(stdio, shellLauncher(pidFile));
  let sleeper = 0;
  try {
    assert.ok(await waitFor(() => Deno.statSync(pidFile).size > 0, 5000));
    [sleeper] = await pidsIn(pidFile);
    assert.ok(pidAlive(sleeper), "the grandchild runs while the server does");
    const echoed = await u.call("echo", { x: 1 }, callCtx());
    assert.ok(echoed.ok);
  } finally {
    await u.stop();
  }
  assert.ok(await waitFor(() => !pidAlive(sleeper), 5000), "the grandchild is gone after stop");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("mcp_stdio group: a crash ends the grandchildren before the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-group-" });
  const pidFile = join(dir, "pids");
  const u = await startUpstream(stdio, shellLauncher(pidFile), makeDeps());
  let next: Awaited<ReturnType<typeof startUpstream>> | undefined;
  try {
    assert.ok(await waitFor(() => Deno.statSync(pidFile).size > 0, 5000));
    const [first] = await pidsIn(pidFile);
    await u.call("crash", {}, callCtx());
    assert.match(await u.closed!, /its server process exited/);
    assert.ok(await waitFor(() => !pidAlive(first), 5000), "the first generation's grandchild is gone");
    // the runtime's supervisor restarts by starting a new connection
    next = await startUpstream(stdio, shellLauncher(pidFile), makeDeps());
    assert.ok(await waitFor(() => Deno.readTextFileSync(pidFile).trim().split(/\s+/).length === 2, 5000));
  } finally {
    await u.stop();
    await next?.stop();
  }
  for (const pid of await pidsIn(pidFile)) assert.ok(await waitFor(() => !pidAlive(pid), 5000), `pid ${pid} left`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("mcp_stdio group: a node launcher, its server and its sleeper all end on stop", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-group-" });
  const pidFile = join(dir, "pids");
  const u = await startUpstream(stdio, nodeLauncher(pidFile));
  const launcher = u.diagnostics().pid as number;
  let sleeper = 0;
  try {
    const r = await u.call("echo", { via: "node" }, callCtx());
    assert.deepEqual(r.ok && r.value, { via: "node" });
    assert.ok(await waitFor(() => Deno.statSync(pidFile).size > 0, 5000));
    [sleeper] = await pidsIn(pidFile);
    assert.ok(pidAlive(sleeper));
  } finally {
    await u.stop();
  }
  assert.ok(await waitFor(() => !pidAlive(launcher) && !pidAlive(sleeper), 5000), "node and its children are gone");
  await Deno.remove(dir, { recursive: true });
});
