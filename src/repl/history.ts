/**
 * Persistent REPL history in the user's state directory (`$XDG_STATE_HOME/ptc/history`, else
 * `~/.local/state/ptc/history`; `PTC_HISTORY_FILE` overrides). One entry per line; multi-line entries are stored
 * joined, without their `;` comments. Failures to read or write history never stop the REPL.
 * @module
 */
import { oneLine } from "./balance.ts";

/** Most entries kept. */
export const HISTORY_LIMIT = 1000;

/** The history file path for this user, or undefined when no home/state directory is known. */
export function historyPath(env: (name: string) => string | undefined): string | undefined {
  const explicit = env("PTC_HISTORY_FILE");
  if (explicit) return explicit;
  const state = env("XDG_STATE_HOME") || (env("HOME") ? `${env("HOME")}/.local/state` : undefined);
  return state ? `${state}/ptc/history` : undefined;
}

/** Load entries, newest first (the order node:readline expects). */
export async function loadHistory(path: string | undefined): Promise<string[]> {
  if (!path) return [];
  try {
    const lines = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "");
    return lines.slice(-HISTORY_LIMIT).reverse();
  } catch {
    return [];
  }
}

/** Append one entry (best effort); trims the file when it grows past twice the limit. */
export async function appendHistory(path: string | undefined, entry: string): Promise<void> {
  if (!path) return;
  const line = oneLine(entry);
  if (!line) return;
  try {
    await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(path, `${line}\n`, { append: true, mode: 0o600 });
    const text = await Deno.readTextFile(path);
    const lines = text.split("\n").filter(Boolean);
    if (lines.length > 2 * HISTORY_LIMIT) await Deno.writeTextFile(path, lines.slice(-HISTORY_LIMIT).join("\n") + "\n");
  } catch {
    // history is a convenience; never fail the REPL over it
  }
}
