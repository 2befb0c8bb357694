/**
 * `x-ptc-result-path` / `operation_overrides.<id>.result_path`: select a sub-value of a decoded response.
 * Two spellings: a JSON pointer (`/data/items`) or dotted keys (`data.items`, list indexes as numbers: `items.0`).
 * @module
 */

/** A parsed result path. */
export interface ResultPath {
  /** As written (for provenance). */
  source: string;
  segments: string[];
}

/** Parse a result path; returns the problem as a string when malformed. */
export function parseResultPath(raw: unknown): ResultPath | string {
  if (typeof raw !== "string" || raw.trim() === "") return "must be a non-empty string like data.items or /data/items";
  const source = raw.trim();
  let segments: string[];
  if (source.startsWith("/")) {
    segments = source.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  } else {
    segments = source.split(".");
  }
  if (segments.some((s) => s === "")) return `"${source}" has an empty segment`;
  return { source, segments };
}

/** Select the sub-value; `undefined` when a segment is missing. */
export function selectPath(value: unknown, path: ResultPath): unknown {
  let node = value;
  for (const seg of path.segments) {
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(seg)) return undefined;
      node = node[Number(seg)];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, seg)) {
      node = (node as Record<string, unknown>)[seg];
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
