/**
 * One sandbox process started before a face has loaded its modules, so the two load at the same time: `ptc eval`
 * would otherwise load its code (≈ 60 ms) and only then start the child, which loads the language (≈ 45 ms) while
 * the host waits. `main.ts` calls {@link prestartSandbox} first thing for the faces that evaluate at once; the first
 * sandbox process the pool creates takes it when its command line is the same (the default child, the default heap
 * cap), else it is killed and a new one started. A process nobody takes is killed when ptc exits.
 *
 * Nothing is started without the run permission already granted (never a prompt): a face run with less reports the
 * missing flag itself.
 * @module
 */
import { DEFAULT_ENTRY, DEFAULT_HEAP_MB, sandboxCommand, spawnSandboxChild } from "./spawn.ts";
import { forgetLive, trackLive } from "./live_processes.ts";

interface Early {
  key: string;
  child: Deno.ChildProcess;
  kill(): void;
}

let early: Early | undefined;

const keyOf = (command: string, args: string[]) => JSON.stringify([command, ...args]);

/** Start the default sandbox process now (once; a no-op without the run permission or when it cannot start). */
export function prestartSandbox(): void {
  if (early) return;
  const { command, args } = sandboxCommand({ entry: DEFAULT_ENTRY, heapMb: DEFAULT_HEAP_MB });
  try {
    if (Deno.permissions.querySync({ name: "run", command }).state !== "granted") return;
    const child = spawnSandboxChild(command, args);
    const e: Early = {
      key: keyOf(command, args),
      child,
      kill() {
        forgetLive(e);
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
        // Its pipes are never read: close them so nothing of it stays open.
        void child.stdout.cancel().catch(() => {});
        void child.stderr.cancel().catch(() => {});
        void child.stdin.close().catch(() => {});
        void child.status.catch(() => {});
      },
    };
    trackLive(e);
    early = e;
  } catch {
    // cannot start one here: the pool starts its own and reports why
  }
}

/**
 * The prestarted process when its command line is `command args` (handed over once; the caller owns it from then
 * on), else undefined — and a prestarted process of another command line is killed.
 */
export function takePrestarted(command: string, args: string[]): Deno.ChildProcess | undefined {
  const e = early;
  if (!e) return undefined;
  early = undefined;
  if (e.key !== keyOf(command, args)) {
    e.kill();
    return undefined;
  }
  forgetLive(e);
  return e.child;
}

/** The OS process id of a prestarted process not yet taken (diagnostics and tests). */
export function prestartedPid(): number | undefined {
  return early?.child.pid;
}
