/**
 * The language's default budgets, alone in a module of their own: the host reads them (`src/sandbox/limits.ts`)
 * without loading the interpreter, which only the sandbox process needs.
 * @module
 */
import type { EvalLimits } from "./api.ts";

/** Default budgets (api.ts `EvalLimits`). */
export const DEFAULT_EVAL_LIMITS: Required<Omit<EvalLimits, "deadline" | "interrupt" | "paused">> = {
  maxSteps: 50_000_000,
  maxAllocBytes: 256 * 1024 * 1024,
  maxPrintChars: 1_000_000,
  maxPrintLength: 2_000,
  maxProgramBytes: 1_000_000,
  maxDepth: 256,
  // Honest default: the JS stack (V8's ~1 MB) holds ~1,350–2,400 nested calls of a plain recursive function and
  // ~1,050 when every level also goes through a higher-order builtin such as map (measured cold, main thread and
  // worker), so this is the limit that triggers. Should the engine's stack still run out first, the reason is the same.
  maxCallDepth: 1_000,
};
