/**
 * Translating a JSON Schema `pattern` (ECMA-262 syntax, matched with the `u` flag as JSON Schema validators do) into
 * RE2 syntax with the same meaning, or refusing it with the reason. The syntax is checked by the host's own parser
 * first (parsing runs in time proportional to the pattern; nothing is matched), so the walk below only sees
 * well-formed patterns and translates each token explicitly:
 *
 * - `\s`/`\S` and `.` are spelled out (ECMA's whitespace and line terminators are wider than RE2's);
 * - `^` and `$` keep their meaning (RE2 without the `m` flag: start and end of the text only);
 * - every literal that is not an ASCII letter or digit becomes `\x{…}`, so no character means something else in RE2
 *   (`[[:alpha:]]`, `\Q`, `\z` are ordinary text in ECMA);
 * - `\p{…}` keeps the general categories and scripts RE2 knows (plus `Any` and `ASCII`); other properties are refused;
 * - backreferences, lookaround and inline modifiers are refused: RE2 cannot match them in linear time.
 * @module
 */

/** A translated pattern, or why it cannot be matched by RE2. */
export type Re2Translation = { ok: true; source: string } | { ok: false; reason: string };

/** ECMA-262 WhiteSpace and LineTerminator code points (what `\s` matches), as inclusive ranges. */
const WHITESPACE: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

/** ECMA `.` without the `s` flag: anything but a line terminator. */
const LINE_TERMINATORS: [number, number][] = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

/** General categories, short and long names (ECMA accepts both; RE2 the short ones). */
const CATEGORIES: Record<string, string> = {
  L: "L",
  Letter: "L",
  Lu: "Lu",
  Uppercase_Letter: "Lu",
  Ll: "Ll",
  Lowercase_Letter: "Ll",
  Lt: "Lt",
  Titlecase_Letter: "Lt",
  Lm: "Lm",
  Modifier_Letter: "Lm",
  Lo: "Lo",
  Other_Letter: "Lo",
  M: "M",
  Mark: "M",
  Combining_Mark: "M",
  Mn: "Mn",
  Nonspacing_Mark: "Mn",
  Mc: "Mc",
  Spacing_Mark: "Mc",
  Me: "Me",
  Enclosing_Mark: "Me",
  N: "N",
  Number: "N",
  Nd: "Nd",
  Decimal_Number: "Nd",
  digit: "Nd",
  Nl: "Nl",
  Letter_Number: "Nl",
  No: "No",
  Other_Number: "No",
  P: "P",
  Punctuation: "P",
  punct: "P",
  Pc: "Pc",
  Connector_Punctuation: "Pc",
  Pd: "Pd",
  Dash_Punctuation: "Pd",
  Ps: "Ps",
  Open_Punctuation: "Ps",
  Pe: "Pe",
  Close_Punctuation: "Pe",
  Pi: "Pi",
  Initial_Punctuation: "Pi",
  Pf: "Pf",
  Final_Punctuation: "Pf",
  Po: "Po",
  Other_Punctuation: "Po",
  S: "S",
  Symbol: "S",
  Sm: "Sm",
  Math_Symbol: "Sm",
  Sc: "Sc",
  Currency_Symbol: "Sc",
  Sk: "Sk",
  Modifier_Symbol: "Sk",
  So: "So",
  Other_Symbol: "So",
  Z: "Z",
  Separator: "Z",
  Zs: "Zs",
  Space_Separator: "Zs",
  Zl: "Zl",
  Line_Separator: "Zl",
  Zp: "Zp",
  Paragraph_Separator: "Zp",
  C: "C",
  Other: "C",
  Cc: "Cc",
  Control: "Cc",
  cntrl: "Cc",
  Cf: "Cf",
  Format: "Cf",
  Cs: "Cs",
  Surrogate: "Cs",
  Co: "Co",
  Private_Use: "Co",
};

class Refusal extends Error {}

function hex(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/** One code point as RE2 text that means only itself. */
function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  return /^[A-Za-z0-9]$/.test(c) ? c : hex(cp);
}

function rangesText(ranges: [number, number][]): string {
  return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join("");
}

function complement(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of ranges) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** A set of code points as text that goes inside `[…]` (empty text: the empty set). */
interface ClassAtom {
  inside: string;
  /** The single code point, when the atom is one (a range end). */
  single?: number;
}

/** Never matches / matches any one code point. */
const NOTHING = `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
const ANYTHING = `[${hex(0)}-${hex(MAX_CODE_POINT)}]`;

function wrap(inside: string, negated: boolean): string {
  if (inside === "") return negated ? ANYTHING : NOTHING;
  return negated ? `[^${inside}]` : `[${inside}]`;
}

/** The translator's cursor over one pattern (code points, so a surrogate pair is one character as with `u`). */
class Walker {
  readonly cps: number[];
  i = 0;
  out = "";
  constructor(pattern: string) {
    this.cps = [...pattern].map((c) => c.codePointAt(0)!);
  }
  peek(k = 0): string | undefined {
    const cp = this.cps[this.i + k];
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }
  take(): string {
    return String.fromCodePoint(this.cps[this.i++]);
  }
  takeWhile(test: (c: string) => boolean): string {
    let s = "";
    while (this.peek() !== undefined && test(this.peek()!)) s += this.take();
    return s;
  }
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** `\u…` after the `u`: `{H…}` or `HHHH` (a surrogate pair written as two escapes is one code point). */
function unicodeEscape(w: Walker): number {
  if (w.peek() === "{") {
    w.take();
    const digits = w.takeWhile((c) => c !== "}");
    w.take();
    return parseInt(digits, 16);
  }
  const hi = parseInt(w.take() + w.take() + w.take() + w.take(), 16);
  if (hi >= 0xd800 && hi <= 0xdbff && w.peek() === "\\" && w.peek(1) === "u" && isHex(w.peek(2))) {
    const save = w.i;
    w.i += 2;
    const lo = parseInt(w.take() + w.take() + w.take() + w.take(), 16);
    if (lo >= 0xdc00 && lo <= 0xdfff) return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
    w.i = save;
  }
  if (hi >= 0xd800 && hi <= 0xdfff) throw new Refusal("it names a lone surrogate code unit");
  return hi;
}

/** `\p{…}` / `\P{…}` after the letter: the text inside a class, and whether it is the complement. */
function property(w: Walker, negated: boolean): ClassAtom {
  w.take(); // {
  const body = w.takeWhile((c) => c !== "}");
  w.take(); // }
  const eq = body.indexOf("=");
  const [key, value] = eq === -1 ? ["", body] : [body.slice(0, eq), body.slice(eq + 1)];
  const p = negated ? "P" : "p";
  if (key === "" || key === "General_Category" || key === "gc") {
    const short = CATEGORIES[value];
    if (short) return { inside: `\\${p}{${short}}` };
    if (key === "" && value === "Any") return { inside: negated ? "" : rangesText([[0, MAX_CODE_POINT]]) };
    if (key === "" && value === "ASCII") {
      return { inside: rangesText(negated ? [[0x80, MAX_CODE_POINT]] : [[0, 0x7f]]) };
    }
    throw new Refusal(`the Unicode property \\p{${body}} has no RE2 equivalent`);
  }
  if (key === "Script" || key === "sc") {
    if (!/^[A-Za-z_]+$/.test(value)) throw new Refusal(`the Unicode property \\p{${body}} has no RE2 equivalent`);
    return { inside: `\\${p}{${value}}` };
  }
  throw new Refusal(`the Unicode property \\p{${body}} has no RE2 equivalent`);
}

/** An escape after its backslash, as a class atom (`inClass`: `\b` is a backspace there). */
function escape(w: Walker, inClass: boolean): ClassAtom | { assertion: string } {
  const c = w.take();
  switch (c) {
    case "d":
    case "D":
    case "w":
    case "W":
      return { inside: `\\${c}` };
    case "s":
      return { inside: rangesText(WHITESPACE) };
    case "S":
      return { inside: rangesText(complement(WHITESPACE)) };
    case "b":
      return inClass ? { inside: hex(8), single: 8 } : { assertion: "\\b" };
    case "B":
      return { assertion: "\\B" };
    case "t":
      return single(9);
    case "n":
      return single(10);
    case "v":
      return single(11);
    case "f":
      return single(12);
    case "r":
      return single(13);
    case "0":
      return single(0);
    case "c":
      return single(w.take().codePointAt(0)! % 32);
    case "x":
      return single(parseInt(w.take() + w.take(), 16));
    case "u":
      return single(unicodeEscape(w));
    case "p":
    case "P":
      return property(w, c === "P");
    case "k":
      throw new Refusal("it uses a backreference (\\k<…>)");
    default:
      if (/^[1-9]$/.test(c)) throw new Refusal(`it uses a backreference (\\${c})`);
      return single(c.codePointAt(0)!); // an identity escape: ^ $ \ . * + ? ( ) [ ] { } | / -
  }
}

function single(cp: number): ClassAtom {
  return { inside: literal(cp), single: cp };
}

/** `[…]` after its `[`. */
function characterClass(w: Walker): string {
  const negated = w.peek() === "^";
  if (negated) w.take();
  let inside = "";
  while (w.peek() !== "]") {
    const atom = classAtom(w);
    if (w.peek() === "-" && w.peek(1) !== "]" && w.peek(1) !== undefined && atom.single !== undefined) {
      w.take(); // -
      const end = classAtom(w);
      inside += `${hex(atom.single)}-${hex(end.single ?? atom.single)}`;
    } else {
      inside += atom.inside;
    }
  }
  w.take(); // ]
  return wrap(inside, negated);
}

function classAtom(w: Walker): ClassAtom {
  const c = w.take();
  if (c !== "\\") return single(c.codePointAt(0)!);
  const atom = escape(w, true);
  if ("assertion" in atom) throw new Refusal("it uses \\B inside a character class");
  return atom;
}

/** `(` has been taken: the group's opening in RE2 (capturing groups become non-capturing: only a match counts). */
function groupOpening(w: Walker): string {
  if (w.peek() !== "?") return "(?:";
  w.take();
  const next = w.peek();
  if (next === ":") {
    w.take();
    return "(?:";
  }
  if (next === "=" || next === "!") throw new Refusal("it uses a lookahead (?= or (?!");
  if (next === "<" && (w.peek(1) === "=" || w.peek(1) === "!")) throw new Refusal("it uses a lookbehind (?<= or (?<!");
  if (next === "<") {
    w.takeWhile((c) => c !== ">");
    w.take();
    return "(?:";
  }
  throw new Refusal("it uses inline modifiers like (?i:");
}

/** `{n}`, `{n,}`, `{n,m}` after its `{`, copied (RE2 refuses counts above 1000 when compiling). */
function quantifier(w: Walker): string {
  let s = "";
  while (w.peek() !== "}") s += w.take();
  w.take();
  return `{${s}}`;
}

function translate(w: Walker): string {
  let out = "";
  while (w.peek() !== undefined) {
    const c = w.take();
    switch (c) {
      case "\\": {
        const atom = escape(w, false);
        if ("assertion" in atom) out += atom.assertion;
        else out += atom.single !== undefined ? atom.inside : wrap(atom.inside, false);
        break;
      }
      case "[":
        out += characterClass(w);
        break;
      case ".":
        out += wrap(rangesText(complement(LINE_TERMINATORS)), false);
        break;
      case "(":
        out += groupOpening(w);
        break;
      case "{":
        out += quantifier(w);
        break;
      case ")":
      case "|":
      case "*":
      case "+":
      case "?":
      case "^":
      case "$":
        out += c;
        break;
      default:
        out += literal(c.codePointAt(0)!);
    }
  }
  return out;
}

/**
 * `pattern` (ECMA-262, as JSON Schema's `pattern` and `patternProperties` are read with the `u` flag) in RE2 syntax,
 * or the reason RE2 cannot match it with the same meaning. Never matches anything itself.
 */
export function ecmaToRe2(pattern: string): Re2Translation {
  try {
    new RegExp(pattern, "u"); // the syntax check only: a RegExp matches nothing until it is executed
  } catch {
    return { ok: false, reason: "it is not a valid ECMA-262 regular expression" };
  }
  try {
    return { ok: true, source: translate(new Walker(pattern)) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message };
    throw e;
  }
}
