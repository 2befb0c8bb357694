/**
 * How ptc's commands end on a signal.
 *
 * - `ptc fixture` and `ptc demo --keep` wait for the user to stop them ({@link untilStopSignal}).
 * - `ptc mcp` stops gracefully on the first SIGINT/SIGTERM (in-flight programs finish, upstreams are stopped) and at
 *   once on a second (src/cli/mcp.ts).
 * - Every other face that runs programs or starts upstreams (`eval`, `repl`, `catalog`, `doctor`) ends at the first
 *   SIGINT, SIGTERM or SIGHUP ({@link exitOnStopSignals}): through `Deno.exit(128 + n)`, which runs the `unload`
 *   handlers that kill the sandbox processes (src/sandbox/live_processes.ts) and every stdio upstream's process group
 *   (transports/mcp_stdio/reaper.ts). A signal's default action would end ptc without them, leaving a busy sandbox
 *   or an upstream's grandchildren behind.
 * @module
 */

/** The signals that stop a face, with their numbers (the exit status is 128 + n). */
export const STOP_SIGNALS: readonly (readonly [Deno.Signal, number])[] = [
  ["SIGINT", 2],
  ["SIGTERM", 15],
  ["SIGHUP", 1],
];

/** The faces {@link exitOnStopSignals} is installed for (src/cli/mod.ts). */
export const EXIT_ON_SIGNAL_COMMANDS = ["eval", "repl", "catalog", "doctor"];

/** Resolve at the first SIGINT or SIGTERM; both listeners are removed again before it resolves. */
export function untilStopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      Deno.removeSignalListener("SIGINT", stop);
      Deno.removeSignalListener("SIGTERM", stop);
      resolve();
    };
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
}

/**
 * End this process at the first SIGINT, SIGTERM or SIGHUP with status 128 + n, running the `unload` handlers (see
 * the module doc). On Windows, where only SIGINT and SIGBREAK exist, only SIGINT is handled.
 */
export function exitOnStopSignals(): void {
  for (const [signal, n] of STOP_SIGNALS) {
    if (Deno.build.os === "windows" && signal !== "SIGINT") continue;
    try {
      Deno.addSignalListener(signal, () => Deno.exit(128 + n));
    } catch {
      // not supported here
    }
  }
}
