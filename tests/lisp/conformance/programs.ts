/**
 * The differential conformance table: loads the programs of `programs/<area>.clj`.
 *
 * File format: one program per line (a program may hold several top-level forms); lines starting with `;;` and blank
 * lines are ignored. A program's id is `<area>-<n>` where `n` is its 1-based position among the programs of that file,
 * so files are APPEND-ONLY: inserting a line in the middle renumbers the rest (deviations.ts pins the source text of
 * each entry to catch exactly that).
 * @module
 */

/** One program of the table. */
export interface Program {
  /** Stable handle, e.g. `sequences-12`. */
  id: string;
  /** The file stem, e.g. `sequences`. */
  area: string;
  /** PTC-Lisp source (also valid ClojureScript unless listed in deviations.ts). */
  src: string;
}

/**
 * One answer recorded from JVM Clojure 1.11 (scripts/conformance/record.ts), as stored in data/expected.json (keyed
 * by program id) and data/corpus.json. `error` is the exception's class and message.
 */
export type RecordedAnswer =
  | { src: string; ok: true; printed: string; prints?: string[] }
  | { src: string; ok: false; error: string; prints?: string[] };

const PROGRAMS_DIR = new URL("./programs/", import.meta.url);

/** Parses one area file into programs. */
export function parseArea(area: string, text: string): Program[] {
  const out: Program[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";;")) continue;
    out.push({ id: `${area}-${out.length + 1}`, area, src: line });
  }
  return out;
}

/** Loads every area file (sorted by name) and returns the programs in table order. */
export function loadPrograms(): Program[] {
  const areas: string[] = [];
  for (const entry of Deno.readDirSync(PROGRAMS_DIR)) {
    if (entry.isFile && entry.name.endsWith(".clj")) areas.push(entry.name.slice(0, -".clj".length));
  }
  areas.sort();
  return areas.flatMap((area) => parseArea(area, Deno.readTextFileSync(new URL(`${area}.clj`, PROGRAMS_DIR))));
}
