/**
 * A test double for the one engine event the REPL cannot provoke on demand: a session whose worker had to be
 * replaced (it did not stop after a cancel, or was abandoned after its deadline). Wraps a real session; the program
 * `(lose-worker)` drops the real namespace (as a fresh worker would have none) and answers like the engine does.
 */
import type { EngineEvalResult, EngineSession } from "../../src/engine/types.ts";

/** The program that simulates the loss. */
export const LOSE_WORKER = "(lose-worker)";

/** Wrap `real` so that `(lose-worker)` behaves like a replaced worker. */
export function losingSession(real: EngineSession): EngineSession {
  return {
    get id() {
      return real.id;
    },
    get closed() {
      return real.closed;
    },
    eval: async (request): Promise<EngineEvalResult> => {
      if (request.program.trim() !== LOSE_WORKER) return await real.eval(request);
      await real.reset();
      return {
        ok: false,
        reason: "cancelled",
        message: "the sandbox was shut down during the evaluation",
        prints: [],
        calls: [],
        elapsedMs: 0,
        sessionLost: true,
      };
    },
    reset: () => real.reset(),
    close: () => real.close(),
  };
}
