/**
 * The HTTP server behind the door: `Deno.serve` on an OS-assigned loopback port, restarted when its accept loop dies.
 * `Deno.serve` ends its accept loop with an unhandled rejection when file descriptors run out (EMFILE/ENFILE), which
 * would end the process; here that rejection is caught (only that one: its message names the descriptor limit), the
 * dead server is shut down, and a new one is started on a fresh port — retried until descriptors are free again. The
 * door asks for the current port on every connection, so the face keeps serving once the flood ebbs.
 * @module
 */

/** Pause between attempts to start a replacement server while descriptors are short. */
const RESTART_PAUSE_MS = 200;
const OUT_OF_DESCRIPTORS = /Too many open files|os error 2[34]\b/;

/** The running inner server. */
export interface InnerServer {
  /** The current loopback port (changes after a restart). */
  port(): number;
  /** Stop serving (graceful: open connections finish). */
  shutdown(): Promise<void>;
}

/** Start serving `handler` on 127.0.0.1 (an OS-assigned port), restarting after an accept loop that died. */
export async function startInnerServer(
  handler: Deno.ServeHandler<Deno.NetAddr>,
  onError?: (e: Error) => void,
): Promise<InnerServer> {
  let current = await listen(handler);
  let restarting = false;
  let stopped = false;
  const restart = async () => {
    if (restarting || stopped) return;
    restarting = true;
    const dead = current.server;
    void dead.shutdown().catch(() => {});
    onError?.(new Error("the HTTP server ran out of file descriptors; starting it again"));
    while (!stopped) {
      try {
        current = await listen(handler);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS));
      }
    }
    if (stopped) void current.server.shutdown().catch(() => {});
    restarting = false;
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    const reason = e.reason as { name?: string; message?: string } | undefined;
    if (!OUT_OF_DESCRIPTORS.test(`${reason?.name ?? ""}: ${reason?.message ?? String(e.reason)}`)) return;
    e.preventDefault();
    void restart();
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  return {
    port: () => current.port,
    shutdown: async () => {
      stopped = true;
      globalThis.removeEventListener("unhandledrejection", onRejection);
      await current.server.shutdown();
    },
  };
}

function listen(handler: Deno.ServeHandler<Deno.NetAddr>): Promise<{ server: Deno.HttpServer; port: number }> {
  return new Promise((resolve, reject) => {
    try {
      // onListen may run before Deno.serve returns: the server is handed out once both happened.
      let port: number | undefined;
      const made: { server?: Deno.HttpServer } = {};
      const done = () => port !== undefined && made.server && resolve({ server: made.server, port });
      made.server = Deno.serve({
        hostname: "127.0.0.1",
        port: 0,
        onListen: (addr) => {
          port = addr.port;
          done();
        },
      }, handler);
      done();
    } catch (e) {
      reject(e);
    }
  });
}
