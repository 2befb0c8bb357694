/**
 * MCP stdio server configs whose process starts a grandchild (`sleep 300`) and writes its pid to a file, for the
 * tests that check a server's whole process group ends with it.
 * @module
 */
import { DENO, DENO_RUN_ARGS, FIXTURE_ENV, STDIO_FIXTURE } from "../mcp_common/helpers.ts";

const FIXTURE_ARGS = [...DENO_RUN_ARGS, "--allow-env", STDIO_FIXTURE];

/** A shell that starts `sleep 300` in the background, writes its pid, then becomes the fixture server. */
export function shellLauncher(pidFile: string) {
  const fixture = [DENO, ...FIXTURE_ARGS].map((a) => `'${a}'`).join(" ");
  return {
    transport: "mcp_stdio",
    command: "/bin/sh",
    args: ["-c", `/bin/sleep 300 & echo $! >> '${pidFile}'; exec ${fixture}`],
    env: FIXTURE_ENV,
  };
}

/** `node` as the command: it spawns `sleep 300` and the fixture server (sharing its stdio), like an npx launcher. */
export function nodeLauncher(pidFile: string) {
  const script = `
    const { spawn } = require("node:child_process");
    const fs = require("node:fs");
    const sleeper = spawn("/bin/sleep", ["300"], { stdio: "ignore" });
    fs.writeFileSync(${JSON.stringify(pidFile)}, String(sleeper.pid));
    const server = spawn(${JSON.stringify(DENO)}, ${JSON.stringify(FIXTURE_ARGS)}, { stdio: "inherit" });
    server.on("exit", (code) => process.exit(code ?? 1));`;
  return { transport: "mcp_stdio", command: "/usr/bin/node", args: ["-e", script], env: FIXTURE_ENV };
}
