/**
 * Progress lines of long commands (doctor, init, catalog): on stderr, and only where a person watches — a terminal —
 * never in a pipe or a CI log, where the command's own output and problems say it all.
 * @module
 */

/** Print `ptc <command>: <line>` on stderr when stderr is a terminal. */
export function progress(command: string, line: string): void {
  if (Deno.stderr.isTerminal()) console.error(`ptc ${command}: ${line}`);
}
