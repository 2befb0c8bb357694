/**
 * Non-interactive REPL runs: `--eval EXPR` (repeatable), a FILE, or `-` (stdin). Forms are evaluated one by one
 * in the same session, values printed (not envelopes); the run stops with exit code 1 at the first failed form.
 * @module
 */
import { splitTopLevel } from "./balance.ts";
import type { ReplCore } from "./core.ts";

/** One source of input with a name for error messages. */
export interface BatchInput {
  name: string;
  text: string;
}

/** Evaluate every form of every input in order. Returns the exit code. */
export async function runBatch(core: ReplCore, inputs: BatchInput[], err: (s: string) => void): Promise<number> {
  for (const input of inputs) {
    const { forms, status, rest } = splitTopLevel(input.text);
    for (const form of forms) {
      const r = await core.submit(form.text);
      if (r.quit) return 0;
      if (!r.ok) {
        err(`(in ${input.name}, form at line ${form.line})`);
        return 1;
      }
    }
    if (status.kind === "error") {
      err(`parse_error: ${input.name}: ${status.message}`);
      return 1;
    }
    if (status.kind === "incomplete") {
      const first = rest.split("\n")[0].slice(0, 60);
      err(`parse_error: ${input.name}: unbalanced input at end of file, starting with: ${first}`);
      return 1;
    }
  }
  return 0;
}
