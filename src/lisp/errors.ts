/**
 * The one error type of PTC-Lisp: a stable reason keyword (without the colon) plus a human-readable message.
 * Hosts print `reason: message`; a LispError never carries a stack into any output.
 * @module
 */

/**
 * Every reason a PTC-Lisp error can carry (docs/language.md §8 lists exactly these; a test checks it). Budget
 * reasons end the run uncatchably; reasons a host tool raises through the tool seam are kept when they are listed
 * here and become `tool_error` otherwise.
 */
export const LISP_ERROR_REASONS = [
  // budgets and limits
  "step_limit_exceeded",
  "timeout",
  "cancelled",
  "memory_limit",
  "print_limit_exceeded",
  "program_too_large",
  "symbol_limit_exceeded",
  "stack_overflow",
  // reading and analysis
  "parse_error",
  "invalid_form",
  "invalid_arity",
  "invalid_cond_form",
  "invalid_thread_form",
  "invalid_placeholder",
  "invalid_keyword_call",
  "unsupported_pattern",
  "duplicate_key",
  "unbound_var",
  "unknown_tool",
  // running
  "type_error",
  "arithmetic_error",
  "arity_error",
  "arity_mismatch",
  "not_callable",
  "destructure_error",
  "unsupported_method",
  "pmap_error",
  "pcalls_error",
  "runtime_error",
  // raised by host tools
  "invalid_tool_args",
  "tool_error",
  "replay_mismatch",
  "internal_error",
] as const;

/** The closed set of error reasons (see `LISP_ERROR_REASONS`). */
export type LispErrorReason = typeof LISP_ERROR_REASONS[number];

const REASONS: ReadonlySet<string> = new Set(LISP_ERROR_REASONS);

/** True when `s` is one of the error reasons. */
export function isLispErrorReason(s: string): s is LispErrorReason {
  return REASONS.has(s);
}

/** Optional source position of an error (reader/analyzer errors). */
export interface ErrorPosition {
  line?: number;
  column?: number;
}

/** A PTC-Lisp error: `reason` is the stable keyword name (`type_error`, `arity_error`, …). */
export class LispError extends Error {
  /** Stable reason keyword without the colon. */
  readonly reason: LispErrorReason;
  line?: number;
  column?: number;
  /** `FILE:LINE:COLUMN` of the library code that raised it, once located there. */
  libraryPlace?: string;
  /** True for budget/limit errors that a program-level handler must never intercept. */
  readonly uncatchable: boolean;

  constructor(reason: LispErrorReason, message: string, pos?: ErrorPosition, uncatchable = false) {
    super(message);
    this.name = "LispError";
    this.reason = reason;
    this.line = pos?.line;
    this.column = pos?.column;
    this.uncatchable = uncatchable;
  }
}
