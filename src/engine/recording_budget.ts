/**
 * What a recorder has written into its directory, counted against the limits a replay accepts (`RecordingLimits`),
 * so that a recording always stays replayable. An evaluation whose own file would pass the per-file limit is left
 * out alone; one that would pass the file-count or total-size limit stops the recording for good, and the first
 * such refusal says so (once) — the evaluations themselves run and answer as usual.
 * @module
 */
import type { RecordingLimits } from "./recording_format.ts";

/** What a recording directory holds: evaluation files (the manifest not counted) and bytes of all files. */
export interface RecordingUsage {
  files: number;
  bytes: number;
}

/** Room for one evaluation file, or why not; `message` is set when the refusal is news (see the module doc). */
export type Reservation = { ok: true } | { ok: false; message?: string };

/** The running count of one recorder (see the module doc). */
export class RecordingBudget {
  #files: number;
  #bytes: number;
  #stopped = false;

  /** `onDisk`: what `dir` held when the recorder opened it (an earlier recording it adds to). */
  constructor(readonly dir: string, readonly limits: RecordingLimits, onDisk: RecordingUsage) {
    this.#files = onDisk.files;
    this.#bytes = onDisk.bytes;
  }

  /** True once a limit of the whole directory was reached: nothing more is recorded by this process. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** What this recorder counts as written (or reserved) so far. */
  get usage(): RecordingUsage {
    return { files: this.#files, bytes: this.#bytes };
  }

  /** Reserve room for the manifest (`bytes`); false when it alone passes the per-file limit. */
  reserveManifest(bytes: number): boolean {
    if (bytes > this.limits.fileBytes) return false;
    this.#bytes += bytes;
    return true;
  }

  /** Reserve room for the file of evaluation `what` (e.g. `evaluation 12`) of `bytes` (see `Reservation`). */
  reserve(what: string, bytes: number): Reservation {
    if (this.#stopped) return { ok: false };
    const { files, fileBytes, totalBytes } = this.limits;
    if (bytes > fileBytes) {
      return {
        ok: false,
        message:
          `recording: ${what} was not recorded into ${this.dir}: its file would hold ${bytes} bytes, more than ` +
          `a replay reads in one file (${fileBytes}); it ran and answered as usual, and later evaluations are still ` +
          "recorded",
      };
    }
    let limit: string | undefined;
    if (this.#files + 1 > files) limit = `the limit of ${files} evaluation files a replay reads`;
    else if (this.#bytes + bytes > totalBytes) {
      limit = `the limit of ${totalBytes} bytes in all a replay reads (it holds ${this.#bytes} bytes; ${what} adds ` +
        `${bytes})`;
    }
    if (limit) {
      this.#stopped = true;
      return {
        ok: false,
        message: `recording stopped: ${this.dir} would pass ${limit}, so ${what} and every later evaluation of this ` +
          "process are not recorded (they still run and answer as usual); to keep recording, start again with " +
          "--record naming a new directory",
      };
    }
    this.#files++;
    this.#bytes += bytes;
    return { ok: true };
  }

  /** Give back a reservation whose file was not written. */
  release(bytes: number): void {
    this.#files--;
    this.#bytes -= bytes;
  }

  /**
   * Another process writes into the same directory: count from what `dir` holds now (`onDisk`) plus `pending`, what
   * this recorder has reserved but perhaps not written yet (counted twice if written: erring toward stopping early).
   */
  resync(onDisk: RecordingUsage, pending: RecordingUsage): void {
    this.#files = Math.max(this.#files, onDisk.files + pending.files);
    this.#bytes = Math.max(this.#bytes, onDisk.bytes + pending.bytes);
  }
}
