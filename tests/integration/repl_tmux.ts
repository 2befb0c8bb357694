/**
 * Drive an interactive `ptc repl` through tmux: a private tmux server per REPL (its own `-S` socket in a temp dir,
 * so nothing else is touched), `send-keys` to type, `capture-pane` to read the screen. Every wait is bounded and
 * `close()` always kills the private server (and with it the REPL) and removes its socket.
 */
import { join } from "node:path";
import { ROOT } from "./repl_fixture.ts";

const decoder = new TextDecoder();

async function tmux(socket: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("tmux", { args: ["-S", socket, ...args], stdout: "piped", stderr: "piped" })
    .output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Whether tmux can be run here. */
export async function tmuxAvailable(): Promise<boolean> {
  try {
    const out = await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Options of a tmux-driven REPL. */
export interface TmuxReplOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Start ptc with this executable (e.g. bin/ptc) instead of `deno run -A main.ts`. */
  launcher?: string;
}

/** One interactive REPL in a private tmux server. */
export class TmuxRepl {
  private constructor(readonly socket: string, private readonly dir: string) {}

  /** Start `ptc repl ARGS` in a 200x50 pane. When it exits the pane shows `[exit N]`. */
  static async start(options: TmuxReplOptions = {}): Promise<TmuxRepl> {
    const dir = await Deno.makeTempDir({ prefix: "ptc-repl-tmux-" });
    const socket = join(dir, "tmux.sock");
    // the history goes to the temp dir unless the test names a file: never into the user's own history
    const vars = { TERM: "xterm-256color", PTC_HISTORY_FILE: join(dir, "history"), ...options.env };
    const env = Object.entries(vars).map(([k, v]) => `${k}=${shellQuote(v)}`);
    const command = [
      "env",
      ...env,
      ...(options.launcher ? [shellQuote(options.launcher)] : [
        shellQuote(Deno.execPath()),
        "run",
        "-A",
        shellQuote(join(ROOT, "main.ts")),
      ]),
      "repl",
      ...(options.args ?? []).map(shellQuote),
    ].join(" ");
    const repl = new TmuxRepl(socket, dir);
    const started = await tmux(socket, [
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      "200",
      "-y",
      "50",
      "-c",
      options.cwd ?? ROOT,
      "-s",
      "repl",
      `${command}; echo "[exit $?]"; sleep 120`,
    ]);
    if (started.code !== 0) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      throw new Error(`tmux new-session failed: ${started.stderr}`);
    }
    return repl;
  }

  /** Type keys (tmux key names such as `Enter`, `Up`, `C-c`, `C-d`; other text is typed literally). */
  async send(...keys: string[]): Promise<void> {
    for (const key of keys) {
      const named = /^(Enter|Up|Down|Left|Right|Tab|Escape|BSpace|C-.)$/.test(key);
      const r = await tmux(this.socket, ["send-keys", "-t", "repl", ...(named ? [key] : ["-l", key])]);
      if (r.code !== 0) throw new Error(`tmux send-keys ${key} failed: ${r.stderr}`);
    }
  }

  /** Type a line and press Enter. */
  async line(text: string): Promise<void> {
    await this.send(text, "Enter");
  }

  /** The visible screen (with escape sequences when `escapes`), trailing blank lines dropped. */
  async screen(escapes = false): Promise<string> {
    const r = await tmux(this.socket, ["capture-pane", "-p", "-J", ...(escapes ? ["-e"] : []), "-t", "repl"]);
    // tmux drops trailing spaces: a prompt reads "ptc>" at the end of the screen
    return r.stdout.split("\n").map((l) => l.trimEnd()).join("\n").replace(/\n+$/, "");
  }

  /** Wait until the screen satisfies `test` (a regex or a count of matches); throws with the screen after `ms`. */
  async waitFor(test: RegExp | ((screen: string) => boolean), ms = 20_000): Promise<string> {
    const ok = typeof test === "function" ? test : (s: string) => test.test(s);
    const until = Date.now() + ms;
    let last = "";
    while (Date.now() < until) {
      last = await this.screen();
      if (ok(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out after ${ms} ms waiting for ${String(test)}; screen:\n${last}`);
  }

  /** Wait until `pattern` occurs `n` times on the screen. */
  waitForCount(pattern: RegExp, n: number, ms?: number): Promise<string> {
    const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g");
    return this.waitFor((s) => (s.match(global)?.length ?? 0) >= n, ms);
  }

  /** Kill the private tmux server (and the REPL in it) and remove its socket. Idempotent. */
  async close(): Promise<void> {
    await tmux(this.socket, ["kill-server"]);
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}

/** Count occurrences of a literal string. */
export function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}
