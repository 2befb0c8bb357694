/**
 * Where the MCP Inspector CLI (`@modelcontextprotocol/inspector`, installed under tests/peers) lives, and whether it
 * is there. Its CLI runs only when `argv[1]` is its own file, so it is started by its real path (tests/peers/
 * node_modules may be a symlink).
 * @module
 */
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const INSPECTOR = join(ROOT, "tests/peers/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js");

/** Whether the Inspector CLI is installed. */
export function hasInspector(): boolean {
  try {
    Deno.statSync(INSPECTOR);
    return true;
  } catch {
    return false;
  }
}

/** The real path of the Inspector CLI's entry script (for `node`). */
export function inspectorScript(): string {
  return Deno.realPathSync(INSPECTOR);
}

/**
 * Run the Inspector CLI with `args` in `cwd` and parse its first JSON line; the exit code must be `expectCode`
 * (5 is its code for a tool result with isError).
 */
export async function runInspector(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; expectCode?: number },
): Promise<Record<string, unknown>> {
  const out = await new Deno.Command("node", {
    args: [inspectorScript(), "--format", "json", "-q", ...args],
    cwd: options.cwd,
    ...(options.env ? { clearEnv: true, env: options.env } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== (options.expectCode ?? 0)) {
    throw new Error(`inspector exited ${out.code}:\n${stdout}\n${stderr}`);
  }
  return JSON.parse(stdout.split("\n")[0]);
}
