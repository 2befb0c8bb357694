/**
 * What `ptc mcp` serves when its engine cannot start — a config that cannot be read or is invalid, a library that does
 * not load, a recording that cannot be opened. Exiting would leave the client's user with "Connection closed" and the
 * reason buried in a log; instead `initialize` succeeds, `lisp_eval` is listed with a description that starts with the
 * problems, and every call answers with them and the fix. Nothing can run until the operator fixes the config and the
 * client restarts the server.
 * @module
 */
import { McpServer } from "@modelcontextprotocol/server";
import { VERSION } from "../version.ts";

/** The text a client's user sees: each problem on its own line, then what to do. */
export function startFailureText(problems: readonly string[]): string {
  return [
    "ptc could not start, so no program can run. The problems:",
    ...problems.map((p) => `- ${p}`),
    "Fix them (`ptc doctor` checks the config), then restart this MCP server from your client.",
  ].join("\n");
}

/**
 * A server factory (the same shape `createServerFactory` returns) whose only tool reports `problems`. The tool keeps
 * the name of the working `lisp_eval`, so a client configured for ptc needs no change once it is fixed.
 */
export function startFailureFactory(problems: readonly string[]) {
  const text = startFailureText(problems);
  return (_ctx: { authInfo?: { clientId: string } }) => {
    const server = new McpServer({ name: "ptc", version: VERSION }, { capabilities: { tools: {} } });
    server.registerTool(
      "lisp_eval",
      {
        description: text,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      () => ({ content: [{ type: "text" as const, text }], isError: true }),
    );
    return server;
  };
}
