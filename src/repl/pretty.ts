/**
 * Terminal rendering of printed PTC-Lisp values: long collections are broken across indented lines, collections
 * beyond `maxItems` and output beyond `maxChars` are cut with a visible marker. Works on the printer's text, so it
 * shows exactly what the printer produced, only laid out.
 * @module
 */

type Node = { kind: "atom"; text: string } | { kind: "coll"; open: string; close: string; items: Node[] };

const PAIRS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "#{": "}" };

function parse(text: string): Node[] {
  let i = 0;
  const readSeq = (close: string | undefined): Node[] => {
    const out: Node[] = [];
    while (i < text.length) {
      const c = text[i];
      if (c === " " || c === "\n" || c === ",") {
        i++;
        continue;
      }
      if (close !== undefined && c === close) {
        i++;
        return out;
      }
      const open = c === "#" && text[i + 1] === "{" ? "#{" : c;
      if (PAIRS[open]) {
        i += open.length;
        out.push({ kind: "coll", open, close: PAIRS[open], items: readSeq(PAIRS[open]) });
        continue;
      }
      const start = i;
      if (c === "\\") {
        // a character literal: the character after the backslash is never a bracket or a separator
        i += 2;
        while (i < text.length && !" \n,()[]{}".includes(text[i])) i++;
      } else if (c === '"' || (c === "#" && text[i + 1] === '"')) {
        i += c === "#" ? 2 : 1;
        while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        i++;
      } else {
        while (i < text.length && !" \n,()[]{}".includes(text[i])) i++;
        if (i === start) i++; // a lone closer that does not belong here: keep it as text
      }
      out.push({ kind: "atom", text: text.slice(start, i) });
    }
    return out;
  };
  return readSeq(undefined);
}

function flat(n: Node): string {
  return n.kind === "atom" ? n.text : n.open + n.items.map(flat).join(" ") + n.close;
}

/** Rendering budgets. */
export interface PrettyOptions {
  /** Line width before breaking a collection. */
  width: number;
  /** Items shown per collection (map entries count once). */
  maxItems: number;
  /** Characters of output before it is cut. */
  maxChars: number;
}

/** Defaults fit for a terminal. */
export const DEFAULT_PRETTY: PrettyOptions = { width: 100, maxItems: 100, maxChars: 20_000 };

function limitItems(n: Node, maxItems: number): Node {
  if (n.kind === "atom") return n;
  const perItem = n.open === "{" ? 2 : 1;
  const shown = n.items.slice(0, maxItems * perItem).map((x) => limitItems(x, maxItems));
  const hidden = (n.items.length - shown.length) / perItem;
  if (hidden > 0) shown.push({ kind: "atom", text: `... (+${hidden} more)` });
  return { ...n, items: shown };
}

function layout(n: Node, indent: number, width: number): string {
  const one = flat(n);
  if (n.kind === "atom" || indent + one.length <= width) return one;
  const pad = " ".repeat(indent + n.open.length);
  const lines: string[] = [];
  if (n.open === "{") {
    for (let k = 0; k < n.items.length; k += 2) {
      const key = flat(n.items[k]);
      const value = n.items[k + 1];
      if (value === undefined) {
        lines.push(key);
        continue;
      }
      const keyCol = indent + n.open.length + key.length + 1;
      const v = layout(value, keyCol, width);
      lines.push(`${key} ${v}`);
    }
  } else if (n.items.every((x) => x.kind === "atom")) {
    // scalars are filled across the line (like Clojure's pprint) rather than one per line
    let line = "";
    for (const item of n.items.map(flat)) {
      if (line && indent + n.open.length + line.length + 1 + item.length > width) {
        lines.push(line);
        line = item;
      } else {
        line = line ? `${line} ${item}` : item;
      }
    }
    if (line) lines.push(line);
  } else {
    for (const item of n.items) lines.push(layout(item, indent + n.open.length, width));
  }
  return n.open + lines.join(`\n${pad}`) + n.close;
}

/** Lay out printed text for a terminal. */
export function prettyPrinted(printed: string, options: PrettyOptions = DEFAULT_PRETTY): string {
  const nodes = parse(printed).map((n) => limitItems(n, options.maxItems));
  const text = nodes.map((n) => layout(n, 0, options.width)).join(" ");
  if (text.length <= options.maxChars) return text;
  return `${text.slice(0, options.maxChars)}\n... (output cut at ${options.maxChars} of ${text.length} characters)`;
}
