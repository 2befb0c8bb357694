/**
 * The table of `ptc` commands: each command's one-line summary and a lazy loader for its module, so that `ptc --help`
 * and `ptc eval` do not load the MCP SDK. `mod.ts` dispatches through it (adding `completion`, whose module reads this table,
 * so the table itself never imports it).
 * @module
 */

/** A command module's entry point: receives the arguments after the command name, returns the exit code. */
export type CommandMain = (args: string[]) => Promise<number>;

/** One command: its summary for `ptc --help` and its module's entry point, loaded on demand. */
export interface CommandSpec {
  summary: string;
  load: () => Promise<CommandMain>;
}

/** Every command, in the order `ptc --help` lists them. */
export const COMMANDS: Record<string, CommandSpec> = {
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
  view: {
    summary: "web UI over recordings and audit logs (runs, waterfalls, what the agent sees)",
    load: async () => (await import("./view.ts")).run,
  },
  docs: { summary: "print reference material (schema-config)", load: async () => (await import("./docs.ts")).run },
};

/** `ptc completion`'s summary. Its entry lives in mod.ts: the module reads this table, so the table never loads it. */
export const COMPLETION_SUMMARY = "print a shell completion script (completion bash|zsh|fish)";
