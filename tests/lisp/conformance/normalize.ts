/**
 * Structural comparison of printed values: the "normalizer" of the conformance table.
 *
 * nbb prints ClojureScript values (`pr-str`), PTC prints with its own printer. Both texts are parsed into a neutral
 * tree and compared with these PURELY PRESENTATIONAL rules, applied uniformly to every program:
 *  - lists `( … )` and vectors `[ … ]` are the same sequence (PTC has no list type; cljs returns lazy seqs);
 *  - commas are whitespace; map entries and set members compare without regard to order;
 *  - numbers compare by value: an integer equals a float of the same value (cljs has no float type, so `5` vs
 *    PTC's `5.0`), floats agree within a relative 1e-9 (PTC prints at most 10 decimals), `##NaN` equals `##NaN`;
 *  - everything else (strings, keywords, symbols, regexes, opaque `#…` tokens) compares by exact text.
 * Semantic differences are never normalized: they are listed in deviations.ts.
 * @module
 */

/** A parsed printed value. */
export type Node =
  | { t: "nil" | "true" | "false" }
  | { t: "int"; v: bigint }
  | { t: "float"; v: number; ratio?: true }
  | { t: "str"; v: string }
  | { t: "kw" | "sym" | "regex" | "opaque"; v: string }
  | { t: "seq" | "set"; items: Node[] }
  | { t: "map"; entries: [Node, Node][] };

/** JVM character literals (`\\a`, `\\space`): PTC has no character type, a character is a one-character string. */
const CHAR_NAMES: Record<string, string> = {
  space: " ",
  newline: "\n",
  tab: "\t",
  return: "\r",
  backspace: "\b",
  formfeed: "\f",
};

const DELIMS = new Set([" ", "\n", "\t", "\r", ",", "(", ")", "[", "]", "{", "}", '"']);

/** Parses one printed value (throws on malformed text; trailing text is an error). */
export function parsePrinted(text: string): Node {
  let i = 0;
  const skipWs = () => {
    while (i < text.length && " \n\t\r,".includes(text[i])) i++;
  };
  const readString = (): string => {
    let out = "";
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\" && i + 1 < text.length) {
        const c = text[i + 1];
        if (c === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        out += ({ n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", b: "\b", f: "\f" } as Record<string, string>)[c] ??
          c;
        i += 2;
      } else out += text[i++];
    }
    if (text[i] !== '"') throw new Error(`unterminated string in ${JSON.stringify(text)}`);
    i++;
    return out;
  };
  const readToken = (): string => {
    const start = i;
    while (i < text.length && !DELIMS.has(text[i])) i++;
    return text.slice(start, i);
  };
  const readItems = (close: string): Node[] => {
    const items: Node[] = [];
    for (;;) {
      skipWs();
      if (i >= text.length) throw new Error(`missing '${close}' in ${JSON.stringify(text)}`);
      if (text[i] === close) {
        i++;
        return items;
      }
      items.push(read());
    }
  };
  const atom = (tok: string): Node => {
    if (tok === "nil") return { t: "nil" };
    if (tok === "true") return { t: "true" };
    if (tok === "false") return { t: "false" };
    if (/^[-+]?\d+N?$/.test(tok)) return { t: "int", v: BigInt(tok.replace("N", "")) };
    const ratio = /^([-+]?\d+)\/(\d+)$/.exec(tok);
    if (ratio) return { t: "float", v: Number(ratio[1]) / Number(ratio[2]), ratio: true };
    if (tok.startsWith("'") && tok.length > 1) return { t: "sym", v: tok.slice(1) };
    if (/^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+)$/.test(tok)) return { t: "float", v: Number(tok) };
    if (tok.startsWith(":")) return { t: "kw", v: tok };
    return { t: "sym", v: tok };
  };
  const read = (): Node => {
    skipWs();
    const c = text[i];
    if (c === undefined) throw new Error(`unexpected end of ${JSON.stringify(text)}`);
    if (c === '"') return { t: "str", v: readString() };
    if (c === "\\") { // a JVM character literal: \a \, \space \u00e9
      const name = /^\\(u[0-9a-fA-F]{4}|space|newline|tab|return|backspace|formfeed)/.exec(text.slice(i));
      if (name) {
        i += name[0].length;
        const n = name[1];
        return {
          t: "str",
          v: n.length === 5 && n[0] === "u" ? String.fromCharCode(parseInt(n.slice(1), 16)) : CHAR_NAMES[n],
        };
      }
      const ch = String.fromCodePoint(text.codePointAt(i + 1) ?? 0);
      i += 1 + ch.length;
      return { t: "str", v: ch };
    }
    if (c === "(") return i++, { t: "seq", items: readItems(")") };
    if (c === "[") return i++, { t: "seq", items: readItems("]") };
    if (c === "{") {
      i++;
      const flat = readItems("}");
      if (flat.length % 2 !== 0) throw new Error(`odd map in ${JSON.stringify(text)}`);
      const entries: [Node, Node][] = [];
      for (let k = 0; k < flat.length; k += 2) entries.push([flat[k], flat[k + 1]]);
      return { t: "map", entries };
    }
    if (c === "#") {
      const n = text[i + 1];
      if (n === "{") return i += 2, { t: "set", items: readItems("}") };
      if (n === '"') {
        i++;
        const start = i;
        i++;
        while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        i++;
        return { t: "regex", v: text.slice(start, i) };
      }
      if (n === "#") {
        const tok = readToken();
        const v = tok === "##Inf" ? Infinity : tok === "##-Inf" ? -Infinity : tok === "##NaN" ? NaN : undefined;
        if (v === undefined) throw new Error(`unknown token ${tok}`);
        return { t: "float", v };
      }
      // #object[...], #fn[...], #<builtin>, #'var, #duration[...]: opaque up to the matching bracket, if any
      const start = i;
      readToken();
      if (text[i] === "[") {
        let depth = 0;
        for (; i < text.length; i++) {
          if (text[i] === "[") depth++;
          else if (text[i] === "]" && --depth === 0) {
            i++;
            break;
          }
        }
      }
      return { t: "opaque", v: text.slice(start, i) };
    }
    const tok = readToken();
    if (tok === "") throw new Error(`unexpected '${c}' in ${JSON.stringify(text)}`);
    return atom(tok);
  };
  const node = read();
  skipWs();
  if (i < text.length) throw new Error(`trailing text after value in ${JSON.stringify(text)}`);
  return node;
}

function numEq(a: Node, b: Node): boolean {
  if (a.t === "int" && b.t === "int") return a.v === b.v;
  const x = Number((a as { v: number | bigint }).v), y = Number((b as { v: number | bigint }).v);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

function unorderedEq<T>(xs: T[], ys: T[], eq: (a: T, b: T) => boolean): boolean {
  if (xs.length !== ys.length) return false;
  const used = new Array(ys.length).fill(false);
  return xs.every((x) => {
    const k = ys.findIndex((y, j) => !used[j] && eq(x, y));
    if (k < 0) return false;
    used[k] = true;
    return true;
  });
}

/**
 * Structural equality under the presentational rules of this module. With `strictKinds` (the JVM comparison), an
 * integer never equals a float (JVM Clojure has both kinds, as PTC does), except that a JVM ratio equals PTC's float
 * of the same value (PTC has no ratios: `/` returns a float, docs/language.md §9).
 */
export function nodesEqual(a: Node, b: Node, strictKinds = false): boolean {
  const isNum = (n: Node) => n.t === "int" || n.t === "float";
  if (isNum(a) || isNum(b)) {
    if (!isNum(a) || !isNum(b)) return false;
    if (strictKinds && a.t !== b.t && !(a.t === "float" && a.ratio) && !(b.t === "float" && b.ratio)) return false;
    return numEq(a, b);
  }
  if (a.t !== b.t) return false;
  switch (a.t) {
    case "nil":
    case "true":
    case "false":
      return true;
    case "seq": {
      const bi = (b as typeof a).items;
      return a.items.length === bi.length && a.items.every((x, k) => nodesEqual(x, bi[k], strictKinds));
    }
    case "set":
      return unorderedEq(a.items, (b as typeof a).items, (x, y) => nodesEqual(x, y, strictKinds));
    case "map":
      return unorderedEq(
        a.entries,
        (b as typeof a).entries,
        (x, y) => nodesEqual(x[0], y[0], strictKinds) && nodesEqual(x[1], y[1], strictKinds),
      );
    case "opaque": // a function, a var: `#object[clojure.core$inc …]` is PTC's `#<builtin>`
      return strictKinds || a.v === (b as typeof a).v;
    default:
      return (a as { v: unknown }).v === (b as { v: unknown }).v;
  }
}

/** True when two printed texts denote the same value (see the module doc); unparsable text never matches. */
export function printedEqual(ptc: string, nbb: string, strictKinds = false): boolean {
  try {
    return nodesEqual(parsePrinted(ptc), parsePrinted(nbb), strictKinds);
  } catch {
    return false;
  }
}
