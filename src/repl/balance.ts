/**
 * Bracket balance for REPL input: decides whether the user has finished a form (so Enter submits) or is still
 * typing (continuation prompt), and splits a file or `--eval` text into top-level forms. Aware of strings, regex
 * literals, `;` comments and `\x` character literals.
 * @module
 */

/** Where the input stands. `error` carries the reason (a stray closer). */
export type InputStatus = { kind: "complete" } | { kind: "incomplete" } | { kind: "error"; message: string };

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSE = new Set([")", "]", "}"]);

/** A top-level form with its 1-based starting line. */
export interface TopForm {
  text: string;
  line: number;
}

interface Scan {
  forms: TopForm[];
  /** Text after the last complete form (whitespace/comments or an unfinished form). */
  rest: string;
  restLine: number;
  status: InputStatus;
}

function scan(text: string): Scan {
  const forms: TopForm[] = [];
  const stack: string[] = [];
  let i = 0;
  let line = 1;
  let formStart = -1;
  let formLine = 1;
  const endAtom = (j: number) => {
    // an atom at top level (symbol, number, keyword…) ends at whitespace or a bracket
    while (j < text.length && !/[\s,()[\]{}";]/.test(text[j])) j++;
    return j;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (/[\s,]/.test(c)) {
      i++;
      continue;
    }
    const topLevel = stack.length === 0;
    if (topLevel && formStart < 0) {
      formStart = i;
      formLine = line;
    }
    if (c === '"' || (c === "#" && text[i + 1] === '"')) {
      i += c === "#" ? 2 : 1;
      let closed = false;
      while (i < text.length) {
        const d = text[i];
        if (d === "\\") {
          if (text[i + 1] === "\n") line++;
          i += 2;
          continue;
        }
        if (d === "\n") line++;
        i++;
        if (d === '"') {
          closed = true;
          break;
        }
      }
      if (!closed) return { forms, rest: text.slice(formStart), restLine: formLine, status: { kind: "incomplete" } };
    } else if (c === "\\") {
      i += 2; // a character literal: the next char never opens or closes anything
      i = endAtom(i);
    } else if (c === "#" && (text[i + 1] === "{" || text[i + 1] === "(")) {
      stack.push(OPEN[text[i + 1]]);
      i += 2;
    } else if (OPEN[c]) {
      stack.push(OPEN[c]);
      i++;
    } else if (CLOSE.has(c)) {
      const want = stack.pop();
      if (want !== c) {
        return {
          forms,
          rest: text.slice(formStart < 0 ? i : formStart),
          restLine: line,
          status: {
            kind: "error",
            message: want
              ? `line ${line}: expected '${want}' but found '${c}'`
              : `line ${line}: unexpected '${c}' with nothing open`,
          },
        };
      }
      i++;
    } else {
      i = c === "'" || c === "@" || c === "#" ? i + 1 : endAtom(i);
      if (c === "'" || c === "#") continue; // a prefix belongs to the next form
    }
    if (stack.length === 0 && formStart >= 0) {
      forms.push({ text: text.slice(formStart, i), line: formLine });
      formStart = -1;
    }
  }
  if (stack.length > 0 || formStart >= 0) {
    return { forms, rest: text.slice(formStart), restLine: formLine, status: { kind: "incomplete" } };
  }
  return { forms, rest: "", restLine: line, status: { kind: "complete" } };
}

/** Whether `text` holds only complete forms (Enter submits), is unfinished, or has a stray closer. */
export function inputStatus(text: string): InputStatus {
  return scan(text).status;
}

/** Split text into top-level forms. Incomplete trailing input is returned as `rest`. */
export function splitTopLevel(text: string): { forms: TopForm[]; status: InputStatus; rest: string } {
  const s = scan(text);
  return { forms: s.forms, status: s.status, rest: s.rest };
}

/**
 * One line for the history: `;` comments are dropped (outside strings and character literals) and line breaks with
 * their indentation become one space, so a recalled entry reads back as the same forms.
 */
export function oneLine(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "\\") {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/\s*\n\s*/g, " ").trim();
}
