/**
 * Reading a sandbox process's output on the host: frames from its stdout (one reused BYOB buffer, each frame decoded
 * and handed over as it completes), a bounded tail of its stderr, and the words that explain how it ended (exit code
 * or signal, the last stderr lines, a heap overflow told from a crash).
 * @module
 */
import { type ChildMessage, FrameDecoder } from "./protocol.ts";
import { failure, type RunResult } from "./run_result.ts";

/** Largest frame accepted from a sandbox process (a result is bounded well below this). */
const MAX_CHILD_FRAME = 512 * 1024 * 1024;
/** Bytes read from a process's stdout at once. */
const READ_CHUNK = 256 * 1024;
/** Characters of the process's stderr kept to explain a crash. */
const STDERR_TAIL = 4096;

const decoder = new TextDecoder();

/**
 * Read frames from `stdout` until it ends, handing each decoded message to `onMessage`; a broken frame or stream ends
 * the read with `onBroken(why)`.
 */
export async function readFrames(
  stdout: ReadableStream<Uint8Array>,
  onMessage: (msg: ChildMessage) => void,
  onBroken: (message: string) => void,
): Promise<void> {
  const frames = new FrameDecoder(MAX_CHILD_FRAME);
  // A BYOB reader into one reused buffer: about half the latency of iterating the stream's own chunks.
  const reader = stdout.getReader({ mode: "byob" });
  let scratch = new Uint8Array(READ_CHUNK);
  try {
    while (true) {
      const { value, done } = await reader.read(scratch);
      if (done || !value) break;
      frames.push(value);
      scratch = new Uint8Array(value.buffer, 0, READ_CHUNK);
      for (let body = frames.next(); body; body = frames.next()) {
        onMessage(JSON.parse(decoder.decode(body)) as ChildMessage);
      }
      // Let answers that are already known (a tool that resolved at once) go out before the next read is set up.
      await null;
    }
  } catch (e) {
    onBroken(`the sandbox process broke the protocol (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The last characters a process wrote to stderr, and how it ended in words. */
export class StderrTail {
  #text = "";

  /** Keep the tail of `stderr` until it ends. */
  async read(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
        this.#text = (this.#text + chunk).slice(-STDERR_TAIL);
      }
    } catch {
      // the process is gone
    }
  }

  /** Whether V8 reported a heap overflow. */
  get outOfMemory(): boolean {
    return /out of memory|heap limit/i.test(this.#text);
  }

  /** `exit code 3; last | lines` (V8's `[pid:0x…]` noise left out), at most 300 characters of stderr. */
  describe(status: Deno.CommandStatus): string {
    const how = status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
    const last = this.#text.trim().split("\n").filter((l) => l.trim() && !/^\s*\[\d+:0x/.test(l)).slice(-2);
    return last.length ? `${how}; ${last.join(" | ").slice(0, 300)}` : how;
  }
}

/**
 * The answer to a run whose process exited under it: `memory_limit` after a heap overflow (a session's ends the
 * session: its definitions and this program share the cap of `heapMb`), else `internal_error` naming how it crashed.
 */
export function exitResult(
  status: Deno.CommandStatus,
  stderr: StderrTail,
  run: { mode: "fresh" | "session"; started: number },
  heapMb: number,
): RunResult {
  if (!stderr.outOfMemory) {
    return failure("internal_error", `the sandbox process crashed: ${stderr.describe(status)}`, run.started, {
      abandoned: true,
    });
  }
  const session = run.mode === "session";
  return failure(
    "memory_limit",
    session
      ? `the session's sandbox process ran out of memory (its cap is ${heapMb} MiB for the ` +
        `definitions and this program together): the session has ended`
      : `the program exhausted the memory of its sandbox process (cap ${heapMb} MiB)`,
    run.started,
    { abandoned: true, sessionEnded: session },
  );
}
