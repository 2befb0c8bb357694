/**
 * The one error type of PTC-Lisp: a stable reason keyword (without the colon) plus a human-readable message.
 * Hosts print `reason: message`; a LispError never carries a stack into any output.
 * @module
 */

/** Optional source position of an error (reader/analyzer errors). */
export interface ErrorPosition {
  line?: number;
  column?: number;
}

/** A PTC-Lisp error: `reason` is the stable keyword name (`type_error`, `arity_error`, …). */
export class LispError extends Error {
  /** Stable reason keyword without the colon. */
  readonly reason: string;
  line?: number;
  column?: number;
  /** True for budget/limit errors that a program-level handler must never intercept. */
  readonly uncatchable: boolean;

  constructor(reason: string, message: string, pos?: ErrorPosition, uncatchable = false) {
    super(message);
    this.name = "LispError";
    this.reason = reason;
    this.line = pos?.line;
    this.column = pos?.column;
    this.uncatchable = uncatchable;
  }
}
