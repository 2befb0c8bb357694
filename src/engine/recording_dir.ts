/**
 * A recording directory on disk: listing it (only `manifest.json`, `NNNNNN-HASH.json` and dot-named temporary files
 * may be in it), measuring it, reading its files within bounds, and checking it whole at start while keeping only an
 * index of it (a replay reads each evaluation file again when it is needed, so memory is bounded by the largest
 * file, not the directory). Every problem is a RecordingError naming the directory flag (`where`, e.g.
 * `--replay DIR`) and the file.
 * @module
 */
import { join } from "node:path";
import {
  EVALUATION_FILE,
  MANIFEST_FILE,
  MAX_EVALUATIONS,
  MAX_RECORDING_FILE_BYTES,
  MAX_RECORDING_TOTAL_BYTES,
  parseEvaluation,
  parseManifest,
  type RecordedEvaluation,
  RecordingError,
  type RecordingManifest,
} from "./recording_format.ts";
import type { RecordingUsage } from "./recording_budget.ts";

/** Why a file-system call failed, in a few words. */
export function fsReason(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "no such file or directory";
  if (e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable")) {
    return "no permission (run with the flags `ptc permissions` prints for this command)";
  }
  return e instanceof Error ? e.message.split("\n")[0] : String(e);
}

/** One evaluation file of a checked recording, without its contents. */
export interface EvaluationEntry {
  /** The file name in the directory. */
  name: string;
  sequence: number;
  program_sha256: string;
  /** Its size when checked. */
  bytes: number;
  /** It holds at least one recorded read call (what answers a program with no recording of its own). */
  hasReads: boolean;
}

/** A recording checked whole: its manifest and the index of its evaluation files. */
export interface IndexedRecording {
  manifest: RecordingManifest;
  /** In sequence order. */
  evaluations: EvaluationEntry[];
}

/** The names of the files of the recording in `dir` (dot-named temporary files left out), checked. */
export async function listRecording(dir: string, where: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.startsWith(".")) continue; // an interrupted write's temporary file
      if (entry.name !== MANIFEST_FILE && !EVALUATION_FILE.test(entry.name)) {
        throw new RecordingError(
          `${where}: ${join(dir, entry.name)} is not part of a ptc recording ` +
            `(a recording holds ${MANIFEST_FILE} and NNNNNN-HASH.json files only)`,
        );
      }
      names.push(entry.name);
      if (names.length > MAX_EVALUATIONS + 1) {
        throw new RecordingError(`${where}: more than ${MAX_EVALUATIONS} evaluation files`);
      }
    }
  } catch (e) {
    if (e instanceof RecordingError) throw e;
    throw new RecordingError(`${where}: cannot read the directory: ${fsReason(e)}`);
  }
  if (names.length > 0 && !names.includes(MANIFEST_FILE)) {
    throw new RecordingError(`${where}: not a ptc recording (no ${MANIFEST_FILE}; record one with --record)`);
  }
  return names.sort();
}

/**
 * The size of `name` in `dir`, which must be a regular file: a symlink (it could lead out of DIR), a FIFO (a read
 * would wait forever) or a device (`/dev/zero` never ends) is refused, and so is a file past the size bound.
 */
async function fileSize(dir: string, name: string, where: string): Promise<number> {
  const file = join(dir, name);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(file);
  } catch (e) {
    throw new RecordingError(`${where}: cannot read ${file}: ${fsReason(e)}`);
  }
  if (!info.isFile) {
    const what = info.isSymlink ? "a symbolic link" : info.isDirectory ? "a directory" : "not a regular file";
    throw new RecordingError(`${where}: ${file} is ${what}; a recording holds regular files only`);
  }
  if (info.size > MAX_RECORDING_FILE_BYTES) {
    throw new RecordingError(
      `${where}: ${file}: ${info.size} bytes is more than a recording file may hold (${MAX_RECORDING_FILE_BYTES})`,
    );
  }
  return info.size;
}

/** The text of `name` in `dir` (a regular file within the size bound), never more than the bound even if it grew. */
async function readBounded(
  dir: string,
  name: string,
  where: string,
): Promise<{ file: string; text: string; bytes: number }> {
  const file = join(dir, name);
  const size = await fileSize(dir, name, where);
  const tooLarge = () => new RecordingError(`${where}: ${file}: more bytes than a recording file may hold`);
  try {
    using handle = await Deno.open(file, { read: true });
    // One buffer of the size seen (a byte more shows the file grew), enlarged only if it did: one copy in memory.
    let buf = new Uint8Array(Math.min(size, MAX_RECORDING_FILE_BYTES) + 1);
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (total > MAX_RECORDING_FILE_BYTES) throw tooLarge();
        const bigger = new Uint8Array(Math.min(2 * buf.length, MAX_RECORDING_FILE_BYTES + 1));
        bigger.set(buf);
        buf = bigger;
      }
      const n = await handle.read(buf.subarray(total));
      if (n === null) break;
      total += n;
    }
    if (total > MAX_RECORDING_FILE_BYTES) throw tooLarge();
    const bytes = buf.subarray(0, total);
    return { file, text: new TextDecoder().decode(bytes), bytes: total };
  } catch (e) {
    if (e instanceof RecordingError) throw e;
    throw new RecordingError(`${where}: cannot read ${file}: ${fsReason(e)}`);
  }
}

/** `f()`, with a RecordingError's message prefixed by `where`. */
function checked<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof RecordingError ? new RecordingError(`${where}: ${e.message}`) : e;
  }
}

/** Read and check `manifest.json` of `dir`. */
export async function readManifest(dir: string, where: string): Promise<RecordingManifest> {
  const m = await readBounded(dir, MANIFEST_FILE, where);
  return checked(where, () => parseManifest(m.text, m.file));
}

/** Evaluation files and bytes of all the files `names` of `dir` (each a regular file within the size bound). */
export async function recordingUsage(dir: string, names: string[], where: string): Promise<RecordingUsage> {
  let bytes = 0;
  for (const name of names) bytes += await fileSize(dir, name, where);
  return { files: names.filter((n) => n !== MANIFEST_FILE).length, bytes };
}

/** Read and check evaluation file `name` of `dir`. */
export async function readEvaluation(dir: string, name: string, where: string): Promise<RecordedEvaluation> {
  const { file, text } = await readBounded(dir, name, where);
  return checked(where, () => parseEvaluation(text, file, name));
}

/**
 * Check every file of the recording in `dir` (which must exist and hold a manifest), one at a time, and keep only
 * the manifest and an index of the evaluation files.
 */
export async function indexRecording(dir: string, where: string): Promise<IndexedRecording> {
  const names = await listRecording(dir, where);
  if (names.length === 0) {
    throw new RecordingError(`${where}: not a ptc recording (no ${MANIFEST_FILE}; record one with --record)`);
  }
  const { bytes: total } = await recordingUsage(dir, names, where);
  if (total > MAX_RECORDING_TOTAL_BYTES) {
    throw new RecordingError(
      `${where}: its files hold ${total} bytes, more than a replay reads (${MAX_RECORDING_TOTAL_BYTES}); ` +
        "replay a smaller recording (record fewer evaluations per directory)",
    );
  }
  const manifest = await readManifest(dir, where);
  const evaluations: EvaluationEntry[] = [];
  for (const name of names.filter((n) => n !== MANIFEST_FILE)) {
    const { file, text, bytes } = await readBounded(dir, name, where);
    const e = checked(where, () => parseEvaluation(text, file, name));
    evaluations.push({
      name,
      sequence: e.sequence,
      program_sha256: e.program_sha256,
      bytes,
      hasReads: e.calls.some((c) => c.effect !== "write"),
    });
  }
  evaluations.sort((a, b) => a.sequence - b.sequence);
  for (let i = 1; i < evaluations.length; i++) {
    if (evaluations[i].sequence === evaluations[i - 1].sequence) {
      throw new RecordingError(`${where}: two evaluation files have sequence number ${evaluations[i].sequence}`);
    }
  }
  return { manifest, evaluations };
}
