/**
 * Helpers of the recording tests: a temporary recording directory, and sparse evaluation files that fill one up to a
 * size without using the disk.
 * @module
 */
import { join } from "node:path";
import { evaluationFileName } from "../../src/engine/recording_format.ts";

/** `fn` with `ROOT/rec` (not created) in a new temporary ROOT, removed afterwards. */
export async function withRecordingDir(prefix: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix });
  try {
    await fn(join(root, "rec"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Bytes of all the files in `dir`. */
export async function dirBytes(dir: string): Promise<number> {
  let held = 0;
  for await (const e of Deno.readDir(dir)) held += (await Deno.stat(join(dir, e.name))).size;
  return held;
}

/**
 * Add sparse evaluation files (numbered from `first`, none larger than `fileBytes`) so that `dir` holds `total`
 * bytes in all.
 */
export async function fillSparse(dir: string, total: number, first: number, fileBytes: number): Promise<void> {
  let rest = total - await dirBytes(dir);
  for (let sequence = first; rest > 0; sequence++) {
    const size = Math.min(rest, fileBytes);
    const file = join(dir, evaluationFileName(sequence, "0".repeat(64)));
    await Deno.writeFile(file, new Uint8Array());
    await Deno.truncate(file, size);
    rest -= size;
  }
}
