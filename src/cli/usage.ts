/**
 * Shared helpers for command-line usage errors and flag parsing (node:util parseArgs).
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Print `ptc: <message>` and the usage text to stderr; returns exit code 2. */
export function usageError(message: string, usageText: string): number {
  console.error(`ptc: ${message}\n\n${usageText}`);
  return 2;
}

/** Thrown when flags do not parse; carries a one-line message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Parse flags strictly. Unknown flags and missing values throw UsageError with a clean one-line message
 * (never a stack trace).
 */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new UsageError(msg.replace(/\. To specify a positional argument.*$/, ""));
  }
}

/** Parse a non-negative integer flag value or throw UsageError naming the flag. */
export function intFlag(name: string, value: string | undefined, min = 0, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} expects a whole number, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}
