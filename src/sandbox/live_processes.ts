/**
 * Every live sandbox process of this ptc, so none outlives it: each is killed when ptc exits (the `unload` event,
 * hooked once on the first process).
 * @module
 */

/** What the registry needs of a process. */
export interface Killable {
  kill(): void;
}

const live = new Set<Killable>();
let unloadHooked = false;

/** Remember a started process until {@link forgetLive}; kill it if ptc exits first. */
export function trackLive(p: Killable): void {
  live.add(p);
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const proc of live) proc.kill();
  });
}

/** The process is gone (killed or exited): nothing to kill at exit. */
export function forgetLive(p: Killable): void {
  live.delete(p);
}
