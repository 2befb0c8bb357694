/**
 * Matching regular expressions someone else wrote (an upstream's schema `pattern`, a `patternProperties` key) on
 * ptc's own thread, in time linear in the input: RE2's automata (the `re2js` package, a pure-JavaScript port of RE2
 * that needs no file, no WebAssembly and no permission), never V8's backtracking engine. A pattern is translated from
 * ECMA-262 syntax first (`ecma_pattern.ts`); one RE2 cannot express with the same meaning (backreferences,
 * lookaround), or larger than the bounds below, is refused with the reason and left to the upstream to judge.
 * @module
 */
import { RE2JS } from "re2js";
import { ecmaToRe2 } from "../core/ecma_pattern.ts";

/** A pattern ptc can match in linear time, or why it will not run it. */
export type LinearPattern = { ok: true; test: (input: string) => boolean } | { ok: false; reason: string };

/** Longest pattern ptc compiles (characters). */
export const MAX_PATTERN_CHARS = 10_000;
/** Largest compiled program (RE2 instructions): with the input's length, it bounds the work of one match. */
export const MAX_PROGRAM_SIZE = 20_000;
/** Compiled patterns kept for reuse. */
const CACHE_SIZE = 1024;

const cache = new Map<string, LinearPattern>();

function compile(pattern: string): LinearPattern {
  if (pattern.length > MAX_PATTERN_CHARS) {
    return { ok: false, reason: `it is longer than ${MAX_PATTERN_CHARS} characters` };
  }
  const translated = ecmaToRe2(pattern);
  if (!translated.ok) return translated;
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated.source);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : "";
    if (/repeat count/.test(why)) return { ok: false, reason: "it repeats something more than 1000 times" };
    return { ok: false, reason: `RE2 cannot compile it (${why.slice(0, 120)})` };
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    return { ok: false, reason: `its compiled program is larger than ${MAX_PROGRAM_SIZE} instructions` };
  }
  return { ok: true, test: (input) => re.test(input) };
}

/**
 * `pattern` (ECMA-262 syntax, searched anywhere in the input like `RegExp.prototype.test` with the `u` flag) as a
 * linear-time matcher, or the reason it is refused. Compiled patterns are cached.
 */
export function linearPattern(pattern: string): LinearPattern {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    hit = compile(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, hit);
  }
  return hit;
}
