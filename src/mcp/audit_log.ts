/**
 * The audit log file of `ptc mcp --audit-log FILE`: an append-only JSON Lines writer. One writer per process
 * serializes every append, so each line reaches the file whole and lines of concurrent evaluations never interleave;
 * a batch (an evaluation's call lines and its evaluation line) is one write. `reopen()` (SIGHUP) closes the file and
 * opens FILE afresh, for rotation by `mv` + signal.
 *
 * Failure policy (fail closed): when a write fails (disk full, file gone read-only, the folder moved away) the lines
 * that could not be written go to stderr, marked, and the log is `failed`. While failed, `admit()` — asked before each
 * evaluation — tries to reopen FILE and write a `resumed` line; until that works, evaluations are refused. Nothing is
 * dropped silently: lines written while the log is failed go to stderr too.
 *
 * Bounded: each line is cut to `maxLineBytes` by its producer; appends that may be dropped (denied requests, which a
 * flood can produce faster than a slow disk takes them) are refused once `maxPendingBytes` wait, and counted in a
 * `dropped` line; appends of evaluations always wait (they are bounded by the concurrency gate, whose permit the
 * evaluation holds until its lines are written).
 * @module
 */
import type { JsonObject } from "../core/json.ts";

/** Default of `AuditLogOptions.maxPendingBytes`. */
export const DEFAULT_MAX_PENDING_BYTES = 1024 * 1024;

/** Options of the writer. */
export interface AuditLogOptions {
  /** Where operator messages go (stderr in `ptc mcp`). */
  report: (message: string) => void;
  /** Bytes of droppable lines that may wait for the disk; more are dropped and counted (default 1 MiB). */
  maxPendingBytes?: number;
  /** The clock of the `time` fields (tests). */
  now?: () => Date;
}

/** The audit log could not be opened at start. */
export class AuditLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuditLogError";
  }
}

const encoder = new TextEncoder();

/** The OS error of a failed open or write, without anything a client or upstream controls. */
function osError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message.split("\n")[0].slice(0, 200)}`;
  return String(e).slice(0, 200);
}

/**
 * What `path` is when it is not a regular file, as replay judges its recording files: a symbolic link (it could lead
 * out of the path the operator granted), a FIFO (opening it would wait for a reader), a socket, a directory or a
 * device. Undefined when it is a regular file or absent (the open creates it).
 */
async function notRegular(path: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    return `not inspectable (${osError(e)})`;
  }
  return describeNonRegular(info);
}

function describeNonRegular(info: Deno.FileInfo): string | undefined {
  if (info.isSymlink) return "a symbolic link: name the file itself";
  if (info.isFile) return undefined;
  if (info.isFifo) return "a FIFO (named pipe): opening it would wait for a reader";
  if (info.isSocket) return "a socket";
  if (info.isDirectory) return "a directory";
  return "not a regular file (a device?)";
}

/** True when `opened` (fstat of the open file) is the regular file `path` names now (no symlink swapped in). */
async function sameFile(path: string, opened: Deno.FileInfo): Promise<boolean> {
  const now = await Deno.lstat(path).catch(() => undefined);
  if (!now || !now.isFile || !opened.isFile) return false;
  return now.ino === opened.ino && now.dev === opened.dev;
}

/** How long an open of FILE may take: opening a FIFO swapped in after the check never ends. */
export const OPEN_TIMEOUT_MS = 2_000;

function openError(name: string, what: string): Error {
  const e = new Error(`${what}; the audit log is a file, rotated by mv and SIGHUP`);
  e.name = name;
  return e;
}

/**
 * Open `path` for appending, refusing anything but a regular file (a symlink, a FIFO, a socket …), within
 * `OPEN_TIMEOUT_MS`. An open that is still
 * waiting (a FIFO without a reader) is handed back through `stuck` and awaited again by the next attempt instead of
 * starting another: attempts never pile up blocked opens.
 */
async function openFile(path: string, stuck: { open?: Promise<Deno.FsFile> }): Promise<Deno.FsFile> {
  const what = await notRegular(path);
  if (what !== undefined) throw openError("NotARegularFile", `it is ${what}`);
  const opening = stuck.open ?? Deno.open(path, { append: true, create: true, mode: 0o600 });
  stuck.open = undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((done) => timer = setTimeout(() => done("late"), OPEN_TIMEOUT_MS));
  const file = await Promise.race([opening, late]).finally(() => clearTimeout(timer));
  if (file === "late") {
    stuck.open = opening;
    opening.catch(() => {});
    throw openError("OpenTimedOut", `opening it did not finish within ${OPEN_TIMEOUT_MS} ms (a FIFO nobody reads?)`);
  }
  // The path may have changed between the check and the open (a symlink swapped in): the file opened must be the
  // regular file the path names now.
  const info = await file.stat().catch(() => undefined);
  if (!info || !(await sameFile(path, info))) {
    file.close();
    const what = info ? describeNonRegular(info) : undefined;
    throw openError("NotARegularFile", what ? `it is ${what}` : "it changed while being opened (a symbolic link?)");
  }
  return file;
}

/** The append-only JSON Lines writer (see the module comment for its guarantees). */
export class AuditLog {
  #file: Deno.FsFile | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #dropped = 0;
  #failure: string | undefined;
  #onStderr = 0;
  /** An open of FILE that has not finished yet (see `openFile`). */
  #stuck: { open?: Promise<Deno.FsFile> } = {};
  readonly #maxPending: number;
  readonly #now: () => Date;

  private constructor(
    readonly path: string,
    file: Deno.FsFile,
    private readonly options: AuditLogOptions,
    stuck: { open?: Promise<Deno.FsFile> },
  ) {
    this.#file = file;
    this.#stuck = stuck;
    this.#maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    this.#now = options.now ?? (() => new Date());
  }

  /** Open (create, mode 0600) `path` for appending and write an `opened` line; throws `AuditLogError`. */
  static async open(path: string, options: AuditLogOptions): Promise<AuditLog> {
    let file;
    const stuck = {};
    try {
      file = await openFile(path, stuck);
    } catch (e) {
      throw new AuditLogError(`--audit-log ${path}: cannot open the file for appending (${osError(e)})`);
    }
    const log = new AuditLog(path, file, options, stuck);
    if (!(await log.append([log.#event("opened", { pid: Deno.pid })]))) {
      await log.close();
      throw new AuditLogError(`--audit-log ${path}: cannot write to the file (${log.#failure})`);
    }
    return log;
  }

  /** Why the log is not writable, or undefined when it is. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** The time field of a line written now. */
  time(): string {
    return this.#now().toISOString();
  }

  /**
   * Whether an evaluation may run: true while the log is writable; when it failed, one attempt to reopen FILE and
   * write a `resumed` line decides.
   */
  admit(): Promise<boolean> {
    if (this.#failure === undefined) return Promise.resolve(true);
    return this.#serial(async () => {
      if (this.#failure === undefined) return true;
      if (!(await this.#reopenFile())) return false;
      const resumed = this.#event("resumed", { lines_on_stderr: this.#onStderr });
      if (!(await this.#writeFile(encodeLines([resumed])))) return false;
      this.#recovered();
      return true;
    });
  }

  /**
   * Append `lines` as one write; resolves true when they reached the file. Never throws: a failure marks the log failed
   * and sends the lines to stderr. With `droppable`, the lines are dropped (and counted) when the disk is behind.
   */
  append(lines: JsonObject[], options: { droppable?: boolean } = {}): Promise<boolean> {
    const bytes = encodeLines(lines);
    if (options.droppable && this.#pending + bytes.length > this.#maxPending) {
      this.#dropped += lines.length;
      return Promise.resolve(false);
    }
    this.#pending += bytes.length;
    return this.#serial(async () => {
      try {
        let batch = bytes;
        let all = lines;
        if (this.#dropped > 0 && this.#failure === undefined) {
          const dropped = this.#event("dropped", { lines: this.#dropped });
          this.#dropped = 0;
          batch = encodeLines([dropped, ...lines]);
          all = [dropped, ...lines];
        }
        return await this.#write(batch, all);
      } finally {
        this.#pending -= bytes.length;
      }
    });
  }

  /** Close FILE and open it again (after `mv FILE FILE.1`, SIGHUP): later lines go to a fresh FILE. */
  reopen(): Promise<void> {
    return this.#serial(async () => {
      if (!(await this.#reopenFile())) return;
      const line = this.#event("reopened", {});
      if (this.#failure === undefined) await this.#write(encodeLines([line]), [line]);
      else if (await this.#writeFile(encodeLines([line]))) this.#recovered();
    });
  }

  /** Wait for pending writes and close the file. */
  close(): Promise<void> {
    return this.#serial(() => {
      try {
        this.#file?.close();
      } catch { /* already closed */ }
      this.#file = undefined;
      return Promise.resolve();
    });
  }

  #event(event: string, extra: JsonObject): JsonObject {
    return { kind: "audit", time: this.time(), event, ...extra };
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Close FILE and open it again; false (and the log failed) when it cannot be opened. */
  async #reopenFile(): Promise<boolean> {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
    try {
      this.#file = await openFile(this.path, this.#stuck);
      return true;
    } catch (e) {
      this.#fail(`cannot reopen the file (${osError(e)})`);
      return false;
    }
  }

  /** Write every byte of `bytes` to the open file (a short write continues); false (and the log failed) on error. */
  async #writeFile(bytes: Uint8Array): Promise<boolean> {
    if (this.#file === undefined) return false;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += await this.#file.write(bytes.subarray(offset));
      return true;
    } catch (e) {
      this.#fail(`cannot write (${osError(e)})`);
      return false;
    }
  }

  /** Write `bytes` while the log is writable; otherwise (or on failure) the lines go to stderr. */
  async #write(bytes: Uint8Array, lines: JsonObject[]): Promise<boolean> {
    if (this.#failure === undefined && (await this.#writeFile(bytes))) return true;
    for (const line of lines) this.options.report(`audit (not written to ${this.path}): ${JSON.stringify(line)}`);
    this.#onStderr += lines.length;
    return false;
  }

  #recovered(): void {
    this.#failure = undefined;
    this.#onStderr = 0;
    this.options.report(`audit log ${this.path}: writable again; evaluations are admitted`);
  }

  /** Mark the log failed; the operator is told once per outage. */
  #fail(why: string): void {
    if (this.#failure === undefined) {
      this.options.report(
        `audit log ${this.path}: ${why}; its lines go to stderr and evaluations are refused (audit_unavailable) ` +
          "until the file is writable again",
      );
    }
    this.#failure = why;
  }
}

function encodeLines(lines: JsonObject[]): Uint8Array {
  return encoder.encode(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
