/**
 * Non-interactive REPL runs: `--eval EXPR` (repeatable), a FILE, or `-` (stdin). Forms are evaluated one by one
 * in the same session, values printed (not envelopes); the run stops with exit code 1 at the first failed form.
 * As at the prompt, a line that starts with `:` outside any form is a REPL command (`:doc map`, `:servers`).
 * @module
 */
import { inputStatus, splitTopLevel } from "./balance.ts";
import type { ReplCore } from "./core.ts";

/** One source of input with a name for error messages. */
export interface BatchInput {
  name: string;
  text: string;
}

/** A unit of work: a command line or a top-level form, with its 1-based line. */
interface Step {
  text: string;
  line: number;
}

/** Split an input into commands and forms, in order; `problem` describes trailing input that cannot run. */
export function batchSteps(text: string): { steps: Step[]; problem?: string } {
  const steps: Step[] = [];
  const lines = text.split("\n");
  let buffer = "";
  let bufferLine = 1;
  for (const [i, line] of lines.entries()) {
    if (buffer === "" && line.trimStart().startsWith(":")) {
      steps.push({ text: line.trim(), line: i + 1 });
      continue;
    }
    if (buffer === "") bufferLine = i + 1;
    buffer = buffer === "" ? line : `${buffer}\n${line}`;
    const status = inputStatus(buffer);
    if (status.kind === "incomplete") continue;
    if (status.kind === "error") {
      const { forms } = splitTopLevel(buffer);
      for (const f of forms) steps.push({ text: f.text, line: bufferLine + f.line - 1 });
      return { steps, problem: status.message.replace(/^line (\d+)/, (_, n) => `line ${bufferLine + Number(n) - 1}`) };
    }
    for (const f of splitTopLevel(buffer).forms) steps.push({ text: f.text, line: bufferLine + f.line - 1 });
    buffer = "";
  }
  if (buffer.trim() !== "") {
    const { forms, rest } = splitTopLevel(buffer);
    for (const f of forms) steps.push({ text: f.text, line: bufferLine + f.line - 1 });
    const first = rest.trim().split("\n")[0].slice(0, 60);
    return { steps, problem: `unbalanced input at end of input, starting with: ${first}` };
  }
  return { steps };
}

/** Evaluate every form of every input in order. Returns the exit code. */
export async function runBatch(core: ReplCore, inputs: BatchInput[], err: (s: string) => void): Promise<number> {
  for (const input of inputs) {
    const { steps, problem } = batchSteps(input.text);
    for (const step of steps) {
      const r = await core.submit(step.text);
      if (r.quit) return 0;
      if (!r.ok) {
        err(`(in ${input.name}, form at line ${step.line})`);
        return 1;
      }
    }
    if (problem) {
      err(`parse_error: ${input.name}: ${problem}`);
      return 1;
    }
  }
  return 0;
}
