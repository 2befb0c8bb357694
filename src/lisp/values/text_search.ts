/**
 * Substring search for `includes?` over long texts: a Horspool search on character pairs (each alignment looks at the
 * two text characters under the needle's last two and skips as far as the needle allows), which reads a small
 * fraction of the text where `String.prototype.includes` reads every character up to the first one of the needle
 * (program (f) of bench/lisp, 2,000 traces' step payloads: ~0.6x the time of `includes`).
 *
 * Hand-written because no library offers it for JS strings. Bounded whatever the text and needle: the skip table is
 * built once per needle (a few needles are kept), the verification work is capped at a small multiple of the text's
 * length, past which the rest of the text goes to `includes` (so a needle such as `baaa…a` over `aaaa…` costs a
 * linear scan, not length × needle). Results are those of `includes`: the same UTF-16 code units compared.
 * @module
 */

/** Needles shorter than this, or texts shorter than {@link MIN_TEXT}, go to `includes` (its first-character scan wins). */
const MIN_NEEDLE = 4;
/** Needles longer than this go to `includes` (a skip fits a byte; long needles are rare and `includes` handles them). */
const MAX_NEEDLE = 64;
const MIN_TEXT = 128;
/** Skip table: one entry per hashed character pair. */
const TABLE_BITS = 12;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Skip tables kept (by needle); all are dropped when one more is needed. */
const MAX_TABLES = 16;
/** Verification may compare this many characters per character of text before the rest goes to `includes`. */
const WORK_PER_CHAR = 4;

const tables = new Map<string, Uint8Array>();
let lastNeedle = "";
let lastTable: Uint8Array | null = null;

/** Counters for tests: how many searches handed the rest of their text to `includes` after the work cap. */
export const textSearchStats = { fallbacks: 0 };

function pairHash(a: number, b: number): number {
  return ((a << 5) ^ b) & TABLE_MASK;
}

/**
 * For each hashed pair, how far the needle may move when the text's pair under its last two characters is that pair:
 * the distance from the pair's rightmost end in the needle to the needle's end (0: verify here), or the needle's
 * length - 1 when the pair ends nowhere in it. Pairs written in increasing end order, so a bucket that several pairs
 * share keeps the smallest distance: never a skip past a match.
 */
function skipTable(needle: string): Uint8Array {
  if (needle === lastNeedle && lastTable !== null) return lastTable;
  let t = tables.get(needle);
  if (t === undefined) {
    if (tables.size >= MAX_TABLES) tables.clear();
    const last = needle.length - 1;
    t = new Uint8Array(TABLE_MASK + 1).fill(last);
    for (let j = 1; j <= last; j++) t[pairHash(needle.charCodeAt(j - 1), needle.charCodeAt(j))] = last - j;
    tables.set(needle, t);
  }
  lastNeedle = needle;
  lastTable = t;
  return t;
}

/** `text.includes(needle)`, faster on long texts. */
export function textIncludes(text: string, needle: string): boolean {
  const m = needle.length;
  const n = text.length;
  if (m < MIN_NEEDLE || m > MAX_NEEDLE || n < MIN_TEXT) return text.includes(needle);
  const skip = skipTable(needle);
  const last = m - 1;
  let budget = n * WORK_PER_CHAR;
  let i = last;
  while (i < n) {
    const s = skip[pairHash(text.charCodeAt(i - 1), text.charCodeAt(i))];
    if (s !== 0) {
      i += s;
      continue;
    }
    let j = last;
    let k = i;
    while (j >= 0 && text.charCodeAt(k) === needle.charCodeAt(j)) {
      j--;
      k--;
    }
    if (j < 0) return true;
    budget -= last - j + 1;
    if (budget < 0) {
      // A needle and text made to verify at every position: the rest (from the current alignment's start) goes to
      // the engine's search, whose work is linear.
      textSearchStats.fallbacks++;
      return text.includes(needle, i - last);
    }
    i++;
  }
  return false;
}
