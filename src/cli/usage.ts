/**
 * Shared helpers for command-line usage errors and flag parsing (node:util parseArgs).
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Print `ptc: <message>` (`ptc <command>: …` when `command` is given) and the usage text to stderr; returns 2. */
export function usageError(message: string, usageText: string, command?: string): number {
  console.error(`ptc${command ? ` ${command}` : ""}: ${message}\n\n${usageText}`);
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

/** Check a flag that takes one of `choices` (absent passes) or throw UsageError naming the flag and the choices. */
export function choiceFlag<C extends string>(name: string, value: string | undefined, choices: readonly C[]) {
  if (value === undefined || (choices as readonly string[]).includes(value)) return value as C | undefined;
  const list = choices.length > 1 ? `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}` : choices[0];
  throw new UsageError(`--${name} must be ${list}, got '${value}'`);
}
