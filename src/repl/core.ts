/**
 * The REPL's brain, independent of any terminal: evaluates submitted input in a session-owning sandbox process (defs,
 * closures and `*1 *2 *3` persist, `*e` holds the last error), runs `:commands`, and renders values and errors for
 * people. The interactive loop (interactive.ts) and the batch runner (batch.ts) both drive it.
 * @module
 */
import type { Approver } from "../upstream/approval.ts";
import type { Engine, EngineEvalResult, EngineSession } from "../engine/types.ts";
import type { JsonValue } from "../core/json.ts";
import { writesLine } from "../engine/writes.ts";
import { definedNames, DefinitionLog } from "./defs.ts";
import { hintFor } from "./hints.ts";
import { DEFAULT_PRETTY, type PrettyOptions, prettyPrinted } from "./pretty.ts";
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
  :doc SYM              docs of a builtin or special form, else your def, a library function, a server or a tool
  :find TEXT            search builtins and tools (alias :apropos)
  :tools [SERVER]       list the tools of every server, or of one
  :servers              list the configured servers and their status
  :limits               the limits each evaluation runs under
  :reset                forget every def (a fresh namespace)
  :quit                 leave (also Ctrl-D)
Anything else is PTC-Lisp. *1 *2 *3 are the last results, *e the last error ({:reason … :message …}).
Multi-line input continues until brackets balance. Ctrl-C cancels a running evaluation; your namespace stays. (If
the sandbox process must be replaced, your top-level defs are re-run on the new one with their recorded tool answers.)`;

/** The REPL core. */
export class ReplCore {
  #session: EngineSession;
  #pretty: PrettyOptions;
  #defs = new DefinitionLog();
  /** Who approves writes under `--approve-writes` (the interactive loop's y/N); none → `approval_unavailable`. */
  approver?: Approver;
  /** Bindings handed to every session evaluation: `*e` (the language session does not bind it in a sandbox process). */
  #globals: Record<string, JsonValue> = { "*e": null };

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

  /** The session (its sandbox process owns the namespace). */
  get session(): EngineSession {
    return this.#session;
  }

  /** Handle one complete input: a `:command` or a program. */
  async submit(input: string, signal?: AbortSignal): Promise<SubmitResult> {
    const text = input.trim();
    if (text === "") return { ok: true };
    if (text.startsWith(":")) return await this.#command(text, signal);
    const result = await this.#session.eval({
      program: input,
      timeoutMs: this.limits.timeoutMs,
      signal,
      globals: this.#globals,
      // the tool answers of a definition are kept so it can be re-created if the sandbox process must be replaced
      record: definedNames(input).length > 0,
      ...(this.approver ? { approver: this.approver } : {}),
    });
    const ok = this.#show(result, isDocForm(text));
    // What the evaluation changed, after its answer (also after a failure: an earlier write may have been applied).
    const writes = writesLine(result.calls);
    if (writes) this.io.err(this.style.hint(writes));
    // `(fail …)` keeps the defs made before it, like a success; a fault rolls them back
    if (result.ok) this.#defs.record(input, result.recorded);
    if (!ok) this.#noteError(result);
    if (result.sessionEnded) await this.#restart();
    else if (result.sessionLost) await this.#restore();
    return { ok };
  }

  /**
   * The session passed its memory cap and ended: start a new one. Definitions are not replayed (they would fill
   * the new session the same way).
   */
  async #restart(): Promise<void> {
    const names = this.#defs.names();
    this.#defs = new DefinitionLog();
    this.#session = await this.engine.openSession();
    await this.#session.reset(); // wait for the fresh process to load
    const lost = names.length ? `; these definitions are gone: ${names.join(", ")}` : "";
    this.io.err(
      this.style.hint(
        `note: the session passed its memory cap and ended; a fresh session starts (keep less in defs)${lost}`,
      ),
    );
  }

  /** Bind `*e` to the last error as `{:reason "…" :message "…"}` (a new object, so the process receives it). */
  #noteError(result: EngineEvalResult): void {
    const reason = result.ok ? "fail" : result.reason;
    const message = result.ok ? result.printed : result.message;
    this.#globals = { "*e": { reason, message } };
  }

  /** The session continues on a fresh process: re-run the recorded definitions (answers replayed), say what was lost. */
  async #restore(): Promise<void> {
    const names = this.#defs.names();
    const lost = "the session continues on a fresh sandbox process; *1 *2 *3 were cleared";
    if (names.length === 0) {
      // wait for the fresh process to load (its loading would erase the next prompt); its namespace is empty anyway
      await this.#session.reset();
      this.io.err(this.style.hint(`note: ${lost}`));
      return;
    }
    const report = await this.#defs.replay(async (program, calls) => {
      const r = await this.#session.eval({
        // `(do … nil)` keeps *1 *2 *3 nil, as on a fresh process.
        program: `(do ${program}\n nil)`,
        timeoutMs: this.limits.timeoutMs,
        replay: calls,
        globals: this.#globals,
      });
      if (r.ok && r.status !== "failed") return { ok: true };
      return r.ok ? { ok: false, reason: "fail", message: r.printed } : r;
    });
    const parts = [`note: ${lost}`];
    if (report.restored.length) {
      parts.push(
        `re-ran ${report.restored.length} definition(s) from source (tool answers replayed, not re-fetched): ${
          report.restored.join(", ")
        }`,
      );
    }
    for (const f of report.failed) {
      parts.push(`not restored: ${f.name} (${f.reason}: ${firstLine(f.message)}) — re-run it to define it again`);
    }
    this.io.err(this.style.hint(parts.join("\n")));
  }

  /** Print a result (a `(doc …)` text as it reads, `asText`); returns whether it succeeded. */
  #show(result: EngineEvalResult, asText = false): boolean {
    for (const line of result.prints) this.io.out(line);
    if (result.ok && result.status !== "failed") {
      if (asText && typeof result.json === "string") this.io.out(result.json);
      else this.io.out(this.style.value(prettyPrinted(result.printed, this.#pretty)));
      return true;
    }
    const reason = result.ok ? "fail" : result.reason;
    // Some layers already prefix the reason; say it once.
    const message = (result.ok ? result.printed : result.message).replace(new RegExp(`^(${reason}: )+`), "");
    this.io.err(this.style.error(`${reason}: ${message}`));
    const tools = reason === "unbound_var"
      ? this.engine.catalog().flatMap((s) => s.tools.map((t) => `${s.name}/${t.name}`))
      : [];
    const hint = hintFor(reason, message, tools);
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
        return await this.#doc(arg, signal);
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
        this.#defs.clear();
        this.#globals = { "*e": null };
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

  /**
   * `:doc NAME`: builtins and special forms first (the language's `doc`), then the session's own definitions (their
   * source), then the operator libraries (a namespace or a public function of that name); any other bare name falls back to upstream discovery: a server of that name, or the tool of that name
   * on whichever server has it.
   */
  async #doc(arg: string, signal?: AbortSignal): Promise<SubmitResult> {
    if (arg.includes("/") || !/^[^\s"]+$/.test(arg)) {
      return await this.#discovery(`(doc ${quoteRef(arg)})`, signal, false);
    }
    const builtin = await this.engine.evaluate({
      program: `(doc ${quoteRef(arg)})`,
      timeoutMs: this.limits.timeoutMs,
      signal,
      offline: true,
    });
    // Offline, the language documents builtins and special forms (a string) and answers nil for the rest.
    const documented = builtin.ok && builtin.status !== "failed" && typeof builtin.json === "string";
    const libraries = this.engine.libraries();
    const libraryNs = libraries.some((n) => n.name === arg);
    if (documented && !libraryNs) return this.#printDiscovery(builtin, false);
    if (builtin.ok && builtin.status === "failed") return { ok: this.#show(builtin) };
    const mine = this.#defs.source(arg);
    if (mine !== undefined) {
      this.io.out(`${arg} - defined in this session:\n${mine}`);
      return { ok: true };
    }
    if (!builtin.ok && builtin.reason === "cancelled") return { ok: this.#show(builtin) };
    // Then the operator libraries: a namespace, or a public function named so (unqualified).
    if (documented && libraryNs) return this.#printDiscovery(builtin, false);
    const libraryFns = libraries.flatMap((n) => n.functions.filter((f) => f.name === arg).map((f) => f.ref));
    if (libraryFns.length > 0) return await this.#discovery(`(doc '${libraryFns[0]})`, signal, false);
    const catalog = this.engine.catalog();
    const server = catalog.find((s) => s.name === arg);
    if (server) {
      if (!server.tools.length && server.status !== "ready") {
        this.io.err(this.style.error(`server '${arg}' is ${server.statusText}; its tools are not known yet`));
        return { ok: false };
      }
      this.io.out(`${server.name} - ${server.description}`);
      return this.#tools(server.name);
    }
    const owners = catalog.filter((s) => s.tools.some((t) => t.name === arg)).map((s) => `${s.name}/${arg}`);
    if (owners.length === 1) return await this.#discovery(`(doc '${owners[0]})`, signal, false);
    if (owners.length > 1) {
      this.io.out(`'${arg}' is a tool of several servers: ${owners.join(", ")}; ask for one, e.g. :doc ${owners[0]}`);
      return { ok: true };
    }
    this.io.err(this.style.error(`no builtin, special form, server or tool named '${arg}'`));
    this.io.err(this.style.hint(`hint: :find ${arg} searches builtins and tools by name and description`));
    return { ok: false };
  }

  /** Run a discovery form in a pooled sandbox process, so the session's *1 and namespace are untouched. */
  async #discovery(program: string, signal: AbortSignal | undefined, lines: boolean): Promise<SubmitResult> {
    const result = await this.engine.evaluate({ program, timeoutMs: this.limits.timeoutMs, signal });
    return this.#printDiscovery(result, lines);
  }

  /** Show a discovery answer: a doc text as it reads, a list of matches one line each. */
  #printDiscovery(result: EngineEvalResult, lines: boolean): SubmitResult {
    if (!result.ok) return { ok: this.#show(result) };
    for (const line of result.prints) this.io.out(line);
    if (typeof result.json === "string") this.io.out(result.json);
    else if (!lines && result.json === null) this.io.out("no documentation found");
    else if (lines && Array.isArray(result.json)) {
      if (result.json.length === 0) this.io.out("no matches");
      for (const item of result.json) this.io.out(firstLine(String(item)));
    } else if (result.printed !== "nil") {
      this.io.out(prettyPrinted(result.printed, this.#pretty));
    }
    return { ok: true };
  }

  #tools(server: string): SubmitResult {
    const catalog = this.engine.catalog();
    const chosen = server ? catalog.filter((s) => s.name === server) : catalog;
    if (server && chosen.length === 0) {
      this.io.err(
        this.style.error(`no server '${server}'; servers: ${catalog.map((s) => s.name).join(", ") || "none"}`),
      );
      return { ok: false };
    }
    if (catalog.length === 0) this.io.out("no upstreams configured (start with --upstreams-config FILE)");
    for (const s of chosen) {
      if (s.status !== "ready") this.io.out(`${s.name}: ${firstLine(s.statusText)}`);
      for (const t of s.tools) this.io.out(`${s.name}/${t.name} - ${firstLine(t.description)}`);
    }
    return { ok: true };
  }

  #servers(): SubmitResult {
    const catalog = this.engine.catalog();
    if (catalog.length === 0) this.io.out("no upstreams configured (start with --upstreams-config FILE)");
    for (const s of catalog) {
      const faulty = s.status === "failed" || s.status === "reconnecting";
      const word = s.status === "ready"
        ? `${s.tools.length} tools`
        : faulty
        ? this.style.error(s.status === "failed" ? "unavailable" : "restarting")
        : s.status === "idle"
        ? "not started"
        : s.status === "connecting"
        ? "starting"
        : s.status;
      this.io.out(`${s.name} (${word})${s.description ? ` - ${firstLine(s.description)}` : ""}`);
      // why, and when ptc tries again
      if (faulty) this.io.out(`  ${s.statusText}`);
    }
    return { ok: true };
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 100 ? `${line.slice(0, 98).replace(/\s+\S*$/, "")}…` : line;
}

/** `map` → `'map`, `srv/tool` → `'srv/tool`; anything else is passed as a string. */
function quoteRef(arg: string): string {
  return /^[A-Za-z_*+!?<>=.-][\w*+!?<>=.\-/']*$/.test(arg) ? `'${arg}` : JSON.stringify(arg);
}

/** A whole input that is one `(doc …)` or `(source …)` form: its string answer is shown as text, not as a literal. */
function isDocForm(text: string): boolean {
  return /^\((doc|source)\s[^()]*\)$/.test(text);
}
