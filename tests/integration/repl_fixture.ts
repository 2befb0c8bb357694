/**
 * Shared set-up for the REPL integration tests: a live Observatory fixture on a free loopback port, a concrete
 * copy of `upstreams.example.jsonc` pointing at it (optionally with an extra upstream that cannot start), and a
 * helper that runs `ptc repl` as a subprocess.
 */
import { join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { freePort } from "./launcher_helpers.ts";
import {
  type AuditEntry,
  createTokenDir,
  type RunningObservatory,
  startObservatory,
} from "../../fixtures/observatory/mod.ts";

/** The repository root. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** A running fixture with its config. */
export interface ReplWorld {
  dir: string;
  server: RunningObservatory;
  /** Config with the `observatory` upstream only. */
  configPath: string;
  /** Config with `observatory` plus `broken`, whose schema URL refuses connections. */
  brokenConfigPath: string;
  /** The bearer token (to prove it never appears in output). */
  token: string;
  close(): Promise<void>;
}

/** Start the Observatory and write both configs into a temp dir. Always `close()` it. */
export async function startReplWorld(options: { onRequest?: (e: AuditEntry) => void } = {}): Promise<ReplWorld> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-repl-test-" });
  let server: RunningObservatory | undefined;
  try {
    const tokenDir = join(dir, ".observatory");
    await Deno.mkdir(tokenDir, { mode: 0o700 });
    const tokens = await createTokenDir(tokenDir);
    server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: options.onRequest ?? "none" });
    const configPath = await writeConcreteConfig(dir, server.url);
    const text = await Deno.readTextFile(configPath);
    // A loopback port that was free a moment ago: nothing listens, the connection is refused at once. (Not port 9:
    // fetch never contacts that "bad port", which is another failure than a refused connection.)
    const port = freePort();
    const broken = {
      transport: "openapi",
      description: "An upstream whose OpenAPI document cannot be fetched.",
      base_url: `http://127.0.0.1:${port}`,
      schema_url: `http://127.0.0.1:${port}/api/openapi.json`,
      allow_insecure_http: true,
      include_operations: ["list_traces"],
    };
    const edited = applyEdits(text, modify(text, ["upstreams", "broken"], broken, {}));
    const brokenConfigPath = join(dir, "upstreams-broken.jsonc");
    await Deno.writeTextFile(brokenConfigPath, edited);
    const running = server;
    return {
      dir,
      server: running,
      configPath,
      brokenConfigPath,
      token: tokens.token,
      close: async () => {
        await running.stop();
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      },
    };
  } catch (e) {
    await server?.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw e;
  }
}

/** Output of one `ptc repl` subprocess. */
export interface ReplRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `ptc repl ARGS` (non-interactively: stdin is a pipe) and collect its output. */
export async function runRepl(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "main.ts"), "repl", ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: options.env,
  }).spawn();
  const writer = child.stdin.getWriter();
  if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) } as ReplRun;
}
