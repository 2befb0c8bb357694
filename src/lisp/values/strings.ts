/**
 * Grapheme-aware string helpers (docs/language.md §2). All-ASCII strings take a fast path where graphemes are code units.
 * @module
 */

let segmenter: Intl.Segmenter | null = null;

function seg(): Intl.Segmenter {
  return segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
}

/** True when every code unit is ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** The graphemes of `s` as one-grapheme strings. */
export function graphemes(s: string): string[] {
  if (isAscii(s)) return s.split("");
  const out: string[] = [];
  for (const g of seg().segment(s)) out.push(g.segment);
  return out;
}

/** Number of graphemes. */
export function gCount(s: string): number {
  if (isAscii(s)) return s.length;
  let n = 0;
  for (const _ of seg().segment(s)) n++;
  return n;
}

/** Grapheme at index `i`, or undefined. */
export function gAt(s: string, i: number): string | undefined {
  if (isAscii(s)) return i >= 0 && i < s.length ? s[i] : undefined;
  if (i < 0) return undefined;
  let n = 0;
  for (const g of seg().segment(s)) {
    if (n === i) return g.segment;
    n++;
  }
  return undefined;
}

/** Graphemes [start, end) joined (indices already clamped by the caller). */
export function gSlice(s: string, start: number, end?: number): string {
  if (isAscii(s)) return s.slice(start, end);
  const gs = graphemes(s);
  return gs.slice(start, end).join("");
}

/** Grapheme index of `sub` in `s` at or after grapheme `from`, or -1. */
export function gIndexOf(s: string, sub: string, from = 0): number {
  if (isAscii(s)) return s.indexOf(sub, Math.max(0, from));
  const gs = graphemes(s);
  const units = cuOffsets(gs);
  const start = from <= 0 ? 0 : from >= gs.length ? s.length : units[from];
  const cu = s.indexOf(sub, start);
  return cu < 0 ? -1 : unitToIndex(units, cu);
}

/** Grapheme index of the last `sub` in `s` (at or before grapheme `from`), or -1. */
export function gLastIndexOf(s: string, sub: string, from?: number): number {
  if (from !== undefined && from < 0) return -1; // Java: a negative start finds nothing
  if (isAscii(s)) return from === undefined ? s.lastIndexOf(sub) : s.lastIndexOf(sub, from);
  const gs = graphemes(s);
  const units = cuOffsets(gs);
  const cu = from === undefined
    ? s.lastIndexOf(sub)
    : s.lastIndexOf(sub, from < 0 ? 0 : units[Math.min(from, gs.length)] ?? s.length);
  return cu < 0 ? -1 : unitToIndex(units, cu);
}

function cuOffsets(gs: string[]): number[] {
  const out = new Array<number>(gs.length + 1);
  let o = 0;
  for (let i = 0; i < gs.length; i++) {
    out[i] = o;
    o += gs[i].length;
  }
  out[gs.length] = o;
  return out;
}

function unitToIndex(units: number[], cu: number): number {
  let lo = 0;
  let hi = units.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (units[mid] <= cu) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
