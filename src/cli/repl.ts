/**
 * `ptc repl`: the human REPL over the same tools. Interactive on a TTY; `--eval`, FILE or `-` run
 * non-interactively.
 * @module
 */
import { processAllowsWrites, processApprovesWrites, processReadOnly } from "../upstream/config.ts";
import { createEngine, EngineStartError } from "../engine/engine.ts";
import { type BatchInput, runBatch } from "../repl/batch.ts";
import { ReplCore } from "../repl/core.ts";
import { historyPath } from "../repl/history.ts";
import { runInteractive } from "../repl/interactive.ts";
import { colorWanted, makeStyle } from "../repl/style.ts";
import { LIMIT_FLAG_OPTIONS, LimitFlagError, limitsFromFlags, limitsUsage, resolveLimits } from "../sandbox/mod.ts";
import type { CatalogServer } from "../engine/types.ts";
import { VERSION } from "../version.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { parseFlags, UsageError } from "./usage.ts";

/** The REPL's wall-clock limit per evaluation unless --timeout-ms says otherwise (people explore slow upstreams). */
const REPL_TIMEOUT_MS = 30_000;

const USAGE = `Usage: ptc repl [options] [FILE | -]

Options:
  --upstreams-config F        upstream config (JSONC); env PTC_UPSTREAMS
  -e, --eval EXPR             evaluate EXPR (repeatable; later ones see earlier defs and *1)
  --read-only                 hide and refuse every write tool; env PTC_READ_ONLY
  --allow-writes              install write tools the config allows (allow_writes); env PTC_ALLOW_WRITES
  --approve-writes            ask on the terminal (y/N) before each write (as the config's approve_writes); a
                              non-interactive run has no one to ask: writes end :approval_unavailable;
                              env PTC_APPROVE_WRITES
  -h, --help                  this help
Limits per evaluation (--timeout-ms defaults to ${REPL_TIMEOUT_MS} here):
${limitsUsage().join("\n")}

Interactive when stdin is a terminal and no --eval/FILE is given (history: $PTC_HISTORY_FILE, else
$XDG_STATE_HOME/ptc/history or ~/.local/state/ptc/history). Non-interactive runs print values and stop with exit
code 1 at the first failed form; a line starting with ':' is a REPL command (:doc map).`;

/** The flags of `ptc repl` (also read by `ptc permissions repl`). */
export const REPL_OPTIONS = {
  "upstreams-config": { type: "string" },
  eval: { type: "string", short: "e", multiple: true },
  ...LIMIT_FLAG_OPTIONS,
  "read-only": { type: "boolean" },
  "allow-writes": { type: "boolean" },
  "approve-writes": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc repl`. */
export async function run(args: string[]): Promise<number> {
  let flags;
  let limits;
  try {
    flags = parseFlags(args, REPL_OPTIONS);
    if (flags.positionals.length > 1) {
      throw new UsageError(`expected at most one FILE, got ${flags.positionals.length}`);
    }
    limits = limitsFromFlags(flags.values);
  } catch (e) {
    if (e instanceof UsageError || e instanceof LimitFlagError) {
      console.error(`ptc repl: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  const v = flags.values;
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  const effective = resolveLimits({ timeoutMs: REPL_TIMEOUT_MS }, limits);
  const inputs: BatchInput[] = [];
  for (const [i, expr] of ((v.eval as string[] | undefined) ?? []).entries()) {
    inputs.push({ name: `--eval #${i + 1}`, text: expr });
  }
  const file = flags.positionals[0];
  if (file !== undefined) {
    try {
      inputs.push({
        name: file === "-" ? "stdin" : file,
        text: file === "-" ? await new Response(Deno.stdin.readable).text() : await Deno.readTextFile(file),
      });
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound
        ? "no such file"
        : e instanceof Deno.errors.PermissionDenied
        ? "permission denied"
        : e instanceof Deno.errors.IsADirectory
        ? "it is a directory"
        : (e as Error).message;
      console.error(`ptc repl: cannot read ${file}: ${why}`);
      return 2;
    }
  }
  const interactive = inputs.length === 0 && Deno.stdin.isTerminal();
  if (inputs.length === 0 && !interactive) {
    inputs.push({ name: "stdin", text: await new Response(Deno.stdin.readable).text() });
  }
  let engine;
  try {
    engine = await createEngine({
      registry: registerBuiltins(),
      upstreamsConfig: (v["upstreams-config"] as string | undefined) ?? Deno.env.get("PTC_UPSTREAMS"),
      readOnly: processReadOnly(v["read-only"] === true),
      allowWrites: processAllowsWrites(v["allow-writes"] === true),
      upstreamStart: "background",
      approveWrites: processApprovesWrites(v["approve-writes"] === true),
      poolSize: 1,
      limits: effective,
      onWarning: (m) => console.error(`ptc repl: ${m}`),
    });
  } catch (e) {
    if (e instanceof EngineStartError) {
      for (const line of e.lines) console.error(`ptc repl: ${line}`);
      return 2;
    }
    throw e;
  }
  const style = makeStyle(colorWanted(Deno.stdout.isTerminal(), (n) => Deno.env.get(n)));
  const session = await engine.openSession();
  const core = new ReplCore(
    engine,
    session,
    {
      out: (s) => console.log(s),
      err: (s) => console.error(s),
    },
    style,
    { ...effective },
  );
  try {
    if (interactive) {
      // Wait until the session's worker has loaded: Deno clears the terminal line (on stderr) when a worker's
      // modules finish loading, which would erase a prompt drawn before. A fresh session's reset changes nothing.
      await session.reset();
      const banner = `ptc ${VERSION} REPL — ${serverSummary(engine.catalog())}. :help for commands, Ctrl-D to exit.`;
      return await runInteractive(core, { historyFile: historyPath((n) => Deno.env.get(n)), style, banner });
    }
    return await runBatch(core, inputs, (s) => console.error(s));
  } catch (e) {
    // The reader of our output went away (`ptc repl -e … | head`): nothing left to report to.
    if (e instanceof Deno.errors.BrokenPipe) return 0;
    throw e;
  } finally {
    await core.session.close();
    await engine.close();
  }
}

/** "2 servers: observatory, broken (failed)" for the banner (`:servers` says why). */
function serverSummary(servers: CatalogServer[]): string {
  if (servers.length === 0) return "no upstreams (start with --upstreams-config FILE)";
  const word = (s: CatalogServer) => s.status === "idle" ? "not started" : s.status;
  const names = servers.map((s) => (s.status === "ready" ? s.name : `${s.name} (${word(s)})`));
  return `${servers.length} server${servers.length === 1 ? "" : "s"}: ${names.join(", ")}`;
}
