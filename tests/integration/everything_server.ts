/**
 * Starting `@modelcontextprotocol/server-everything` (a devDependency) in its HTTP modes for integration tests: on
 * a port the OS assigned, reached at 127.0.0.1, stopped by the caller. Needs `node` on PATH.
 * @module
 */
import { ROOT, waitFor } from "../transports/mcp_common/helpers.ts";

/** The server's entry script. */
export const EVERYTHING = `${ROOT}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;

/** True when `node` can be run (the tests using server-everything are ignored otherwise). */
export function hasNode(): boolean {
  try {
    return new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** A running server-everything. */
export interface EverythingServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

/**
 * Start server-everything in `mode` (`sse`: GET /sse + POST /message; `streamableHttp`: /mcp). The server reads its
 * port from `PORT`; a port the OS just assigned (and released) is handed to it, or `samePort` (a restart).
 */
export async function startEverything(mode: "sse" | "streamableHttp", samePort?: number): Promise<EverythingServer> {
  let port = samePort ?? 0;
  if (port === 0) {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    port = (l.addr as Deno.NetAddr).port;
    l.close();
  }
  const child = new Deno.Command("node", {
    args: [EVERYTHING, mode],
    env: { PORT: String(port) },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const pump = (async () => {
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        log += value;
      }
    } catch {
      // closed
    }
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
    await pump;
  };
  if (!await waitFor(() => /running on port|listening/i.test(log), 15_000)) {
    await stop();
    throw new Error(`server-everything ${mode} did not start: ${log.slice(-500)}`);
  }
  return { port, origin: `http://127.0.0.1:${port}`, stop };
}
