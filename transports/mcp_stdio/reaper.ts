/**
 * No orphaned MCP server processes: every live child is tracked here and killed when ptc exits — on the `unload`
 * event (normal end, `Deno.exit`) and on SIGINT/SIGTERM/SIGHUP. The signal handlers are installed only while at
 * least one child is alive. On a signal they kill the children, remove themselves and raise the same signal again:
 * if nothing else in ptc listens for it, the process ends as it would have without us; if a face does (e.g.
 * `ptc mcp` draining in-flight programs), its graceful shutdown proceeds. After a signal no child is restarted.
 * A face that stops its upstreams itself can call {@link delegateSignalHandling} so no handler is installed at all.
 * @module
 */

import { signalGroup } from "./group.ts";

const live = new Set<Deno.ChildProcess>();
const SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const SIGNAL_NUMBERS: Partial<Record<Deno.Signal, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
const handlers = new Map<Deno.Signal, () => void>();
let ending = false;

let delegated = false;

/** True once ptc is ending (a terminating signal or unload arrived): children must not be restarted. */
export function processEnding(): boolean {
  return ending;
}

function killAll(): void {
  // Each server leads a process group of its own (group.ts): the signal reaches what it started, too.
  for (const child of live) signalGroup(child, "SIGTERM");
}

function installSignals(): void {
  if (Deno.build.os === "windows" || delegated || ending) return;
  for (const signal of SIGNALS) {
    const handler = () => {
      ending = true;
      killAll();
      removeSignals();
      try {
        Deno.kill(Deno.pid, signal);
      } catch {
        // re-raising needs --allow-run for every program, which a confined ptc lacks: end as the signal would
        Deno.exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
      }
    };
    try {
      Deno.addSignalListener(signal, handler);
      handlers.set(signal, handler);
    } catch {
      // signal not supported here
    }
  }
}

function removeSignals(): void {
  for (const [signal, handler] of handlers) {
    try {
      Deno.removeSignalListener(signal, handler);
    } catch {
      // ignore
    }
  }
  handlers.clear();
}

globalThis.addEventListener("unload", () => {
  ending = true;
  killAll();
});

/**
 * For a face that handles SIGINT/SIGTERM itself and stops its upstreams gracefully (`ptc mcp` finishes in-flight
 * calls first): the reaper then installs no signal handlers (and removes any it installed). Children are still
 * killed on `unload`, so a forced exit leaves no orphans.
 */
export function delegateSignalHandling(): void {
  delegated = true;
  removeSignals();
}

/** Track a spawned child until it exits. */
export function trackChild(child: Deno.ChildProcess): void {
  if (live.size === 0) installSignals();
  live.add(child);
}

/** Stop tracking a child (it exited or was reaped). */
export function untrackChild(child: Deno.ChildProcess): void {
  if (!live.delete(child)) return;
  if (live.size === 0) removeSignals();
}
