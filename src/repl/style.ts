/**
 * Terminal styling: colour only when writing to a TTY and `NO_COLOR` is unset.
 * @module
 */

/** A palette; every function is the identity when colour is off. */
export interface Style {
  error(text: string): string;
  hint(text: string): string;
  prompt(text: string): string;
  value(text: string): string;
}

const wrap = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
const plain = (text: string) => text;

/** Decide whether colour is wanted. */
export function colorWanted(isTty: boolean, env: (name: string) => string | undefined): boolean {
  const noColor = env("NO_COLOR");
  return isTty && (noColor === undefined || noColor === "");
}

/** Build the palette. */
export function makeStyle(color: boolean): Style {
  return color
    ? { error: wrap(31), hint: wrap(2), prompt: wrap(36), value: plain }
    : { error: plain, hint: plain, prompt: plain, value: plain };
}
