/**
 * "Did you mean" suggestions: which known names are near an unknown one, and the one phrasing every message uses
 * (` (did you mean "a" or "b"?)`).
 *
 * The unknown word is often program-controlled (a tool argument key, a symbol, a tool name), so the cost is bounded
 * whatever it is: a word or candidate longer than {@link MAX_SUGGEST_CHARS} is never near anything, at most
 * {@link MAX_SUGGEST_CANDIDATES} candidates are examined, the distance work of one lookup is capped, and each
 * distance stops as soon as it passes the threshold.
 * @module
 */

/** Longest word or candidate (UTF-16 units) a suggestion is looked for; past it a suggestion means nothing. */
export const MAX_SUGGEST_CHARS = 100;
/** Candidates examined per lookup (the first ones in iteration order). */
export const MAX_SUGGEST_CANDIDATES = 10_000;
/** Distance-table cells computed per lookup, at most (a few milliseconds of work). */
const MAX_SUGGEST_CELLS = 2_000_000;
/** Names one suggestion offers, at most. */
const MAX_SUGGESTIONS = 3;

/** Reused distance rows (the evaluator is single-threaded per isolate; grown when a longer string comes). */
let rows = [
  new Int32Array(MAX_SUGGEST_CHARS + 1),
  new Int32Array(MAX_SUGGEST_CHARS + 1),
  new Int32Array(MAX_SUGGEST_CHARS + 1),
];

/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two adjacent characters each
 * cost 1 (`nmae` → `name` is 1). Past `cutoff` it stops and answers `cutoff + 1`.
 */
export function editDistance(a: string, b: string, cutoff = Infinity): number {
  if (Math.abs(a.length - b.length) > cutoff) return cutoff + 1;
  const n = b.length;
  if (rows[0].length < n + 1) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let before = rows[0], prev = rows[1], cur = rows[2];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj && before[j - 2] + 1 < d) d = before[j - 2] + 1;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // every later cell derives from this row or (by a swap, +1) the previous one, whose minimum is ≥ this one's − 1
    if (rowMin > cutoff) return cutoff + 1;
    const spare = before;
    before = prev;
    prev = cur;
    cur = spare;
  }
  return prev[n] > cutoff ? cutoff + 1 : prev[n];
}

/** Case and `-`/`_` do not make names different: `List-Traces` is near `list_traces`. */
function fold(s: string): string {
  const lower = s.toLowerCase();
  return lower.includes("-") ? lower.replaceAll("-", "_") : lower;
}

/**
 * Up to three `candidates` near `word`, nearest first; empty when none is near. A candidate is near when its edit
 * distance is at most a third of the longer name (at least 1), when one name starts with the other (`get` →
 * `get-trace`, `list-traces-by-org` → `list-traces`), when one contains the other (3 characters or more), or when
 * it has every part of a multi-part word (`traces_list` → `list_traces`) — but never when the two have nothing in
 * common (`a` is not near `*`). Only the nearest tier is offered: `mapp` → `map`, `mapv`; `fliter` → `filter`.
 */
export function suggest(word: string, candidates: Iterable<string>): string[] {
  if (word.length === 0 || word.length > MAX_SUGGEST_CHARS) return [];
  const w = fold(word);
  const parts = w.split("_").filter((x) => x.length > 1);
  const found = new Map<string, [score: number, distance: number]>();
  let examined = 0;
  let cells = 0;
  for (const c of candidates) {
    if (++examined > MAX_SUGGEST_CANDIDATES) break;
    if (c.length === 0 || c.length > MAX_SUGGEST_CHARS || c === word || found.has(c)) continue;
    const f = fold(c);
    const longest = Math.max(w.length, f.length);
    const shortest = Math.min(w.length, f.length);
    const limit = Math.max(1, Math.floor(longest / 3));
    let d = limit + 1;
    if (Math.abs(w.length - f.length) <= limit && cells < MAX_SUGGEST_CELLS) {
      cells += w.length * f.length;
      d = editDistance(w, f, limit);
    }
    let score = d;
    if (f.startsWith(w) || (f.length >= 3 && w.startsWith(f))) score = Math.min(score, 1);
    else if (shortest >= 3 && (f.includes(w) || w.includes(f))) score = Math.min(score, 2);
    else if (parts.length > 1 && parts.every((x) => f.split("_").includes(x))) score = Math.min(score, 2);
    else if (d > limit) continue;
    if (score >= longest) continue; // nothing in common
    found.set(c, [score, d]);
  }
  const ranked = [...found].sort(([a, [sa, da]], [b, [sb, db]]) => sa - sb || da - db || (a < b ? -1 : a > b ? 1 : 0));
  const best = ranked.length ? ranked[0][1][0] : 0;
  return ranked.filter(([, [s]]) => s === best).slice(0, MAX_SUGGESTIONS).map(([c]) => c);
}

/**
 * The one "did you mean" phrasing: ` (did you mean "a"?)`, ` (did you mean "a" or "b"?)`,
 * ` (did you mean "a", "b" or "c"?)`, or the empty string for no names. It follows the unknown name it is about.
 */
export function phraseSuggestions(names: readonly string[]): string {
  if (names.length === 0) return "";
  const quoted = names.map((n) => JSON.stringify(n));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return ` (did you mean ${list}?)`;
}

/** {@link phraseSuggestions} of the {@link suggest}ions for `word`: ` (did you mean "x"?)` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  return phraseSuggestions(suggest(word, candidates));
}
