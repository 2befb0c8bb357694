/**
 * Waiting for the user to stop a long-running command (`ptc fixture`, `ptc demo --keep`).
 * @module
 */

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
