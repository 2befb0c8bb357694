/**
 * What `ptc doctor` checks for an `mcp_stdio` upstream without starting it: that its command resolves to an
 * executable (on the PATH the child would get, or as a path relative to `cwd`).
 * @module
 */
import type { PreflightCheck } from "../../src/upstream/types.ts";
import { resolveCommand } from "./command.ts";
import type { McpStdioConfig } from "./config.ts";

/** The `command` check: the resolved executable, or `command_not_found` with a hint. */
export function commandCheck(config: McpStdioConfig): PreflightCheck {
  const env = config.env.PATH;
  let pathEnv: string | undefined = env && "literal" in env ? env.literal : undefined;
  if (pathEnv === undefined) {
    try {
      pathEnv = Deno.env.get("PATH");
    } catch {
      pathEnv = undefined;
    }
  }
  const found = resolveCommand(config.command, config.cwd, pathEnv);
  return found ? { check: "command", ok: true, detail: found } : {
    check: "command",
    ok: false,
    detail: `command_not_found: "${config.command}" is not an executable ${
      config.command.includes("/") ? "file" : "on PATH"
    }`,
    hint: "install it or give an absolute path in `command`",
  };
}
