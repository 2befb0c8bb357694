/**
 * Each MCP stdio server runs in a process group (and session) of its own, so stopping it stops everything it
 * started: a server's grandchildren (a `sleep` it spawned, the real server behind `npx`) get the same signal instead
 * of surviving with PPID 1.
 *
 * How the group is made: `Deno.Command` takes a `detached` option — not in its public type, but the one Deno's own
 * `node:child_process` uses for `spawn(…, { detached: true })` — which makes the child call `setsid()` before it
 * execs. The group's id is the child's pid.
 *
 * How the group is signalled: `Deno.kill(-pgid)` needs `--allow-run` for every program, which the launcher never
 * grants (`--allow-run=<deno>,<server command>`). So the transport also asks for the one program that signals a
 * group, `kill` (`--allow-run=kill`, see `permissions` in mod.ts): {@link signalGroup} tries `Deno.kill` first (an
 * unconfined run), then runs `kill -s SIG -- -PGID` synchronously (so it works in a signal handler and on `unload`),
 * and only when neither is allowed falls back to signalling the child alone — {@link groupSignalling} says which,
 * for diagnostics.
 * @module
 */
import { resolveCommand } from "./command.ts";

/** Options of `Deno.Command` plus the `detached` switch Deno's Node compatibility layer uses. */
type GroupCommandOptions = Deno.CommandOptions & { detached: boolean };

/** The program that signals a process group when `Deno.kill` may not (the name `permissions` grants). */
export const KILL_PROGRAM = "kill";

/**
 * Whether the `kill` program is there to be granted: found on PATH by a process allowed to look (`ptc permissions`
 * and the launcher's first step read PATH and the file system). A process that may not look — a confined face checking
 * its own flags at start — does not ask for it: it then signals the group if it was granted, else the child alone,
 * and a machine without `kill` never fails to start for want of it. Never prompts.
 */
export function killProgramFound(): boolean {
  if (Deno.build.os === "windows") return false;
  if (!granted({ name: "env", variable: "PATH" })) return false;
  const path = Deno.env.get("PATH") ?? "";
  const dirs = path.split(":").filter((d) => d.startsWith("/") && granted({ name: "read", path: d }));
  return resolveCommand(KILL_PROGRAM, "/", dirs.join(":")) !== undefined;
}

/** Spawn `command` as the leader of a new session and process group (on Unix; plain spawn on Windows). */
export function spawnInOwnGroup(command: string, options: Deno.CommandOptions): Deno.ChildProcess {
  const withGroup: GroupCommandOptions = { ...options, detached: Deno.build.os !== "windows" };
  return new Deno.Command(command, withGroup).spawn();
}

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(descriptor).state === "granted";
  } catch {
    return false;
  }
}

/** How this process can signal a whole group: `Deno.kill`, the `kill` program, or not at all (the child alone). */
export function groupSignalling(): "deno" | "kill" | "child-only" {
  if (Deno.build.os === "windows") return "child-only";
  if (granted({ name: "run" })) return "deno";
  if (granted({ name: "run", command: KILL_PROGRAM })) return "kill";
  return "child-only";
}

/** `kill -s SIGNAL -- -PGID`, waited for; true when the group existed and was signalled. */
function killProgram(pgid: number, signal: Deno.Signal): boolean {
  try {
    const out = new Deno.Command(KILL_PROGRAM, {
      args: ["-s", signal.replace(/^SIG/, ""), "--", `-${pgid}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      clearEnv: true,
    }).outputSync();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * Send `signal` to the whole process group led by `child` (also after the leader itself has exited: members left
 * behind keep the group alive). Falls back to the child alone where the group cannot be signalled. Never throws.
 */
export function signalGroup(child: Deno.ChildProcess, signal: Deno.Signal): void {
  const how = groupSignalling();
  if (how === "deno") {
    try {
      Deno.kill(-child.pid, signal);
      return;
    } catch {
      // no such group (everyone is gone, or the child has no group of its own): try the child itself
    }
  } else if (how === "kill" && killProgram(child.pid, signal)) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}
