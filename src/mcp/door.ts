/**
 * The door of the HTTP face: the TCP accept loop in front of the HTTP server. `Deno.serve` has no header-read
 * timeout, no connection cap, and exits the process when `accept` fails with EMFILE/ENFILE; the door supplies all
 * three before any byte reaches an HTTP parser:
 *
 * - **a cap on open connections**, checked at accept: one more is closed at once (a fixed 503, nothing parsed);
 * - **a header-read timeout**: a connection's first request head must arrive whole within `headerTimeoutMs` (a
 *   partial request line that idles is answered 408 and closed), and a head larger than `maxHeaderBytes` is 431; each
 *   later head on a kept-alive connection must too, from its first byte (`request_framing.ts`), or the connection is
 *   closed;
 * - **an idle timeout**: a connection with no bytes either way for `idleTimeoutMs` is closed (a keep-alive
 *   connection that holds nothing, or a client that stopped reading);
 * - **accept errors** (EMFILE, ENFILE, ECONNABORTED …) are reported and retried after a short pause, never thrown:
 *   the server keeps serving once the flood stops.
 *
 * An admitted connection is spliced, bytes unchanged, to the HTTP server listening on an OS-assigned loopback port.
 * The door remembers which of its loopback connections carries which client (`peerOf`), so the server sees the
 * real peer address; a connection to that port that did not come through the door has no peer and is refused.
 * @module
 */
import { RequestFraming } from "./request_framing.ts";

/** Options of the door. */
export interface DoorOptions {
  hostname: string;
  port: number;
  /** Open client connections at most; more are closed at accept. */
  maxConnections: number;
  /** Longest time the first request head may take to arrive whole. */
  headerTimeoutMs: number;
  /** Longest time a connection may pass with no byte in either direction. */
  idleTimeoutMs: number;
  /** Largest request head. */
  maxHeaderBytes: number;
  /** Told of each accept error (rate-limited by the pause that follows it). */
  onAcceptError?: (error: Error) => void;
}

/** Defaults of the door's knobs (the `--max-connections` and `--header-timeout-ms` flags of `ptc mcp`). */
export const DOOR_DEFAULTS = {
  maxConnections: 512,
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 300_000,
  maxHeaderBytes: 64 * 1024,
} as const;

/** The running door. */
export interface Door {
  /** The public port. */
  readonly port: number;
  /** Client connections open now. */
  readonly open: number;
  /** Connections closed at accept because the cap was reached, since start. */
  readonly refused: number;
  /** The client address behind a loopback connection from the door (by its local port), if it is one. */
  peerOf(innerPort: number): string | undefined;
  /** Stop accepting new connections; open ones carry on (their answers are still delivered). */
  stopAccepting(): void;
  /** Resolves once no connection is open (each ends when the server closes its side and the bytes are delivered). */
  idle(): Promise<void>;
  /** Stop accepting; close every connection. */
  close(): void;
}

const encoder = new TextEncoder();

function plain(status: string, text: string): Uint8Array {
  return encoder.encode(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
  );
}
const TIMEOUT = plain("408 Request Timeout", "request header timeout");
const TOO_LARGE = plain("431 Request Header Fields Too Large", "request header too large");
const BUSY = plain("503 Service Unavailable", "server busy: too many open connections; retry shortly");
const UNAVAILABLE = plain("503 Service Unavailable", "server unavailable; retry shortly");

/** Pause after an accept error before accepting again (the flood must ebb before fds come back). */
const ACCEPT_PAUSE_MS = 100;
/** How often the door checks its connections' deadlines. */
const SWEEP_MS = 250;

interface Tracked {
  conn: Deno.Conn;
  /** Request boundaries of the client's bytes, once the first head arrived (later heads are timed too). */
  framing?: RequestFraming;
  inner?: Deno.Conn;
  opened: number;
  lastActivity: number;
  /** True until the first request head arrived whole. */
  inHead: boolean;
  closed: boolean;
}

/** Write without waiting long: the bytes go out if the socket takes them; errors are ignored. */
function writeAndClose(conn: Deno.Conn, bytes: Uint8Array): void {
  conn.write(bytes).catch(() => {}).finally(() => {
    try {
      conn.close();
    } catch { /* closed */ }
  });
}

function headEnd(buf: Uint8Array, length: number): number {
  for (let i = 3; i < length; i++) {
    if (buf[i] === 10 && buf[i - 1] === 13 && buf[i - 2] === 10 && buf[i - 3] === 13) return i + 1;
  }
  return -1;
}

/** Open the door on `options.hostname:port`, splicing admitted connections to `127.0.0.1:innerPort()`. */
export function openDoor(innerPort: () => number, options: DoorOptions): Door {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
  const tracked = new Set<Tracked>();
  const peers = new Map<number, string>();
  let refused = 0;
  let closing = false;

  const idleWaiters: (() => void)[] = [];
  const untrack = (t: Tracked) => {
    tracked.delete(t);
    if (tracked.size === 0) { for (const resolve of idleWaiters.splice(0)) resolve(); }
  };
  const finish = (t: Tracked) => {
    if (t.closed) return;
    t.closed = true;
    untrack(t);
    for (const c of [t.conn, t.inner]) {
      try {
        c?.close();
      } catch { /* closed */ }
    }
  };

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const t of tracked) {
      const later = t.framing?.headStartedAt;
      if (t.inHead && now - t.opened >= options.headerTimeoutMs) {
        t.closed = true;
        untrack(t);
        writeAndClose(t.conn, TIMEOUT);
      } else if (later !== undefined && now - later >= options.headerTimeoutMs) {
        // A later request head that stalls: closed (an answer to an earlier request may still be on its way, so no
        // 408 is written into that stream).
        finish(t);
      } else if (now - t.lastActivity >= options.idleTimeoutMs) {
        finish(t);
      }
    }
  }, SWEEP_MS);
  Deno.unrefTimer(sweeper);

  async function pump(t: Tracked, from: Deno.Conn, to: Deno.Conn, framing?: RequestFraming): Promise<void> {
    const buf = new Uint8Array(64 * 1024);
    while (!t.closed) {
      const n = await from.read(buf);
      if (n === null) return;
      t.lastActivity = Date.now();
      if (framing?.feed(buf.subarray(0, n)) === "head_too_large") return;
      let off = 0;
      while (off < n) off += await to.write(buf.subarray(off, n));
    }
  }

  async function serve(t: Tracked): Promise<void> {
    // 1. The first request head, whole, within the header timeout and size cap (the sweeper enforces the time).
    const head = new Uint8Array(options.maxHeaderBytes + 1);
    let have = 0;
    while (true) {
      const n = await t.conn.read(head.subarray(have));
      if (n === null || t.closed) return finish(t);
      have += n;
      t.lastActivity = Date.now();
      if (headEnd(head, have) !== -1) break;
      if (have > options.maxHeaderBytes) {
        t.closed = true;
        untrack(t);
        return writeAndClose(t.conn, TOO_LARGE);
      }
    }
    t.inHead = false;
    const framing = new RequestFraming(options.maxHeaderBytes);
    if (framing.feed(head.subarray(0, have)) === "head_too_large") return finish(t);
    t.framing = framing;
    // 2. Splice to the HTTP server, which learns the peer from the door.
    let inner: Deno.TcpConn;
    try {
      inner = await Deno.connect({ hostname: "127.0.0.1", port: innerPort() });
    } catch {
      t.closed = true;
      untrack(t);
      return writeAndClose(t.conn, UNAVAILABLE);
    }
    t.inner = inner;
    if (t.closed) return finish(t);
    const key = (inner.localAddr as Deno.NetAddr).port;
    peers.set(key, (t.conn.remoteAddr as Deno.NetAddr).hostname);
    try {
      let off = 0;
      while (off < have) off += await inner.write(head.subarray(off, have));
      // Either side ending ends both: a client that leaves aborts its request on the server.
      await Promise.race([pump(t, t.conn, inner, framing), pump(t, inner, t.conn)]);
    } finally {
      peers.delete(key);
      finish(t);
    }
  }

  (async () => {
    while (!closing) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (e) {
        if (closing || e instanceof Deno.errors.BadResource) return;
        options.onAcceptError?.(e as Error);
        await new Promise((r) => setTimeout(r, ACCEPT_PAUSE_MS));
        continue;
      }
      if (tracked.size >= options.maxConnections) {
        refused++;
        writeAndClose(conn, BUSY);
        continue;
      }
      const now = Date.now();
      const t: Tracked = { conn, opened: now, lastActivity: now, inHead: true, closed: false };
      tracked.add(t);
      serve(t).catch(() => finish(t));
    }
  })();

  function stopAccepting(): void {
    if (closing) return;
    closing = true;
    try {
      listener.close();
    } catch { /* closed */ }
  }

  return {
    port: (listener.addr as Deno.NetAddr).port,
    get open() {
      return tracked.size;
    },
    get refused() {
      return refused;
    },
    peerOf: (innerPort) => peers.get(innerPort),
    stopAccepting,
    idle: () => tracked.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    close: () => {
      stopAccepting();
      clearInterval(sweeper);
      for (const t of [...tracked]) finish(t);
    },
  };
}
