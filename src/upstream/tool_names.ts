/**
 * Lisp-facing tool names, shared by every transport: kebab-case (`getTraceSteps` → `get-trace-steps`) and a
 * deterministic shortening of names over {@link MAX_TOOL_NAME} characters with a stable hash suffix.
 * @module
 */

/** Longest exposed tool name. */
export const MAX_TOOL_NAME = 64;

/** Latin letters that do not decompose into a base letter plus marks. */
const LATIN_EXTRA: Record<string, string> = {
  "ß": "ss",
  "ẞ": "SS",
  "æ": "ae",
  "Æ": "AE",
  "œ": "oe",
  "Œ": "OE",
  "ø": "o",
  "Ø": "O",
  "đ": "d",
  "Đ": "D",
  "ł": "l",
  "Ł": "L",
  "þ": "th",
  "Þ": "Th",
  "ı": "i",
};

/** Accented Latin letters → their ASCII base (`Ü` → `U`, `ß` → `ss`); other characters unchanged. */
export function toAsciiLatin(name: string): string {
  if (!/[^\p{ASCII}]/u.test(name)) return name;
  return name.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[ßẞæÆœŒøØđĐłŁþÞı]/g, (c) => LATIN_EXTRA[c]);
}

/**
 * Kebab-case a name: accented Latin letters become their ASCII base (`getÜber` → `get-uber`), word boundaries at
 * case changes (`getTraceSteps` → `get-trace-steps`, `HTTPServerStatus` → `http-server-status`), `_`, `.`, `/`,
 * spaces and any other character that is not an ASCII letter or digit become `-`, repeats collapse, the ends are
 * trimmed. When letters or digits of other scripts had to be dropped (`获取User`), a stable hash of the name is
 * appended so distinct names stay distinct. The result matches `^[a-z0-9]+(-[a-z0-9]+)*$`, or is empty when no ASCII
 * letter or digit is left (`获取用户`, `***`; see {@link hasLetters}).
 */
export function kebabCase(name: string): string {
  const ascii = toAsciiLatin(name);
  let out = "";
  for (let i = 0; i < ascii.length; i++) {
    const c = ascii[i];
    const prev = i > 0 ? ascii[i - 1] : "";
    const next = i + 1 < ascii.length ? ascii[i + 1] : "";
    if (isUpper(c)) {
      if ((prev && (isLower(prev) || isDigit(prev))) || (prev && isUpper(prev) && next && isLower(next))) out += "-";
      out += c.toLowerCase();
    } else if (isLower(c) || isDigit(c)) {
      out += c;
    } else {
      out += "-";
    }
  }
  out = out.replace(/-+/g, "-").replace(/^-|-$/g, "");
  return out !== "" && hasLetters(ascii.replace(/\p{ASCII}/gu, "")) ? `${out}-${fnv1a(name)}` : out;
}

/** True when `name` has a letter or digit of any script (so a name can be built from it, if not kebab-cased). */
export function hasLetters(name: string): boolean {
  return /[\p{L}\p{N}]/u.test(name);
}

/**
 * Shorten a name over {@link MAX_TOOL_NAME} characters: keep a prefix and append `-` and 8 hex digits of a hash of
 * `hashOf` (default: the name itself), so the result is stable across runs and distinct names stay distinct (with
 * overwhelming odds). A transport whose raw names can collide after kebab-casing hashes the raw name instead.
 */
export function shortenName(name: string, hashOf: string = name): string {
  if (name.length <= MAX_TOOL_NAME) return name;
  const suffix = fnv1a(hashOf);
  const prefix = name.slice(0, MAX_TOOL_NAME - suffix.length - 1).replace(/-+$/, "");
  return `${prefix}-${suffix}`;
}

/** FNV-1a 32-bit hash as 8 lowercase hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function isUpper(c: string): boolean {
  return c >= "A" && c <= "Z";
}
function isLower(c: string): boolean {
  return c >= "a" && c <= "z";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}
