/**
 * The REPL's brain, independent of any terminal: evaluates submitted input in a session-owning worker (defs,
 * closures and `*1 *2 *3` persist, `*e` holds the last error), runs `:commands`, and renders values and errors for
 * people. The interactive loop (interactive.ts) and the batch runner (batch.ts) both drive it.
 * @module
 */
import type { Engine, EngineEvalResult, EngineSession } from "../engine/types.ts";
import { DEFAULT_PRETTY, prettyPrinted, type PrettyOptions } from "./pretty.ts";
import type { Style } from "./style.ts";

/** Where the REPL writes. */
export interface ReplOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Static facts shown by `:limits`. */
export interface ReplLimits {
  timeoutMs: number;
  [name: string]: number | string;
}

/** The outcome of one submission. */
export interface SubmitResult {
  ok: boolean;
  quit?: boolean;
}

const HELP = `Commands:
  :help                 this help
  :doc SYM              documentation of a builtin, special form or tool (builtins first)
  :find TEXT            search builtins and tools (alias :apropos)
  :tools [SERVER]       list the tools of every server, or of one
  :servers              list the configured servers and their status
  :limits               the limits each evaluation runs under
  :reset                forget every def (a fresh namespace)
  :quit                 leave (also Ctrl-D)
Anything else is PTC-Lisp. *1 *2 *3 are the last results, *e the last error.
Multi-line input continues until brackets balance; Ctrl-C cancels a running evaluation.`;

/** Hints for common failure reasons. */
function hintFor(reason: string, message: string): string | undefined {
  switch (reason) {
    case "unbound_var":
      return /did you mean/i.test(message) ? undefined : 'hint: :find TEXT (or (apropos "text")) searches builtins and tools';
    case "timeout":
      return "hint: the evaluation ran out of time; narrow the data first (filter before map) or raise --timeout-ms";
    case "not_callable":
      return "hint: the first element of a list is called; use [ ] for data vectors";
    case "cancelled":
      return "hint: the namespace survived only if the worker could be kept; check with (dir) or re-run your defs";
    case "arity_error":
    case "arity_mismatch":
      return "hint: :doc NAME shows the accepted argument lists";
    default:
      return undefined;
  }
}

/** The REPL core. */
export class ReplCore {
  #session: EngineSession;
  #pretty: PrettyOptions;

  constructor(
    private readonly engine: Engine,
    session: EngineSession,
    private readonly io: ReplOutput,
    private readonly style: Style,
    private readonly limits: ReplLimits,
    pretty: Partial<PrettyOptions> = {},
  ) {
    this.#session = session;
    this.#pretty = { ...DEFAULT_PRETTY, ...pretty };
  }

  /** The session (its worker owns the namespace). */
  get session(): EngineSession {
    return this.#session;
  }

  /** Handle one complete input: a `:command` or a program. */
  async submit(input: string, signal?: AbortSignal): Promise<SubmitResult> {
    const text = input.trim();
    if (text === "") return { ok: true };
    if (text.startsWith(":")) return await this.#command(text, signal);
    const result = await this.#session.eval({ program: input, timeoutMs: this.limits.timeoutMs, signal });
    return { ok: this.#show(result) };
  }

  /** Print a result; returns whether it succeeded. */
  #show(result: EngineEvalResult): boolean {
    for (const line of result.prints) this.io.out(line);
    if (result.ok && result.status !== "failed") {
      this.io.out(this.style.value(prettyPrinted(result.printed, this.#pretty)));
      return true;
    }
    const reason = result.ok ? "fail" : result.reason;
    const message = result.ok ? result.printed : result.message;
    this.io.err(this.style.error(`${reason}: ${message}`));
    const hint = hintFor(reason, message);
    if (hint) this.io.err(this.style.hint(hint));
    return false;
  }

  async #command(text: string, signal?: AbortSignal): Promise<SubmitResult> {
    const [cmd, ...rest] = text.split(/\s+/);
    const arg = rest.join(" ");
    switch (cmd) {
      case ":help":
      case ":h":
      case ":?":
        this.io.out(HELP);
        return { ok: true };
      case ":quit":
      case ":q":
      case ":exit":
        return { ok: true, quit: true };
      case ":doc":
        if (!arg) return this.#usage(":doc SYM   e.g. :doc map, :doc observatory/list-traces");
        return await this.#discovery(`(doc ${quoteRef(arg)})`, signal, false);
      case ":find":
      case ":apropos":
        if (!arg) return this.#usage(":find TEXT   e.g. :find cost");
        return await this.#discovery(`(apropos ${JSON.stringify(arg)} {:limit 20})`, signal, true);
      case ":tools":
        return this.#tools(arg);
      case ":servers":
        return this.#servers();
      case ":limits":
        for (const [k, v] of Object.entries(this.limits)) this.io.out(`${k}: ${v}`);
        for (const [k, v] of Object.entries(this.engine.diagnostics().limits ?? {})) this.io.out(`${k}: ${v}`);
        return { ok: true };
      case ":reset":
        await this.#session.reset();
        this.io.out("namespace cleared");
        return { ok: true };
      default:
        this.io.err(this.style.error(`unknown command ${cmd}; :help lists the commands`));
        return { ok: false };
    }
  }

  #usage(text: string): SubmitResult {
    this.io.err(`usage: ${text}`);
    return { ok: false };
  }

  /** Run a discovery form in a pooled worker, so the session's *1 and namespace are untouched. */
  async #discovery(program: string, signal: AbortSignal | undefined, lines: boolean): Promise<SubmitResult> {
    const result = await this.engine.evaluate({ program, timeoutMs: this.limits.timeoutMs, signal });
    if (!result.ok) return { ok: this.#show(result) };
    for (const line of result.prints) this.io.out(line);
    if (lines && Array.isArray(result.json)) {
      if (result.json.length === 0) this.io.out("no matches");
      for (const item of result.json) this.io.out(String(item));
    } else if (result.printed !== "nil") {
      this.io.out(prettyPrinted(result.printed, this.#pretty));
    }
    return { ok: true };
  }

  #tools(server: string): SubmitResult {
    const catalog = this.engine.catalog();
    const chosen = server ? catalog.filter((s) => s.name === server) : catalog;
    if (server && chosen.length === 0) {
      this.io.err(this.style.error(`no server '${server}'; servers: ${catalog.map((s) => s.name).join(", ") || "none"}`));
      return { ok: false };
    }
    if (catalog.length === 0) this.io.out("no upstreams configured (start with --upstreams-config FILE)");
    for (const s of chosen) {
      for (const t of s.tools) this.io.out(`${s.name}/${t.name} - ${firstLine(t.description)}`);
    }
    return { ok: true };
  }

  #servers(): SubmitResult {
    const catalog = this.engine.catalog();
    if (catalog.length === 0) this.io.out("no upstreams configured (start with --upstreams-config FILE)");
    for (const s of catalog) {
      const status = s.status === "ready" ? `${s.tools.length} tools` : this.style.error("unavailable");
      this.io.out(`${s.name} (${status})${s.description ? ` - ${firstLine(s.description)}` : ""}`);
    }
    return { ok: true };
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

/** `map` → `'map`, `srv/tool` → `'srv/tool`; anything else is passed as a string. */
function quoteRef(arg: string): string {
  return /^[A-Za-z_*+!?<>=.-][\w*+!?<>=.\-/']*$/.test(arg) ? `'${arg}` : JSON.stringify(arg);
}
