/**
 * What one run on a sandbox process answers: the protocol's `SandboxResult` plus what the host decided about the
 * process (`abandoned`, `sessionEnded`), the failure constructor every host-side ending uses, and the error a
 * deliberately stopped process rejects `ready` with.
 * @module
 */
import type { SandboxResult } from "./protocol.ts";

/**
 * Result of a run; `abandoned` is set when the process had to be given up (it must not be reused), `sessionEnded`
 * when a session passed its memory cap (it must not continue).
 */
export type RunResult = SandboxResult & { abandoned?: boolean; sessionEnded?: boolean };

/** A failed run that started at `started` (ms since the epoch), with no prints. */
export function failure(reason: string, message: string, started: number, extra: Partial<RunResult> = {}): RunResult {
  return { ok: false, reason, message, prints: [], elapsedMs: Date.now() - started, ...extra } as RunResult;
}

/** The process was stopped on purpose (pool closed, session closed) before it was ready. */
export class SandboxStopped extends Error {
  constructor() {
    super("the sandbox process was stopped before it was ready");
    this.name = "SandboxStopped";
  }
}
