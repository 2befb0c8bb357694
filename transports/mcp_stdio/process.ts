/**
 * An MCP client transport over a child process (`Deno.Command`), line-delimited JSON-RPC on stdin/stdout.
 *
 * Why not the SDK's `StdioClientTransport`: ptc needs an exact environment (`clearEnv`, so nothing is inherited by
 * accident), a byte cap per message that fails the one request instead of the connection, bounded and redacted
 * stderr capture, the child's pid for reaping, and `--allow-run` only (node:child_process would also need
 * unrestricted `--allow-env`). It exposes `pid` and `stderr`, so the SDK treats it as a stdio-shaped transport and
 * probes `server/discover` in place (one process per connect).
 * @module
 */
import { parseJSONRPCMessage, serializeMessage } from "@modelcontextprotocol/client";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { OVERSIZE_RPC_CODE } from "../mcp_common/errors.ts";
import type { ProbeTap } from "../mcp_common/session.ts";
import { trackChild, untrackChild } from "./reaper.ts";
import { signalGroup, spawnInOwnGroup } from "./group.ts";
import { afterExit, exitsWithin, PipeReader } from "./exit_watch.ts";
import { concatBytes } from "../../src/upstream/bytes.ts";

/** How to spawn the server. */
export interface ProcessSpec {
  /** Resolved command (absolute path). */
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the child. */
  env: Record<string, string>;
  /** Largest accepted message line in bytes. */
  maxMessageBytes: number;
  /** Bytes of stderr kept (the tail). */
  stderrBytes: number;
}

/** Facts about the last process, for diagnostics. */
export interface ProcessFacts {
  pid?: number;
  exitCode?: number;
  signal?: string;
  /** Lines on stdout that were not JSON-RPC (skipped). */
  invalidLines: number;
}

const NEWLINE = 10;
const KEEP_ID_BYTES = 512;

/** Bounded tail of a byte stream. */
class TailBuffer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Uint8Array) {
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    while (this.#size > this.limit && this.#chunks.length > 1) this.#size -= this.#chunks.shift()!.byteLength;
  }
  text(): string {
    const all = new Uint8Array(this.#size);
    let o = 0;
    for (const c of this.#chunks) {
      all.set(c, o);
      o += c.byteLength;
    }
    const start = Math.max(0, all.byteLength - this.limit);
    return new TextDecoder().decode(all.subarray(start));
  }
}

/** An MCP `Transport` over one child process. */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #pipes: PipeReader[] = [];
  /** Set once the child exited: its group reaped and its pipes drained or cancelled (exit_watch.ts). */
  #gone?: Promise<void>;
  #closed = false;
  #stderr: TailBuffer;
  #facts: ProcessFacts = { invalidLines: 0 };
  #encoder = new TextEncoder();

  constructor(private readonly spec: ProcessSpec, private readonly tap?: ProbeTap) {
    this.#stderr = new TailBuffer(spec.stderrBytes);
  }

  /** The child's pid once started (the SDK reads `pid` and `stderr` to recognise a stdio transport). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** stderr is captured internally (see {@link stderrTail}); there is no stream to hand out. */
  get stderr(): null {
    return null;
  }

  /** The captured tail of the child's stderr (not redacted: the caller redacts). */
  stderrTail(): string {
    return this.#stderr.text();
  }

  /** Facts about the process (pid, exit status). */
  facts(): ProcessFacts {
    return { ...this.#facts };
  }

  start(): Promise<void> {
    if (this.#child) throw new Error("already started");
    const child = spawnInOwnGroup(this.spec.command, {
      args: this.spec.args,
      cwd: this.spec.cwd,
      env: this.spec.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    });
    this.#child = child;
    this.#facts.pid = child.pid;
    trackChild(child);
    this.#writer = child.stdin.getWriter();
    const stdout = new PipeReader(child.stdout);
    const stderr = new PipeReader(child.stderr);
    this.#pipes = [stdout, stderr];
    this.#readStdout(stdout);
    stderr.pump((chunk) => this.#stderr.push(chunk));
    // The process's exit is the event, not the pipes' end: an orphan that inherited them may hold them open forever.
    // Whatever the server started dies with it (on a crash as on a stop), before any restart.
    this.#gone = afterExit(child, this.#pipes);
    child.status.then(async (status) => {
      this.#facts.exitCode = status.code;
      if (status.signal) this.#facts.signal = status.signal;
      await this.#gone;
      untrackChild(child);
      this.#finish();
    });
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the server process is not running");
    this.tap?.sent(message);
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  /**
   * Close stdin, give the server 2 s to exit, then SIGTERM, then SIGKILL — each signal to its whole process group.
   * Resolves when the process and what it started are gone.
   */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child) {
      this.#finish();
      return;
    }
    this.#closed = true;
    // Closing stdin is the polite stop; a server that stopped reading must not hold it up.
    await Promise.race([this.#writer?.close().catch(() => {}), exitsWithin(child, 2000)]);
    if (!(await exitsWithin(child, 2000))) {
      signalGroup(child, "SIGTERM");
      if (!(await exitsWithin(child, 2000))) signalGroup(child, "SIGKILL");
    }
    await this.#gone;
    untrackChild(child);
    this.#finish();
  }

  #finish() {
    if (this.#finished) return;
    this.#finished = true;
    this.#closed = true;
    this.onclose?.();
  }
  #finished = false;

  #readStdout(pipe: PipeReader) {
    const max = this.spec.maxMessageBytes;
    let parts: Uint8Array[] = [];
    let size = 0;
    let oversize: { head: Uint8Array; tail: Uint8Array } | undefined;
    const decoder = new TextDecoder();
    pipe.pump((chunk) => {
      let offset = 0;
      while (offset < chunk.byteLength) {
        const nl = chunk.indexOf(NEWLINE, offset);
        const end = nl === -1 ? chunk.byteLength : nl;
        const piece = chunk.subarray(offset, end);
        if (oversize) {
          oversize.tail = lastBytes(oversize.tail, piece);
        } else if (size + piece.byteLength > max) {
          const head = concatBytes([...parts, piece], size + piece.byteLength).subarray(0, KEEP_ID_BYTES);
          oversize = { head, tail: lastBytes(new Uint8Array(0), piece) };
          parts = [];
          size = 0;
        } else if (piece.byteLength > 0) {
          parts.push(piece.slice());
          size += piece.byteLength;
        }
        if (nl === -1) break;
        if (oversize) {
          this.#oversized(decoder.decode(oversize.head), decoder.decode(oversize.tail));
          oversize = undefined;
        } else {
          this.#line(decoder.decode(concatBytes(parts, size)));
        }
        parts = [];
        size = 0;
        offset = nl + 1;
      }
    });
  }

  #line(text: string) {
    const line = text.replace(/\r$/, "");
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      this.#facts.invalidLines++;
      return;
    }
    this.tap?.received(message);
    this.onmessage?.(message);
  }

  /** A response over the byte cap: answer its request with a synthetic error instead of buffering it. */
  #oversized(head: string, tail: string) {
    // SDK servers put `id` last; others first. Prefer the last match in the tail, then the first in the head.
    const re = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/g;
    const id = [...tail.matchAll(re)].at(-1)?.[1] ?? [...head.matchAll(re)][0]?.[1];
    if (id === undefined) {
      this.#facts.invalidLines++;
      return;
    }
    this.onmessage?.({
      jsonrpc: "2.0",
      id: JSON.parse(id),
      error: {
        code: OVERSIZE_RPC_CODE,
        message: `response exceeded the upstream cap of ${this.spec.maxMessageBytes} bytes`,
      },
    } as JSONRPCMessage);
  }
}

function lastBytes(prev: Uint8Array, next: Uint8Array): Uint8Array {
  const joined = concatBytes([prev, next], prev.byteLength + next.byteLength);
  return joined.subarray(Math.max(0, joined.byteLength - KEEP_ID_BYTES)).slice();
}
