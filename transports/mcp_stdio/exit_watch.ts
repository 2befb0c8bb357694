/**
 * Noticing that a stdio server is gone by watching the process, not its pipes. A server started as
 * `sh -c "sleep 987 & exec node server.js"` leaves an orphan (`sleep`) that inherited its stdout and stderr: after
 * the server is killed the pipes never reach end-of-file, so a transport that waits for EOF never learns the server
 * died, and a stop that waits for the readers never returns. Here the child's exit is the event: its group is reaped
 * (group.ts), the pipes get a short grace to deliver what the server wrote before it exited, then they are cancelled.
 * @module
 */
import { signalGroup } from "./group.ts";

/** Grace given to the rest of a group between SIGTERM and SIGKILL once its leader has exited. */
export const GROUP_GRACE_MS = 200;
/** How long a dead server's pipes may still deliver buffered output before they are cancelled. */
export const DRAIN_GRACE_MS = 500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves true when `child` exits within `ms`, false otherwise. */
export function exitsWithin(child: Deno.ChildProcess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    child.status.then(() => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]).finally(() => clearTimeout(timer));
}

/** After the leader exited: SIGTERM what is left of its group, then SIGKILL it shortly after. */
export async function reapGroup(child: Deno.ChildProcess): Promise<void> {
  signalGroup(child, "SIGTERM");
  await sleep(GROUP_GRACE_MS);
  signalGroup(child, "SIGKILL");
}

/** The read side of a child's pipe, cancellable from outside the loop that reads it. */
export class PipeReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Resolves when the loop over this pipe ended (end of file, error or cancel). */
  done: Promise<void> = Promise.resolve();

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** Feed every chunk to `onChunk` until the pipe ends or is cancelled; read errors end it quietly. */
  pump(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    this.done = (async () => {
      try {
        while (true) {
          const { done, value } = await this.#reader.read();
          if (done) return;
          onChunk(value);
        }
      } catch {
        // the process went away
      }
    })();
    return this.done;
  }

  /** Stop reading (closes our end of the pipe). Never throws. */
  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

/**
 * The child is gone: let its pipes deliver what is buffered for at most `graceMs`, then cancel whatever an orphan
 * still holds open. Resolves when every reader loop has ended.
 */
export async function drainAfterExit(pipes: PipeReader[], graceMs = DRAIN_GRACE_MS): Promise<void> {
  const all = Promise.allSettled(pipes.map((p) => p.done)).then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([all, new Promise<boolean>((r) => timer = setTimeout(() => r(false), graceMs))]);
  clearTimeout(timer);
  if (drained) return;
  await Promise.all(pipes.map((p) => p.cancel()));
  await all;
}

/**
 * Everything that must happen once the server process exited, in order: its group reaped (an orphan holding the
 * pipes is killed where the group can be signalled), the pipes drained or cancelled. Bounded in time whatever the
 * orphans do.
 */
export async function afterExit(child: Deno.ChildProcess, pipes: PipeReader[]): Promise<void> {
  await child.status;
  await reapGroup(child);
  await drainAfterExit(pipes);
}
