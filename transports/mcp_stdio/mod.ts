/**
 * The `mcp_stdio` transport: an MCP server as a child process, spoken to with the official SDK v2 client.
 *
 * The child gets an explicit environment: `PATH` (unless `pass_path: false`), the `env` literals and the resolved
 * `{"binding": …}` credentials — nothing else unless `inherit_environment: true`. Secrets never go into argv or
 * logs. A crash is followed by restarts with exponential backoff; calls during the outage fail fast with
 * `upstream_unavailable`. `stop()` and process exit reap the child (see `reaper.ts`).
 * @module
 */
import type { JsonObject } from "../../src/core/json.ts";
import type { PermissionNeeds, Transport, TransportDeps, Upstream } from "../../src/upstream/types.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { connectClient, type Connection, ProbeTap } from "../mcp_common/session.ts";
import { startMcpUpstream } from "../mcp_common/upstream.ts";
import { type McpStdioConfig, mcpStdioSchema, parseStdioConfig } from "./config.ts";
import { ChildProcessTransport } from "./process.ts";
import { delegateSignalHandling, processEnding } from "./reaper.ts";
import { commandCheck } from "./preflight.ts";
import { KILL_PROGRAM, killProgramFound } from "./group.ts";

export type { McpStdioConfig } from "./config.ts";
export { resolveCommand, selfReference } from "./command.ts";

const STDERR_IN_MESSAGES = 400;

/** Build the child's environment (resolving credential bindings). Throws UpstreamStartError. */
export async function childEnvironment(config: McpStdioConfig, deps: TransportDeps): Promise<Record<string, string>> {
  let env: Record<string, string> = {};
  try {
    if (config.inheritEnvironment) env = Deno.env.toObject();
    else if (config.passPath && !("PATH" in config.env)) {
      const path = Deno.env.get("PATH");
      if (path !== undefined) env.PATH = path;
    }
  } catch {
    throw new UpstreamStartError(
      "permission_denied",
      `upstream ${config.upstreamName}: cannot read ptc's environment to pass it on`,
      config.inheritEnvironment ? "grant --allow-env or drop inherit_environment" : "grant --allow-env=PATH",
    );
  }
  for (const [name, value] of Object.entries(config.env)) {
    if ("literal" in value) {
      env[name] = value.literal;
      continue;
    }
    try {
      const secret = await deps.credentials.resolve(value.binding);
      deps.redactor.register(secret);
      env[name] = secret;
    } catch (e) {
      const why = e instanceof Error ? deps.redactor.redact(e.message) : "cannot be resolved";
      throw new UpstreamStartError(
        "credential_unavailable",
        `upstream ${config.upstreamName}: env ${name}: ${why}`,
        "run `ptc doctor` to check the credential bindings",
      );
    }
  }
  return env;
}

function absoluteCommand(command: string, cwd: string): string {
  if (!command.includes("/") || command.startsWith("/")) return command;
  return new URL(command, `file://${cwd.endsWith("/") ? cwd : cwd + "/"}`).pathname;
}

/** A spawn that failed with NotFound: the command or the working directory is missing. */
async function refineNotFound(error: unknown, config: McpStdioConfig): Promise<unknown> {
  if (!(error instanceof UpstreamStartError) || error.code !== "command_not_found") return error;
  try {
    await Deno.stat(config.cwd);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return new UpstreamStartError(
        "cwd_not_found",
        `upstream ${config.upstreamName}: the working directory does not exist`,
        "check `cwd` (relative paths resolve against the config file's directory)",
      );
    }
  }
  return error;
}

async function start(config: McpStdioConfig, deps: TransportDeps): Promise<Upstream> {
  const command = absoluteCommand(config.command, config.cwd);
  let current: ChildProcessTransport | undefined;
  const stderrTail = () => {
    // deno-lint-ignore no-control-regex
    const text = deps.redactor.redact(current?.stderrTail() ?? "").replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").trim();
    return text.length > STDERR_IN_MESSAGES ? `…${text.slice(-STDERR_IN_MESSAGES)}` : text;
  };
  const connect = async (): Promise<Connection> => {
    // Resolved at every (re)start, so a rotated credential reaches a restarted server.
    const env = await childEnvironment(config, deps);
    return await connectClient({
      ...config,
      cacheKey: JSON.stringify(["mcp_stdio", command, config.args, config.cwd]),
      makeTransport: () => {
        const tap = new ProbeTap();
        current = new ChildProcessTransport({
          command,
          args: config.args,
          cwd: config.cwd,
          env,
          maxMessageBytes: config.maxResponseBytes,
          stderrBytes: config.stderrBytes,
        }, tap);
        return { transport: current, tap };
      },
      describeFailure: () => {
        const facts = current?.facts();
        const parts: string[] = [];
        if (facts?.exitCode !== undefined) parts.push(`exit status ${facts.exitCode}`);
        const tail = stderrTail();
        if (tail) parts.push(`stderr: ${tail}`);
        return parts.join("; ");
      },
    }).catch(async (e) => {
      throw await refineNotFound(e, config);
    });
  };
  return await startMcpUpstream({
    transportName: "mcp_stdio",
    deps,
    connect,
    config,
    restart: {
      initialBackoffMs: config.restartBackoffMs,
      maxBackoffMs: config.restartMaxBackoffMs,
      maxAttempts: config.restartMaxAttempts,
      allowed: () => !processEnding(),
    },
    extraDiagnostics: (): JsonObject => {
      const facts = current?.facts();
      const out: JsonObject = { command: config.command };
      if (facts?.pid !== undefined) out.pid = facts.pid;
      if (facts?.exitCode !== undefined) out.lastExitCode = facts.exitCode;
      if (facts?.invalidLines) out.invalidStdoutLines = facts.invalidLines;
      const tail = stderrTail();
      if (tail) out.stderrTail = tail;
      return out;
    },
  });
}

/**
 * Permissions: `--allow-run=<command>`, and `kill` when it is on PATH — the one program that signals the server's
 * whole process group when it stops or dies (`Deno.kill` of a group would need `--allow-run` for every program; see
 * group.ts) — and the environment it reads (PATH, or everything when inheriting).
 */
function permissions(config: McpStdioConfig): PermissionNeeds {
  const run = [absoluteCommand(config.command, config.cwd)];
  if (killProgramFound()) run.push(KILL_PROGRAM);
  const needs: PermissionNeeds = { net: [], read: [], env: [], run };
  if (config.inheritEnvironment) needs.anyEnv = true;
  else if (config.passPath && !("PATH" in config.env)) needs.env.push("PATH");
  return needs;
}

const transport: Transport<McpStdioConfig> = {
  name: "mcp_stdio",
  summary: "an MCP server run as a child process",
  formerNames: ["stdio"],
  configSchema: mcpStdioSchema,
  parseConfig: parseStdioConfig,
  permissions,
  start,
  preflight: (config) => [commandCheck(config)],
  delegateProcessReaping: delegateSignalHandling,
};

export default transport;
