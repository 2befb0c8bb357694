/**
 * The error of a recording that cannot be written or read, in a module of its own: faces test for it without loading
 * the recorder, the replayer and their schema checks, which only a `--record`/`--replay` run needs.
 * @module
 */

/** A recording that cannot be written or read; the message names the directory or file. */
export class RecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordingError";
  }
}
