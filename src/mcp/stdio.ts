/**
 * The stdio face: `serveStdio` answering both protocol eras. On stdio, stdout carries protocol frames only, so
 * every console method that would write to stdout is rerouted to stderr before anything else can log.
 *
 * End of input (the client closed our stdin) does not close the transport at once: calls already running still get
 * their answers (a pipeline such as `printf '…' | ptc mcp` sees every response); the face closes it after draining.
 * @module
 */
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** Send console.log/info/debug to stderr (stdout belongs to the protocol). Idempotent. */
export function protectStdout(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
}

/** A stdio transport that reports end of input instead of closing, so in-flight answers can still be written. */
class DrainingStdioTransport extends StdioServerTransport {
  readonly inputEnded: Promise<void>;

  constructor() {
    super();
    let ended!: () => void;
    this.inputEnded = new Promise<void>((r) => (ended = r));
    // Replaces the SDK's "stdin ended → close()" listener (registered by start(), after this constructor).
    this._onstdinclose = () => ended();
  }
}

/**
 * Serve the factory over stdio. `closed` resolves when the client ends our stdin or the transport closes (e.g. stdout
 * failed); `close()` closes the transport (call it after in-flight calls finished).
 */
export function serveMcpStdio(
  factory: Parameters<typeof serveStdio>[0],
  onError: (e: Error) => void,
): { closed: Promise<void>; close: () => Promise<void> } {
  const transport = new DrainingStdioTransport();
  const handle = serveStdio(factory, { legacy: "serve", onerror: onError, transport });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  transport.inputEnded.then(resolveClosed);
  const inner = transport.onclose;
  transport.onclose = () => {
    inner?.();
    resolveClosed();
  };
  return {
    closed,
    close: async () => {
      // Let answers of calls that just finished reach the wire (the SDK writes them a few microtasks later).
      await new Promise((r) => setTimeout(r, 0));
      await handle.close();
      resolveClosed();
    },
  };
}
