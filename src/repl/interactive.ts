/**
 * The interactive loop (stdin is a TTY): line editing and history through `node:readline`, multi-line input that
 * waits for balanced brackets, Ctrl-C cancels a running evaluation (or clears the current input), Ctrl-D exits.
 * @module
 */
import * as readline from "node:readline";
import process from "node:process";
import { inputStatus, oneLine } from "./balance.ts";
import type { ReplCore } from "./core.ts";
import { approvalSummary } from "../upstream/approval.ts";
import { appendHistory, HISTORY_LIMIT, loadHistory } from "./history.ts";
import type { Style } from "./style.ts";

/** Options of the loop. */
export interface InteractiveOptions {
  historyFile?: string;
  style: Style;
  banner: string;
}

/** Run until Ctrl-D or :quit. Resolves with the exit code (0). */
export async function runInteractive(core: ReplCore, options: InteractiveOptions): Promise<number> {
  const history = await loadHistory(options.historyFile);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history,
    // 0: readline adds nothing itself; `remember` records whole entries (it would record each physical line).
    historySize: 0,
  });
  const memory = rl as unknown as { history: string[]; historyIndex: number };
  /** Put an entry at the front of the in-memory history (once) and persist it. */
  const remember = async (entry: string) => {
    const line = oneLine(entry);
    if (!line || !Array.isArray(memory.history)) return;
    const at = memory.history.indexOf(line);
    if (at >= 0) memory.history.splice(at, 1);
    memory.history.unshift(line);
    if (memory.history.length > HISTORY_LIMIT) memory.history.length = HISTORY_LIMIT;
    await appendHistory(options.historyFile, entry);
  };
  const prompt = options.style.prompt("ptc> ");
  const more = options.style.prompt("...> ");
  console.log(options.banner);
  let buffer = "";
  let running: AbortController | undefined;
  /** A y/N question about a write is open: the next line answers it. */
  let answering: ((line: string) => void) | undefined;
  core.approver = (request, signal) =>
    new Promise((resolve) => {
      const settle = (outcome: "accepted" | "declined" | "unavailable") => {
        answering = undefined;
        signal.removeEventListener("abort", onAbort);
        resolve({ outcome });
      };
      const onAbort = () => settle("unavailable");
      signal.addEventListener("abort", onAbort, { once: true });
      answering = (line) => settle(/^\s*(y|yes)\s*$/i.test(line) ? "accepted" : "declined");
      console.error(options.style.hint(approvalSummary(request)));
      rl.setPrompt("approve? [y/N] ");
      rl.prompt();
    });
  const queue: string[] = [];
  let done!: (code: number) => void;
  const finished = new Promise<number>((r) => (done = r));

  const showPrompt = () => {
    rl.setPrompt(buffer ? more : prompt);
    rl.prompt();
  };

  /** Handle one physical line; resolves true when the REPL should stop. */
  const handleLine = async (line: string): Promise<boolean> => {
    memory.historyIndex = -1; // Up starts again from the newest entry (readline resets it only when it adds one)
    buffer = buffer ? `${buffer}\n${line}` : line;
    const status = inputStatus(buffer);
    if (status.kind === "incomplete") return false;
    const entry = buffer;
    buffer = "";
    if (entry.trim() === "") return false;
    // From here on Ctrl-C cancels this entry (also while the history is written, before the evaluation starts).
    const controller = new AbortController();
    running = controller;
    try {
      await remember(entry);
      if (status.kind === "error") {
        console.error(options.style.error(`parse_error: ${status.message}`));
        return false;
      }
      return (await core.submit(entry, controller.signal)).quit === true;
    } catch (e) {
      // an engine fault must not end the session: report it and keep going
      console.error(options.style.error(`internal_error: ${e instanceof Error ? e.message : String(e)}`));
      return false;
    } finally {
      running = undefined;
    }
  };

  /** Handle a line and any typed while it ran, then prompt again. */
  const handleLines = async (line: string) => {
    let next: string | undefined = line;
    while (next !== undefined) {
      if (await handleLine(next)) {
        rl.close();
        return;
      }
      next = queue.shift();
    }
    showPrompt();
  };

  // Lines that arrive while an entry is handled (typed during an evaluation, or pasted) wait their turn.
  let busy = false;
  rl.on("line", (line: string) => {
    if (answering) {
      answering(line);
      return;
    }
    if (busy) {
      queue.push(line);
      return;
    }
    busy = true;
    void handleLines(line).finally(() => (busy = false));
  });
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      console.error(options.style.hint("cancelling…"));
      return;
    }
    if (buffer) {
      buffer = "";
      process.stdout.write("\n");
      return showPrompt();
    }
    process.stdout.write(`\n${options.style.hint("(Ctrl-D or :quit to exit)")}\n`);
    showPrompt();
  });
  rl.on("close", () => {
    running?.abort();
    process.stdout.write("\n");
    done(0);
  });
  showPrompt();
  return await finished;
}
