/**
 * The stdio face: `serveStdio` answering both protocol eras. On stdio, stdout carries protocol frames only, so
 * every console method that would write to stdout is rerouted to stderr before anything else can log.
 *
 * End of input (the client closed our stdin) does not close the transport at once: calls already running still get
 * their answers (a pipeline such as `printf '…' | ptc mcp` sees every response); the face closes it after draining.
 * @module
 */
import { Buffer } from "node:buffer";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/**
 * Send console.log/info/debug/dir/table/trace to stderr (stdout belongs to the protocol). Idempotent. Libraries print
 * too: the `yaml` package `console.dir`s its tokens when `LOG_TOKENS` or `LOG_STREAM` is set in the environment.
 */
export function protectStdout(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
  console.dir = (item: unknown) => console.error(item);
  console.table = (data: unknown) => console.error(data);
  console.trace = toErr;
}

/** Largest accepted input frame (one line), newline included: the SDK's own read-buffer limit. */
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Bytes kept from the start of an oversized frame to find its request id. */
const HEAD_BYTES = 512;
const NEWLINE = 10;

/**
 * A stdio transport that reports end of input instead of closing, so in-flight answers can still be written, and
 * that survives an oversized frame: the SDK closes the transport when its read buffer passes 10 MiB (the server then
 * answers nothing until EOF); here a frame over `MAX_FRAME_BYTES` is discarded up to its newline and answered with a
 * JSON-RPC error (carrying the request's id when its first bytes show one), and the next frame is served as usual. A
 * line that is not JSON is answered −32700 (the SDK would drop it silently).
 */
class DrainingStdioTransport extends StdioServerTransport {
  readonly inputEnded: Promise<void>;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The first bytes of the oversized frame being discarded, or null. */
  #discarding: Buffer | null = null;

  constructor() {
    super();
    let ended!: () => void;
    this.inputEnded = new Promise<void>((r) => (ended = r));
    // Replaces the SDK's "stdin ended → close()" listener (registered by start(), after this constructor).
    this._onstdinclose = () => ended();
    // Frames the input ourselves; the SDK's handler only ever sees whole lines within its limit.
    const deliver = this._ondata;
    this._ondata = (chunk: Buffer) => this.#frame(chunk, deliver);
  }

  #frame(chunk: Buffer, deliver: (line: Buffer) => void): void {
    let offset = 0;
    while (offset < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, offset);
      const end = nl === -1 ? chunk.length : nl + 1;
      const piece = chunk.subarray(offset, end);
      offset = end;
      if (this.#discarding === null && this.#pendingBytes + piece.length > MAX_FRAME_BYTES) {
        this.#discarding = Buffer.concat([...this.#pending, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
        this.#pending = [];
        this.#pendingBytes = 0;
      }
      if (this.#discarding !== null) {
        if (nl !== -1) {
          this.#rejectOversized(this.#discarding);
          this.#discarding = null;
        }
        continue;
      }
      this.#pending.push(piece);
      this.#pendingBytes += piece.length;
      if (nl !== -1) {
        const line = this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending);
        this.#pending = [];
        this.#pendingBytes = 0;
        if (this.#parses(line)) deliver(line);
      }
    }
  }

  /**
   * True when `line` is JSON (or blank, which the SDK skips). Otherwise it is answered with JSON-RPC −32700 (Parse
   * error, id null, as the spec says when the id cannot be read) instead of the SDK's silence, and not delivered.
   */
  #parses(line: Buffer): boolean {
    const text = line.toString("utf8");
    if (text.trim() === "") return true;
    try {
      JSON.parse(text);
      return true;
    } catch {
      const message = {
        jsonrpc: "2.0" as const,
        id: null,
        error: { code: -32700, message: "parse error: the line is not valid JSON" },
      };
      this.send(message as unknown as Parameters<StdioServerTransport["send"]>[0]).catch(() => {});
      return false;
    }
  }

  #rejectOversized(head: Buffer): void {
    const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head.toString("utf8"))?.[1];
    const message = {
      jsonrpc: "2.0" as const,
      id: id === undefined ? null : JSON.parse(id),
      error: {
        code: -32600,
        message: `request too large: a frame over ${MAX_FRAME_BYTES} bytes was discarded; send smaller requests`,
      },
    };
    this.send(message as unknown as Parameters<StdioServerTransport["send"]>[0]).catch(() => {});
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
