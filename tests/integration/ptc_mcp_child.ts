/**
 * Spawning `ptc mcp` as a child process from source: its command line, and an HTTP server child that is awaited until
 * it prints "listening on". Shared by the integration tests, `bench/mcp` and `scripts/mcp_conformance.ts`; it imports
 * nothing but Deno and node:path so a script can use it without pulling in fixtures or SDK clients.
 * @module
 */
import { join } from "node:path";

/** Repository root. */
export const ROOT = new URL("../../", import.meta.url).pathname;
/** `main.ts` of ptc. */
export const MAIN = join(ROOT, "main.ts");

/** The deno command line that runs `ptc mcp` with the given flags. */
export function ptcMcpArgs(flags: string[]): string[] {
  return ["run", "--unstable-no-legacy-abort", "-A", MAIN, "mcp", ...flags];
}

/** A `ptc mcp --http` child process. */
export interface HttpServer {
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  child: Deno.ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** SIGTERM the child (unless it already exited) and wait; returns its exit code. */
  stop(): Promise<number>;
  /** Wait for the child to exit on its own; returns its exit code. */
  exited(): Promise<number>;
}

/**
 * Spawn `ptc mcp --http 127.0.0.1:0 …` and wait for its "listening on" line. With `openFiles`, the child runs under
 * `ulimit -n openFiles` (through `sh -c`, which then execs it).
 */
export async function spawnHttpServer(
  flags: string[],
  env: Record<string, string> = {},
  options: { openFiles?: number } = {},
): Promise<HttpServer> {
  const args = ptcMcpArgs(["--http", "127.0.0.1:0", ...flags]);
  const limited = options.openFiles !== undefined;
  const child = new Deno.Command(limited ? "sh" : Deno.execPath(), {
    args: limited
      ? ["-c", `ulimit -n ${Math.floor(options.openFiles!)} && exec "$0" "$@"`, Deno.execPath(), ...args]
      : args,
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  let out = "";
  const decoder = new TextDecoder();
  let resolveUrl!: (url: string | undefined) => void;
  const urlPromise = new Promise<string | undefined>((r) => (resolveUrl = r));
  const readErr = (async () => {
    for await (const chunk of child.stderr) {
      err += decoder.decode(chunk, { stream: true });
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolveUrl(m[1]);
    }
    resolveUrl(undefined);
  })();
  const readOut = (async () => {
    for await (const chunk of child.stdout) out += decoder.decode(chunk, { stream: true });
  })();
  let status: Deno.CommandStatus | undefined;
  const finished = child.status.then((s) => (status = s));
  const url = await urlPromise;
  if (!url) {
    await finished;
    await Promise.all([readErr, readOut]);
    throw new Error(`ptc mcp --http did not start (exit ${status?.code}):\n${err}`);
  }
  return {
    url,
    origin: new URL(url).origin,
    child,
    stderr: () => err,
    stop: async () => {
      if (!status) {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
      }
      await finished;
      await Promise.all([readErr, readOut]);
      return status!.code;
    },
    exited: async () => {
      await finished;
      await Promise.all([readErr, readOut]);
      return status!.code;
    },
  };
}

/** One JSON-RPC frame `ptc mcp` wrote to stdout (the parts the tests read). */
export interface Frame {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  result?: { isError?: boolean; content: { type?: string; text: string }[] };
  error?: { code: number; message: string };
}

/** Another way to start `ptc mcp` (e.g. `bin/ptc mcp` from another directory with a clean environment). */
export interface StdioLaunch {
  command: string;
  /** The arguments before the flags (`["mcp"]` for the launcher). */
  args: string[];
  cwd: string;
  /** The child's whole environment. */
  env?: Record<string, string>;
}

/** A `ptc mcp` child over stdio, driven with raw JSON-RPC lines (no SDK client in between). */
export interface StdioServer {
  child: Deno.ChildProcess;
  /** Write one line: a message as JSON, or a string as it is. */
  send(message: unknown): Promise<void>;
  /** Send `tools/call` of `lisp_eval` with `program`. */
  call(id: number, program: string): Promise<void>;
  /** `initialize` (2025-11-25) and `notifications/initialized`; with `wait`, the answer to initialize comes first. */
  initialize(options?: { wait?: boolean }): Promise<void>;
  /** Every non-empty stdout line so far, as written. */
  lines: string[];
  /** The stdout lines parsed; throws naming the first line that is not JSON. */
  frames(): Frame[];
  /** Wait for the response to request `id`. */
  answer(id: number): Promise<Frame>;
  /** End of input: close the child's stdin. */
  closeInput(): Promise<void>;
  /** Wait for the child to exit and its output to end; returns the exit code and everything it wrote to stderr. */
  finished(): Promise<{ code: number; stderr: string }>;
  /** For `finally`: SIGKILL the child unless it exited, then release every pipe. */
  dispose(): Promise<void>;
}

/** Spawn `ptc mcp <flags>` on stdio with piped stdin/stdout/stderr; stdout is split into lines as it arrives. */
export function spawnStdioServer(flags: string[], launch?: StdioLaunch): StdioServer {
  const child = new Deno.Command(launch?.command ?? Deno.execPath(), {
    args: launch ? [...launch.args, ...flags] : ptcMcpArgs(flags),
    cwd: launch?.cwd ?? ROOT,
    ...(launch?.env ? { clearEnv: true, env: launch.env } : {}),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const encoder = new TextEncoder();
  const writer = child.stdin.getWriter();
  const lines: string[] = [];
  const reading = (async () => {
    let buf = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        if (nl > 0) lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    }
    if (buf !== "") lines.push(buf);
  })();
  const stderr = new Response(child.stderr).text();
  const send = (m: unknown) => writer.write(encoder.encode(`${typeof m === "string" ? m : JSON.stringify(m)}\n`));
  const frames = () =>
    lines.map((l, i): Frame => {
      try {
        return JSON.parse(l);
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
  const answer = async (id: number) => {
    for (;;) {
      const f = frames().find((x) => x.id === id);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    child,
    send,
    call: (id, program) =>
      send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "lisp_eval", arguments: { program } } }),
    initialize: async ({ wait = false } = {}) => {
      await send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      });
      if (wait) await answer(1);
      await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    },
    lines,
    frames,
    answer,
    closeInput: () => writer.close(),
    finished: async () => {
      const status = await child.status;
      await reading;
      return { code: status.code, stderr: await stderr };
    },
    dispose: async () => {
      try {
        child.kill("SIGKILL");
      } catch { /* exited */ }
      await child.status;
      await writer.close().catch(() => {});
      await reading.catch(() => {});
      await stderr.catch(() => {});
    },
  };
}
