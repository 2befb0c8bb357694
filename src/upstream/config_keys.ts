/**
 * Small readers of an upstream entry's keys shared by the transports' `parseConfig`: an optional boolean and the
 * unknown-key check. Problems are pushed as key-path errors, never thrown.
 * @module
 */
import type { ConfigError } from "./types.ts";
import { joinKey, unknownKeyHint } from "./messages.ts";

/** Read the optional boolean `raw[key]` (absent or null → `def`); anything else is reported and gives `def`. */
export function optionalBool(
  raw: Record<string, unknown>,
  key: string,
  path: string,
  def: boolean,
  errors: ConfigError[],
): boolean {
  const v = raw[key];
  if (v === undefined || v === null) return def;
  if (typeof v !== "boolean") {
    errors.push({ path: joinKey(path, key), message: "must be true or false" });
    return def;
  }
  return v;
}

/** Report every key of `raw` outside `allowed`, with a did-you-mean, else the list of allowed keys. */
export function unknownKeys(raw: Record<string, unknown>, allowed: string[], path: string, errors: ConfigError[]) {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) {
      errors.push({ path: joinKey(path, key), message: `unknown key${unknownKeyHint(key, allowed)}` });
    }
  }
}
