/**
 * The writes an evaluation performed, as every face shows them to the client and the person behind it: the call
 * records that carry a `mutation_state` (only write tools get one), in call order. The MCP envelope, `ptc eval` and
 * the REPL all read them from here, so the `Writes:` line reads the same everywhere.
 * @module
 */
import type { CallRecord } from "./types.ts";

/** One write of a run: which tool, and what it did (`applied`, `not_applied` or `indeterminate`). */
export type WriteRecord = {
  server: string;
  tool: string;
  mutation_state: string;
  /** Under `--approve-writes`: how the person asked answered (`accepted`, `declined`, `cancelled`, `unavailable`). */
  approval?: string;
};

/** Most writes named on the `Writes:` line (the structured list carries them all). */
export const MAX_WRITES_SHOWN = 20;

/** The writes among a run's call records, in call order. */
export function writesOf(calls: readonly CallRecord[]): WriteRecord[] {
  return calls.filter((c) => c.mutation_state !== undefined).map((c) => ({
    server: c.server,
    tool: c.tool,
    mutation_state: c.mutation_state!,
    ...(c.approval ? { approval: c.approval } : {}),
  }));
}

/** `Writes: srv/tool applied, srv/other not_applied` (at most 20 named), or undefined when the run wrote nothing. */
export function writesLine(calls: readonly CallRecord[]): string | undefined {
  const writes = writesOf(calls);
  if (writes.length === 0) return undefined;
  const shown = writes.slice(0, MAX_WRITES_SHOWN).map((w) => `${w.server}/${w.tool} ${w.mutation_state}`);
  if (writes.length > MAX_WRITES_SHOWN) shown.push(`… ${writes.length - MAX_WRITES_SHOWN} more`);
  return `Writes: ${shown.join(", ")}`;
}
