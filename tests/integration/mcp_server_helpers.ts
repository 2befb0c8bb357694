/**
 * Helpers of the `ptc mcp` integration tests: a "world" (the Observatory fixture, an MCP fixture upstream over HTTP
 * and a concrete upstreams config pointing at both), a spawned `ptc mcp` child (stdio or HTTP), and official MCP SDK
 * clients in each protocol era. Everything listens on 127.0.0.1 with OS-assigned ports and is always stopped.
 * @module
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { applyEdits, modify } from "jsonc-parser";
import { join } from "node:path";
import { createTokenDir, type RunningObservatory, startObservatory } from "../../fixtures/observatory/mod.ts";
import { type McpHttpFixture, startMcpHttpFixture } from "../../fixtures/mcp/http.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { ptcMcpArgs, ROOT } from "./ptc_mcp_child.ts";

export {
  type Frame,
  type HttpServer,
  MAIN,
  ptcMcpArgs,
  ROOT,
  spawnHttpServer,
  spawnStdioServer,
  type StdioServer,
} from "./ptc_mcp_child.ts";

/** A running set of upstream fixtures plus a config that names them. */
export interface World {
  dir: string;
  configPath: string;
  observatory: RunningObservatory;
  mcp?: McpHttpFixture;
  close(): Promise<void>;
}

/** Add (or replace) the upstream `name` in the JSONC config at `configPath`, keeping its comments. */
async function addUpstream(configPath: string, name: string, entry: Record<string, unknown>): Promise<void> {
  const text = await Deno.readTextFile(configPath);
  const edits = modify(text, ["upstreams", name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  await Deno.writeTextFile(configPath, applyEdits(text, edits));
}

/** Start the Observatory (and, unless `mcp: false`, the MCP HTTP fixture) and write a config for both. */
export async function startWorld(
  options: { mcp?: boolean; stdioUpstream?: boolean; traces?: number } = {},
): Promise<World> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-server-" });
  const tokenDir = join(dir, ".observatory");
  await Deno.mkdir(tokenDir, { mode: 0o700 });
  const tokens = await createTokenDir(tokenDir);
  const observatory = await startObservatory({
    port: 0,
    tokensFile: tokens.tokensFile,
    auditLog: "none",
    traces: options.traces ?? 400,
  });
  let mcp: McpHttpFixture | undefined;
  try {
    const configPath = await writeConcreteConfig(dir, observatory.url);
    if (options.mcp !== false) {
      mcp = await startMcpHttpFixture({ era: "both" });
      await addUpstream(configPath, "fixture", {
        transport: "mcp_http",
        description: "MCP fixture: echo, users, items, a slow sleep tool and a failing tool.",
        url: mcp.url,
        allow_insecure_loopback: true,
      });
    }
    if (options.stdioUpstream) {
      await addUpstream(configPath, "local", {
        transport: "mcp_stdio",
        description: "MCP fixture over stdio (a child process).",
        command: Deno.execPath(),
        args: ["run", "--frozen", "--cached-only", "--allow-env", join(ROOT, "fixtures/mcp/stdio.ts")],
      });
    }
    return {
      dir,
      configPath,
      observatory,
      mcp,
      close: async () => {
        await mcp?.close();
        await observatory.stop();
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      },
    };
  } catch (e) {
    await mcp?.close();
    await observatory.stop();
    throw e;
  }
}

/** The protocol eras a client can ask for. */
export type Era = "legacy" | "auto" | "modern";

function negotiation(era: Era) {
  return era === "modern" ? { pin: "2026-07-28" as const } : era;
}

/** A new official SDK client for one era (`name`: its declared clientInfo name). */
export function newClient(era: Era, name = `ptc-test-${era}`): Client {
  return new Client(
    { name, version: "0.0.1" },
    {
      versionNegotiation: { mode: negotiation(era), probe: { timeoutMs: 10_000 } },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
}

/** Connect a client to `ptc mcp` over stdio (the SDK spawns the child; `close()` ends it). */
export async function connectStdio(era: Era, flags: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = newClient(era);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ptcMcpArgs(flags),
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp", ...env },
    stderr: "pipe",
    cwd: ROOT,
  });
  // Keep the child's stderr drained so it can never block on a full pipe.
  transport.stderr?.on("data", () => {});
  await client.connect(transport);
  return client;
}

/** Connect a client to an HTTP server URL in one era, optionally with a bearer token and a client name. */
export async function connectHttp(era: Era, url: string, token?: string, name?: string): Promise<Client> {
  const client = newClient(era, name);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** The first text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

/** Call `lisp_eval` and return the raw result. */
export function evalLisp(client: Client, program: string, extra: Record<string, unknown> = {}) {
  return client.callTool({ name: "lisp_eval", arguments: { program, ...extra } });
}

/** A catalog line's label of an upstream that has not made its first attempt yet, or is making another. */
const UNSETTLED = /\[(not started|starting|restarting)\b/;

/**
 * The `lisp_eval` description `ptc mcp` serves once every upstream has made its first attempt (they start in the
 * background; bounded, 30 s — then it throws with the last description). Each read goes past the client's tools/list
 * cache: a tool call may have filled it before the upstreams settled, and the server's `list_changed` that evicts it
 * may still be on its way. The description itself is watched, not `(tool/servers)`: a config's discovery limits
 * (`max_catalog_result_bytes`, `max_catalog_ops`) may refuse that listing.
 */
export async function settledDescription(client: Client): Promise<string> {
  let description = "";
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const { tools } = await client.listTools(undefined, { cacheMode: "refresh" });
    description = tools.find((t) => t.name === "lisp_eval")?.description ?? "";
    if (!UNSETTLED.test(description)) return description;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`ptc mcp's upstreams did not settle within 30 s:\n${description}`);
}
