/**
 * Command dispatch: `ptc <command> [args]`. Each command lives in its own module and is imported lazily so that
 * `ptc --help` and `ptc eval` do not load the MCP SDK.
 * @module
 */
import { VERSION } from "../version.ts";
import { usageError } from "./usage.ts";

/** A command module's entry point: receives the arguments after the command name, returns the exit code. */
export type CommandMain = (args: string[]) => Promise<number>;

interface CommandSpec {
  summary: string;
  load: () => Promise<CommandMain>;
}

const COMMANDS: Record<string, CommandSpec> = {
  eval: { summary: "evaluate a PTC-Lisp program", load: async () => (await import("./eval.ts")).run },
  repl: { summary: "interactive REPL over the configured tools", load: async () => (await import("./repl.ts")).run },
  mcp: { summary: "serve ptc as an MCP server (stdio or --http)", load: async () => (await import("./mcp.ts")).run },
  catalog: { summary: "compile and print the tool catalog", load: async () => (await import("./catalog.ts")).run },
  init: {
    summary: "write a commented config for an OpenAPI document (init openapi DOC)",
    load: async () => (await import("./init.ts")).run,
  },
  auth: {
    summary: "log in to an OAuth upstream once (auth login|status|logout NAME)",
    load: async () => (await import("./auth.ts")).run,
  },
  permissions: {
    summary: "print the minimal Deno permission flags a config needs",
    load: async () => (await import("./permissions.ts")).run,
  },
  doctor: { summary: "check a config, credentials and upstreams", load: async () => (await import("./doctor.ts")).run },
  fixture: {
    summary: "run a local fixture service (observatory)",
    load: async () => (await import("./fixture.ts")).run,
  },
  demo: { summary: "run the Observatory demo end to end", load: async () => (await import("./demo.ts")).run },
  docs: { summary: "print reference material (schema-config)", load: async () => (await import("./docs.ts")).run },
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
    "  -h, --help     show this help (or `ptc <command> --help`)",
    "  -V, --version  print the version",
    "",
    "Exit codes: 0 ok, 1 program or tool error, 2 usage or config error.",
  ].join("\n");
}

/** Run ptc with the given arguments; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
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
    return usageError(`unknown command '${first}'`, usage());
  }
  // Before the face loads: a permission it lacks is one line here, not an uncaught NotCapable later.
  const missing = await (await import("./start_check.ts")).missingAtStart(first, rest);
  if (missing) {
    console.error(`ptc ${first}: ${missing}`);
    return 2;
  }
  const run = await spec.load();
  return await run(rest);
}
