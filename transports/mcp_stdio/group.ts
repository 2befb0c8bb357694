/**
 * Each MCP stdio server runs in a process group (and session) of its own, so stopping it stops everything it
 * started: a server's grandchildren (a `sleep` it spawned, the real server behind `npx`) get the same signal instead
 * of surviving with PPID 1.
 *
 * How: `Deno.Command` takes a `detached` option — not in its public type, but the one Deno's own
 * `node:child_process` uses for `spawn(…, { detached: true })` — which makes the child call `setsid()` before it
 * execs. This needs no extra binary and no extra permission (spawning through util-linux `setsid` would, and
 * `--allow-run=setsid` would then allow any command). The group's id is the child's pid. Should a Deno release stop
 * honouring the option, signalling the group fails with "no such process" and we fall back to signalling the child
 * alone (the integration test that checks grandchildren would then fail loudly).
 * @module
 */

/** Options of `Deno.Command` plus the `detached` switch Deno's Node compatibility layer uses. */
type GroupCommandOptions = Deno.CommandOptions & { detached: boolean };

/** Spawn `command` as the leader of a new session and process group (on Unix; plain spawn on Windows). */
export function spawnInOwnGroup(command: string, options: Deno.CommandOptions): Deno.ChildProcess {
  const withGroup: GroupCommandOptions = { ...options, detached: Deno.build.os !== "windows" };
  return new Deno.Command(command, withGroup).spawn();
}

/**
 * Send `signal` to the whole process group led by `child` (also after the leader itself has exited: members left
 * behind keep the group alive). Falls back to the child alone where there is no group. Never throws.
 */
export function signalGroup(child: Deno.ChildProcess, signal: Deno.Signal): void {
  if (Deno.build.os !== "windows") {
    try {
      Deno.kill(-child.pid, signal);
      return;
    } catch {
      // no such group (everyone is gone, or the child has no group of its own): try the child itself
    }
  }
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}
