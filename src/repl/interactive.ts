/**
 * The interactive loop (stdin is a TTY): line editing and history through `node:readline`, multi-line input that
 * waits for balanced brackets, Ctrl-C cancels a running evaluation (or clears the current input), Ctrl-D exits.
 * @module
 */
import * as readline from "node:readline";
import process from "node:process";
import { inputStatus } from "./balance.ts";
import type { ReplCore } from "./core.ts";
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
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
  });
  const prompt = options.style.prompt("ptc> ");
  const more = options.style.prompt("...> ");
  console.log(options.banner);
  let buffer = "";
  let running: AbortController | undefined;
  const queue: string[] = [];
  let done!: (code: number) => void;
  const finished = new Promise<number>((r) => (done = r));

  const showPrompt = () => {
    rl.setPrompt(buffer ? more : prompt);
    rl.prompt();
  };

  const handleLine = async (line: string) => {
    buffer = buffer ? `${buffer}\n${line}` : line;
    const status = inputStatus(buffer);
    if (status.kind === "incomplete") return showPrompt();
    const entry = buffer;
    buffer = "";
    if (status.kind === "error") {
      console.error(options.style.error(`parse_error: ${status.message}`));
      return showPrompt();
    }
    if (entry.trim() === "") return showPrompt();
    // readline recorded only the last physical line; record the whole entry instead.
    const h = (rl as unknown as { history: string[] }).history;
    if (entry.includes("\n") && Array.isArray(h)) h[0] = entry.replace(/\s*\n\s*/g, " ");
    await appendHistory(options.historyFile, entry);
    running = new AbortController();
    try {
      const r = await core.submit(entry, running.signal);
      if (r.quit) {
        rl.close();
        return;
      }
    } finally {
      running = undefined;
    }
    while (queue.length > 0 && !running) await handleLine(queue.shift()!);
    showPrompt();
  };

  rl.on("line", (line: string) => {
    if (running) {
      queue.push(line);
      return;
    }
    void handleLine(line);
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
