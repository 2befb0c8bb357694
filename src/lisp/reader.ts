/**
 * The PTC-Lisp reader: source text → `Form[]` (see forms.ts). Reports errors with `line N, column M`.
 * @module
 */
import { type Form, lineCol } from "./forms.ts";
import type { LispErrorReason } from "./errors.ts";

/** A reader failure: reason `parse_error` (or `program_too_large`), with a position. */
export class ReadError extends Error {
  constructor(
    readonly reason: LispErrorReason,
    message: string,
    readonly line?: number,
    readonly column?: number,
    /** True when more input could complete the source (REPL continuation). */
    readonly incomplete = false,
  ) {
    super(message);
    this.name = "ReadError";
  }
}

/** Reader options. */
export interface ReadOptions {
  /** Maximum nesting depth (default 256). */
  maxDepth?: number;
}

const MAX_INT_DIGITS = 100;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// Character classes (ASCII codes).
function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 12;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
const SYM_START = new Set("+-*/<>=?!_%.&".split("").map((c) => c.charCodeAt(0)));
function isSymStart(c: number): boolean {
  return isAlpha(c) || SYM_START.has(c);
}
function isSymChar(c: number): boolean {
  return isSymStart(c) || isDigit(c) || c === 39 /* ' */;
}
const KW_EXTRA = new Set("+-*<>=?!_.".split("").map((c) => c.charCodeAt(0)));
function isKwChar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || KW_EXTRA.has(c);
}
/** Characters that end a token. */
function isDelim(c: number): boolean {
  return Number.isNaN(c) || isWs(c) || c === 40 || c === 41 || c === 91 || c === 93 || c === 123 || c === 125 ||
    c === 34 || c === 59;
}

const NAMED_CHARS: [string, string][] = [
  ["newline", "\n"],
  ["space", " "],
  ["tab", "\t"],
  ["return", "\r"],
  ["backspace", "\b"],
  ["formfeed", "\f"],
];

const CLOSER_NAME: Record<string, string> = { ")": "parenthesis", "]": "bracket", "}": "brace" };

class Reader {
  pos = 0;
  depth = 0;
  /** Open delimiters: [closing char, offset]. */
  open: [string, number][] = [];

  constructor(readonly src: string, readonly maxDepth: number) {}

  fail(message: string, at = this.pos, incomplete = false): never {
    const { line, column } = lineCol(this.src, at);
    throw new ReadError("parse_error", `${message} at line ${line}, column ${column}`, line, column, incomplete);
  }

  peek(off = 0): number {
    return this.src.charCodeAt(this.pos + off);
  }

  skipWs(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (isWs(c)) this.pos++;
      else if (c === 59) {
        while (this.pos < s.length && s.charCodeAt(this.pos) !== 10) this.pos++;
      } else break;
    }
  }

  readAll(): Form[] {
    const out: Form[] = [];
    for (;;) {
      this.skipWs();
      if (this.pos >= this.src.length) return out;
      const c = this.src[this.pos];
      if (c === ")" || c === "]" || c === "}") {
        this.pos++; // stray closer between top-level forms: skipped
        continue;
      }
      out.push(this.readForm());
    }
  }

  readForm(): Form {
    this.skipWs();
    const s = this.src;
    const at = this.pos;
    if (at >= s.length) this.fail("Unexpected end of input", at, true);
    const ch = s[at];
    const c = s.charCodeAt(at);
    switch (ch) {
      case "(":
        return { type: "list", items: this.readSeq(")", at, 1), at };
      case "[":
        return { type: "vector", items: this.readSeq("]", at, 1), at };
      case "{": {
        const items = this.readSeq("}", at, 1);
        if (items.length % 2 !== 0) {
          this.fail(`Map literal must contain an even number of forms (got ${items.length})`, at);
        }
        return { type: "map", items, at };
      }
      case ")":
      case "]":
      case "}":
        this.fail(`Unexpected closing ${CLOSER_NAME[ch]} '${ch}'`, at);
        break;
      case '"':
        return { type: "string", value: this.readString(at + 1, false), at };
      case ":":
        return this.readKeyword(at);
      case "\\":
        return this.readChar(at);
      case "'":
        return this.readQuote(at);
      case "@":
        this.fail("Deref '@' is not supported (there are no atoms or refs in PTC-Lisp)", at);
        break;
      case "`":
      case "~":
        this.fail(`Could not parse expression: syntax-quote/unquote '${ch}' is not supported`, at);
        break;
      case "^":
        this.fail("Could not parse expression: metadata '^' is not supported", at);
        break;
      case "#":
        return this.readDispatch(at);
    }
    if (isDigit(c) || ((ch === "-") && isDigit(this.peek(1)))) return this.readNumber(at);
    if (isSymStart(c)) return this.readSymbol(at);
    const cp = String.fromCodePoint(s.codePointAt(at)!);
    this.fail(`Could not parse expression: unexpected character '${cp}'`, at);
  }

  readSeq(close: string, at: number, skip: number): Form[] {
    if (++this.depth > this.maxDepth) {
      this.fail(`Nesting too deep (more than ${this.maxDepth} levels)`, at);
    }
    this.open.push([close, at]);
    this.pos = at + skip;
    const items: Form[] = [];
    const s = this.src;
    for (;;) {
      this.skipWs();
      if (this.pos >= s.length) {
        const n = this.open.length;
        const [c0, at0] = this.open[n - 1];
        const { line, column } = lineCol(s, at0);
        throw new ReadError(
          "parse_error",
          `Unbalanced input: ${n} unclosed delimiter${n === 1 ? "" : "s"}; expected '${c0}' to close the form ` +
            `opened at line ${line}, column ${column}`,
          line,
          column,
          true,
        );
      }
      const ch = s[this.pos];
      if (ch === close) {
        this.pos++;
        this.open.pop();
        this.depth--;
        return items;
      }
      if (ch === ")" || ch === "]" || ch === "}") {
        const opener = close === ")" ? "(" : close === "]" ? "[" : "{";
        const { line, column } = lineCol(s, at);
        this.fail(
          `Mismatched delimiter: expected '${close}' to close '${opener}' from line ${line}, column ${column}, ` +
            `found '${ch}'`,
        );
      }
      items.push(this.readForm());
    }
  }

  readString(start: number, regex: boolean): string {
    const s = this.src;
    let out = "";
    let i = start;
    let chunk = i;
    for (;;) {
      if (i >= s.length) {
        this.fail(regex ? "Unterminated regex literal" : "Unterminated string literal", start - 1, true);
      }
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) {
        out += s.slice(chunk, i);
        const n = s[i + 1];
        if (n === undefined) this.fail("Unterminated string literal", start - 1, true);
        if (n === "\n" || n === "\r") this.fail("Backslash before a line break is not a valid escape", i);
        if (regex) {
          out += n === '"' ? '"' : "\\" + n;
        } else if (n === "n") out += "\n";
        else if (n === "t") out += "\t";
        else if (n === "r") out += "\r";
        else if (n === "\\") out += "\\";
        else if (n === '"') out += '"';
        else if (n === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
          i += 4;
        } else out += "\\" + n; // unknown escapes are kept verbatim (regex-friendly)
        i += 2;
        chunk = i;
        continue;
      }
      i++;
    }
    out += s.slice(chunk, i);
    this.pos = i + 1;
    return out;
  }

  readKeyword(at: number): Form {
    const s = this.src;
    let i = at + 1;
    while (i < s.length && isKwChar(s.charCodeAt(i))) i++;
    if (i === at + 1) this.fail("Invalid keyword: ':' must be followed by a name", at);
    if (s[i] === "/") {
      this.fail(`Namespaced keywords are not supported (':${s.slice(at + 1, i)}/…'); use a plain keyword`, at);
    }
    this.pos = i;
    return { type: "keyword", name: s.slice(at + 1, i), at };
  }

  readChar(at: number): Form {
    const s = this.src;
    if (at + 1 >= s.length) this.fail("Incomplete character literal '\\'", at);
    for (const [name, value] of NAMED_CHARS) {
      if (s.startsWith(name, at + 1) && isDelim(s.charCodeAt(at + 1 + name.length))) {
        this.pos = at + 1 + name.length;
        return { type: "string", value, at };
      }
    }
    const u = /^u([0-9a-fA-F]{4})/.exec(s.slice(at + 1, at + 6));
    if (u && isDelim(s.charCodeAt(at + 6))) {
      this.pos = at + 6;
      return { type: "string", value: String.fromCharCode(parseInt(u[1], 16)), at };
    }
    const cp = s.codePointAt(at + 1)!;
    const value = String.fromCodePoint(cp);
    this.pos = at + 1 + value.length;
    return { type: "string", value, at };
  }

  readQuote(at: number): Form {
    this.pos = at + 1;
    const f = this.readForm();
    return { type: "list", items: [{ type: "symbol", ns: null, name: "quote", at }, f], at };
  }

  readDispatch(at: number): Form {
    const s = this.src;
    const n = s[at + 1];
    switch (n) {
      case "{":
        return { type: "set", items: this.readSeq("}", at, 2), at };
      case "(":
        return { type: "fnlit", items: this.readSeq(")", at, 2), at };
      case '"':
        return { type: "regex", source: this.readString(at + 2, true), at };
      case "'": {
        this.pos = at + 2;
        const f = this.readForm();
        if (f.type !== "symbol") this.fail("#' must be followed by a symbol", at);
        return f;
      }
      case "_":
        this.fail("The discard reader macro '#_' is not supported; use ';' comments or (comment ...)", at);
        break;
      case "#": {
        const m = /^##(-?Inf|NaN)/.exec(s.slice(at, at + 6));
        if (m && isDelim(s.charCodeAt(at + m[0].length))) {
          this.pos = at + m[0].length;
          const v = m[1] === "Inf" ? Infinity : m[1] === "-Inf" ? -Infinity : NaN;
          return { type: "float", value: v, at };
        }
        this.fail("Could not parse expression: expected ##Inf, ##-Inf or ##NaN", at);
        break;
      }
    }
    this.fail(`Could not parse expression: unsupported dispatch '#${n ?? ""}' (tagged literals are not supported)`, at);
  }

  readNumber(at: number): Form {
    const s = this.src;
    const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(s.slice(at, at + 400));
    const text = m![0];
    const after = at + text.length;
    const isFloat = m![1] !== undefined || m![2] !== undefined;
    if (!isFloat && !isDelim(s.charCodeAt(after))) return this.readSpecialNumber(at, text, after);
    this.pos = after;
    if (isFloat) {
      if (s[after] === "M") this.failBigDecimal(at, after);
      if (!isDelim(s.charCodeAt(after))) this.fail(`Invalid number '${s.slice(at, after + 1)}…'`, at);
      return { type: "float", value: Number(text), at };
    }
    const digits = text.startsWith("-") ? text.length - 1 : text.length;
    if (digits > 1 && /^-?0/.test(text)) return this.octal(at, text);
    return this.intForm(at, text, 10, text);
  }

  /** An integer literal in `radix` (digits without sign or prefix in `body`, sign kept in front). */
  intForm(at: number, body: string, radix: number, written: string): Form {
    const neg = body.startsWith("-");
    const digits = neg ? body.slice(1) : body;
    if (digits.length > MAX_INT_DIGITS) {
      this.fail(`Integer literal too long (${digits.length} digits, max ${MAX_INT_DIGITS})`, at);
    }
    if (radix === 10 && digits.length <= 15) return { type: "int", value: Number(body), at };
    const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz".slice(0, radix);
    let b = 0n;
    for (const ch of digits.toLowerCase()) {
      const d = alphabet.indexOf(ch);
      if (d < 0) this.fail(`Invalid number '${written}': '${ch}' is not a base-${radix} digit`, at);
      b = b * BigInt(radix) + BigInt(d);
    }
    if (neg) b = -b;
    const abs = b < 0n ? -b : b;
    return { type: "int", value: abs <= SAFE ? Number(b) : b, at };
  }

  /** `010` is octal 8, as in Clojure; `08` is refused with the decimal spelling. */
  octal(at: number, written: string): Form {
    const body = written.replace(/^(-?)0+/, "$1");
    if (/[89]/.test(body)) {
      this.fail(`Invalid number '${written}': a leading 0 makes an octal literal; write ${Number(written)}`, at);
    }
    return this.intForm(at, body === "" || body === "-" ? "0" : body, 8, written);
  }

  failBigDecimal(at: number, after: number): never {
    const text = this.src.slice(at, after);
    this.fail(`BigDecimal literals are not supported ('${text}M'); write ${text} (a float)`, at);
  }

  /**
   * Integer literals with a suffix or prefix: `0x1F` (hex), `2r1010` (radix), `7N` (exact integer: all integers
   * are exact already); `1/3` (ratio) and `1.5M` (BigDecimal) are refused with what to write instead.
   * Anything else glued to the digits is an invalid number, as in Clojure.
   */
  readSpecialNumber(at: number, text: string, after: number): Form {
    const s = this.src;
    let end = after;
    while (end < s.length && !isDelim(s.charCodeAt(end))) end++;
    const whole = s.slice(at, end);
    const sign = text.startsWith("-") ? "-" : "";
    const unsigned = sign ? whole.slice(1) : whole;
    this.pos = end;
    let m = /^0[xX]([0-9a-fA-F]+)N?$/.exec(unsigned);
    if (m) return this.intForm(at, sign + m[1], 16, whole);
    m = /^([0-9]{1,2})[rR]([0-9a-zA-Z]+)$/.exec(unsigned);
    if (m) {
      const radix = Number(m[1]);
      if (radix < 2 || radix > 36) this.fail(`Invalid number '${whole}': the radix must be 2 to 36`, at);
      return this.intForm(at, sign + m[2], radix, whole);
    }
    if (/^[0-9]+N$/.test(unsigned)) {
      const digits = unsigned.slice(0, -1);
      return digits.length > 1 && digits.startsWith("0")
        ? this.octal(at, sign + digits)
        : this.intForm(at, sign + digits, 10, whole);
    }
    if (/^[0-9]+M$/.test(unsigned)) this.failBigDecimal(at, end - 1);
    m = /^([0-9]+)\/([0-9]+)$/.exec(unsigned);
    if (m) {
      this.fail(
        `Ratio literals are not supported ('${whole}'): PTC-Lisp has no ratio type; write (/ ${sign}${m[1]} ${
          m[2]
        }) for a float, or (quot ${sign}${m[1]} ${m[2]}) for the integer quotient`,
        at,
      );
    }
    this.fail(`Invalid number '${whole}'`, at);
  }

  readSymbol(at: number): Form {
    const s = this.src;
    let i = at + 1;
    while (i < s.length && isSymChar(s.charCodeAt(i))) i++;
    const text = s.slice(at, i);
    this.pos = i;
    if (text === "nil") return { type: "nil", at };
    if (text === "true") return { type: "bool", value: true, at };
    if (text === "false") return { type: "bool", value: false, at };
    const slash = text.indexOf("/");
    if (slash > 0 && slash < text.length - 1) {
      return { type: "symbol", ns: text.slice(0, slash), name: text.slice(slash + 1), at };
    }
    if (slash > 0 && slash === text.length - 1 && text !== "/") {
      this.fail(`Invalid symbol '${text}': a name must follow '/'`, at);
    }
    return { type: "symbol", ns: null, name: text, at };
  }
}

/** Read every top-level form of `source`. Throws ReadError. */
export function readForms(source: string, options: ReadOptions = {}): Form[] {
  return new Reader(source, options.maxDepth ?? 256).readAll();
}

/**
 * Classify REPL input: `"complete"` when it reads, `"incomplete"` when more lines could complete it (unclosed
 * delimiters or an unterminated string), or the reader error.
 */
export function readerStatus(source: string): "complete" | "incomplete" | { error: string } {
  try {
    readForms(source);
    return "complete";
  } catch (e) {
    if (e instanceof ReadError) return e.incomplete ? "incomplete" : { error: e.message };
    throw e;
  }
}
