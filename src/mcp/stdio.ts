/**
 * The stdio face: `serveStdio` answering both protocol eras. On stdio, stdout carries protocol frames only, so
 * every console method that would write to stdout is rerouted to stderr before anything else can log.
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

/** Serve the factory over stdio. `closed` resolves when the client closes stdin (or `close()` is called). */
export function serveMcpStdio(
  factory: Parameters<typeof serveStdio>[0],
  onError: (e: Error) => void,
): { closed: Promise<void>; close: () => Promise<void> } {
  const transport = new StdioServerTransport();
  const handle = serveStdio(factory, { legacy: "serve", onerror: onError, transport });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const inner = transport.onclose;
  transport.onclose = () => {
    inner?.();
    resolveClosed();
  };
  return {
    closed,
    close: async () => {
      await handle.close();
      resolveClosed();
    },
  };
}
