/**
 * Where `ptc view` finds runs: recording directories (`--recordings DIR`, read and checked with the replay's own
 * bounds) and audit logs (`--audit-log FILE`, JSON Lines read in bounded chunks, malformed lines counted and
 * skipped). Both are read again when the pages ask (at most once a second), so a directory or log still being
 * written shows its new runs; only what is new is read.
 * @module
 */
import { resolve } from "node:path";
import type { JsonObject } from "../core/json.ts";
import { fsReason, listRecording, readEvaluation, readManifest } from "../engine/recording_dir.ts";
import {
  EVALUATION_FILE,
  MAX_EVALUATIONS,
  RecordingError,
  type RecordingManifest,
} from "../engine/recording_format.ts";
import { runFromAudit, runFromRecording, type ViewRun } from "./model.ts";

/** A source of runs. */
export interface RunSourceReader {
  /** What it reads (shown on the pages). */
  readonly label: string;
  /** Read what is new; problems are kept in `problems`, never thrown. */
  refresh(): Promise<void>;
  /** Every run it holds (any order). */
  runs(): ViewRun[];
  /** Problems met while reading (a file skipped, a line malformed), most recent last, bounded. */
  readonly problems: string[];
  /** The recorded catalog, for the "what the agent sees" page (recordings only). */
  manifest?: RecordingManifest;
}

/** Most problems kept per source. */
const MAX_PROBLEMS = 50;

function note(problems: string[], message: string): void {
  problems.push(message);
  if (problems.length > MAX_PROBLEMS) problems.splice(0, problems.length - MAX_PROBLEMS);
}

/** A recording directory. */
export class RecordingSource implements RunSourceReader {
  readonly problems: string[] = [];
  manifest?: RecordingManifest;
  readonly #seen = new Set<string>();
  readonly #runs: ViewRun[] = [];
  readonly dir: string;

  constructor(dir: string, readonly index: number) {
    this.dir = resolve(dir);
  }

  get label(): string {
    return this.dir;
  }

  async refresh(): Promise<void> {
    const where = `--recordings ${this.dir}`;
    try {
      const names = await listRecording(this.dir, where);
      this.manifest ??= await readManifest(this.dir, where);
      for (const name of names) {
        if (!EVALUATION_FILE.test(name) || this.#seen.has(name)) continue;
        if (this.#seen.size >= MAX_EVALUATIONS) break;
        this.#seen.add(name);
        try {
          const ev = await readEvaluation(this.dir, name, where);
          this.#runs.push(runFromRecording(ev, this.manifest, this.index, this.dir));
        } catch (e) {
          note(this.problems, e instanceof RecordingError ? e.message : `${where}: ${name}: ${fsReason(e)}`);
        }
      }
    } catch (e) {
      note(this.problems, e instanceof RecordingError ? e.message : `${where}: ${fsReason(e)}`);
    }
  }

  runs(): ViewRun[] {
    return this.#runs;
  }
}

/** Largest audit log line read (the log writes at most 4 KiB a line); a longer one is skipped. */
const MAX_LINE_BYTES = 64 * 1024;
/** Most bytes of one audit log read. */
export const MAX_AUDIT_BYTES = 256 * 1024 * 1024;
/** Most evaluations kept from one audit log (the latest). */
export const MAX_AUDIT_RUNS = 100_000;
/** Most `call` lines waiting for their `eval` line. */
const MAX_PENDING_CALLS = 100_000;

/** An audit log (`ptc mcp --audit-log FILE`), read from where the last read stopped. */
export class AuditSource implements RunSourceReader {
  readonly problems: string[] = [];
  readonly file: string;
  #offset = 0;
  #runs: ViewRun[] = [];
  #pending = new Map<string, JsonObject[]>();
  #pendingCount = 0;
  #partial = "";
  #malformed = 0;

  constructor(file: string, readonly index: number) {
    this.file = resolve(file);
  }

  get label(): string {
    return this.file;
  }

  async refresh(): Promise<void> {
    let f: Deno.FsFile | undefined;
    try {
      f = await Deno.open(this.file, { read: true });
      const info = await f.stat();
      if (!info.isFile) throw new Error("not a regular file");
      if (info.size < this.#offset) this.#reset(); // rotated or truncated: read it anew
      if (info.size - this.#offset > MAX_AUDIT_BYTES) {
        note(this.problems, `--audit-log ${this.file}: only the last ${MAX_AUDIT_BYTES} bytes are read`);
        this.#offset = info.size - MAX_AUDIT_BYTES;
        this.#partial = "";
      }
      await f.seek(this.#offset, Deno.SeekMode.Start);
      const decoder = new TextDecoder();
      const buf = new Uint8Array(1024 * 1024);
      while (true) {
        const n = await f.read(buf);
        if (n === null) break;
        this.#offset += n;
        this.#lines(decoder.decode(buf.subarray(0, n), { stream: true }));
      }
    } catch (e) {
      note(this.problems, `--audit-log ${this.file}: ${e instanceof Error && e.message ? fsReason(e) : String(e)}`);
    } finally {
      f?.close();
    }
  }

  #reset(): void {
    this.#offset = 0;
    this.#runs = [];
    this.#pending.clear();
    this.#pendingCount = 0;
    this.#partial = "";
  }

  #lines(text: string): void {
    const parts = (this.#partial + text).split("\n");
    this.#partial = parts.pop() ?? "";
    if (this.#partial.length > MAX_LINE_BYTES) {
      this.#partial = "";
      this.#malformed++;
    }
    for (const line of parts) if (line.trim()) this.#line(line);
    if (this.#malformed > 0) {
      note(this.problems, `--audit-log ${this.file}: ${this.#malformed} line(s) are not audit lines (skipped)`);
      this.#malformed = 0;
    }
  }

  #line(text: string): void {
    let line: unknown;
    try {
      line = text.length > MAX_LINE_BYTES ? undefined : JSON.parse(text);
    } catch {
      line = undefined;
    }
    if (line === null || typeof line !== "object" || Array.isArray(line)) {
      this.#malformed++;
      return;
    }
    const l = line as JsonObject;
    const id = typeof l.eval_id === "string" ? l.eval_id : undefined;
    if (l.kind === "call" && id) {
      if (this.#pendingCount >= MAX_PENDING_CALLS) return;
      const list = this.#pending.get(id) ?? [];
      list.push(l);
      this.#pending.set(id, list);
      this.#pendingCount++;
    } else if (l.kind === "eval" && id) {
      const calls = this.#pending.get(id) ?? [];
      this.#pending.delete(id);
      this.#pendingCount -= calls.length;
      this.#runs.push(runFromAudit(l, calls, this.index, this.file));
      if (this.#runs.length > MAX_AUDIT_RUNS) this.#runs.splice(0, this.#runs.length - MAX_AUDIT_RUNS);
    } else if (l.kind !== "denied") {
      this.#malformed++;
    }
  }

  runs(): ViewRun[] {
    return this.#runs;
  }
}
