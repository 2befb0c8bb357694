/**
 * Command dispatch: `ptc <command> [args]`. Each command lives in its own module and is imported lazily so that
 * `ptc --help` and `ptc eval` do not load the MCP SDK.
 * @module
 */
import { VERSION } from "../version.ts";
import { type CommandMain, COMMANDS as TABLE, type CommandSpec, COMPLETION_SUMMARY } from "./commands.ts";
import { usageError } from "./usage.ts";
import { EXIT_ON_SIGNAL_COMMANDS, exitOnStopSignals } from "./signals.ts";
import { didYouMean } from "../core/suggest.ts";

export type { CommandMain };

/** Every command `ptc` dispatches. */
const COMMANDS: Record<string, CommandSpec> = {
  ...TABLE,
  completion: { summary: COMPLETION_SUMMARY, load: async () => (await import("./completion.ts")).run },
};

/** The top-level usage text. */
export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`);
  return [
    `ptc ${VERSION} — programmatic tool calling: agents write PTC-Lisp, ptc runs it against real services.`,
    "",
    "Usage: ptc <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Options:",
    "  -h, --help     show this help (or `ptc help <command>`, `ptc <command> --help`)",
    "  -V, --version  print the version",
    "",
    "Exit codes: 0 ok, 1 program or tool error, 2 usage or config error.",
  ].join("\n");
}

/** `ptc help COMMAND`: the command's own `--help` (it needs no permission: no face starts). */
async function helpOf(command: string): Promise<number> {
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) {
    return usageError(`help: unknown command '${command}'${didYouMean(command, Object.keys(COMMANDS))}`, usage());
  }
  return await (await spec.load())(["--help"]);
}

/** Run ptc with the given arguments; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "help" && rest.length > 0) return await helpOf(rest[0]);
  if (first === undefined || first === "-h" || first === "--help" || first === "help") {
    console.log(usage());
    return first === undefined ? 2 : 0;
  }
  if (first === "-V" || first === "--version" || first === "version") {
    console.log(`ptc ${VERSION}`);
    return 0;
  }
  const spec = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!spec) {
    return usageError(`unknown command '${first}'${didYouMean(first, Object.keys(COMMANDS))}`, usage());
  }
  // Before the face loads: a permission it lacks is one line here, not an uncaught NotCapable later.
  const missing = await (await import("./start_check.ts")).missingAtStart(first, rest);
  if (missing) {
    console.error(`ptc ${first}: ${missing}`);
    return 2;
  }
  // A face without a graceful stop of its own ends at the first signal, leaving no sandbox or upstream process behind.
  if (EXIT_ON_SIGNAL_COMMANDS.includes(first)) exitOnStopSignals();
  const run = await spec.load();
  return await run(rest);
}
