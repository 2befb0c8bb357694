/**
 * Reading the operator library files a config lists under `libraries` (paths relative to the config). The text is
 * handed to the language unchanged; a file that cannot be read is a config problem naming its key.
 * @module
 */
import type { PtcConfig } from "./config.ts";

/** Largest library file read, in bytes (a library is code, not data). */
export const MAX_LIBRARY_BYTES = 1_000_000;

/** One library file: the name as the config wrote it and its text. */
export interface LibraryText {
  file: string;
  source: string;
}

/** The texts of every library of `config`, or one problem line per file that cannot be read. */
export async function readLibraries(config: PtcConfig): Promise<
  { ok: true; sources: LibraryText[] } | {
    ok: false;
    problems: string[];
  }
> {
  const sources: LibraryText[] = [];
  const problems: string[] = [];
  for (const [i, lib] of config.libraries.entries()) {
    const key = `libraries[${i}] (${lib.file})`;
    try {
      const stat = await Deno.stat(lib.path);
      if (!stat.isFile) {
        problems.push(`${key}: ${lib.path} is not a file`);
        continue;
      }
      if (stat.size > MAX_LIBRARY_BYTES) {
        problems.push(`${key}: ${stat.size} bytes; a library file may hold at most ${MAX_LIBRARY_BYTES}`);
        continue;
      }
      sources.push({ file: lib.file, source: await Deno.readTextFile(lib.path) });
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound
        ? `file not found (${lib.path}; paths are relative to the config file)`
        : e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable")
        ? `no permission to read it (grant --allow-read=${lib.path})`
        : `cannot be read (${e instanceof Error ? e.message : String(e)})`;
      problems.push(`${key}: ${why}`);
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, sources };
}
