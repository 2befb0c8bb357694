/**
 * `ptc repl`: the human REPL over the same tools. Interactive on a TTY; `--eval`, FILE or `-` run
 * non-interactively.
 * @module
 */
import { createEngine, EngineStartError } from "../engine/engine.ts";
import { runBatch, type BatchInput } from "../repl/batch.ts";
import { ReplCore } from "../repl/core.ts";
import { historyPath } from "../repl/history.ts";
import { runInteractive } from "../repl/interactive.ts";
import { colorWanted, makeStyle } from "../repl/style.ts";
import { VERSION } from "./version.ts";
import { intFlag, parseFlags, UsageError } from "./usage.ts";

const USAGE = `Usage: ptc repl [options] [FILE | -]

Options:
  --upstreams-config F            upstream config (JSONC); env PTC_UPSTREAMS
  -e, --eval EXPR                 evaluate EXPR (repeatable; later ones see earlier defs and *1)
  --catalog-snapshot-mode M       live (default: upstreams may refresh) or frozen
  --timeout-ms N                  wall-clock limit per evaluation (default 30000)
  --read-only                     hide and refuse tools not annotated read-only
  -h, --help                      this help

Interactive when stdin is a terminal and no --eval/FILE is given. Non-interactive runs print values and stop with
exit code 1 at the first failed form.`;

/** Entry point of `ptc repl`. */
export async function run(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseFlags(args, {
      "upstreams-config": { type: "string" },
      eval: { type: "string", short: "e", multiple: true },
      "catalog-snapshot-mode": { type: "string" },
      "timeout-ms": { type: "string" },
      "read-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    });
    if (flags.positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${flags.positionals.length}`);
    const mode = flags.values["catalog-snapshot-mode"];
    if (mode !== undefined && mode !== "live" && mode !== "frozen") {
      throw new UsageError(`--catalog-snapshot-mode must be live or frozen, got '${mode}'`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
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
  const timeoutMs = intFlag("timeout-ms", v["timeout-ms"] as string | undefined, 1) ?? 30_000;
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
      console.error(`ptc repl: cannot read ${file}: ${(e as Error).message}`);
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
      upstreamsConfig: (v["upstreams-config"] as string | undefined) ?? Deno.env.get("PTC_UPSTREAMS"),
      readOnly: Boolean(v["read-only"]),
      snapshot: (v["catalog-snapshot-mode"] as "live" | "frozen" | undefined) ?? "live",
      poolSize: 1,
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
  const core = new ReplCore(engine, session, {
    out: (s) => console.log(s),
    err: (s) => console.error(s),
  }, style, { timeoutMs });
  try {
    if (interactive) {
      const servers = engine.catalog();
      const banner = `ptc ${VERSION} REPL — ${
        servers.length ? `${servers.length} server(s): ${servers.map((s) => s.name).join(", ")}` : "no upstreams"
      }. :help for commands, Ctrl-D to exit.`;
      return await runInteractive(core, { historyFile: historyPath((n) => Deno.env.get(n)), style, banner });
    }
    return await runBatch(core, inputs, (s) => console.error(s));
  } finally {
    await core.session.close();
    await engine.close();
  }
}
