/**
 * Syntax highlighting of a PTC-Lisp program for the run page: one linear pass splits the text into tokens (comments,
 * strings, keywords, numbers, tool and namespaced symbols, brackets), each escaped and wrapped in a classed span.
 * Text it does not recognise is kept as plain escaped text: highlighting never changes what is shown.
 * @module
 */
import { html, raw } from "hono/html";

/** The CSS class of each token kind. */
const TOKEN = /;[^\n]*|"(?:[^"\\]|\\[\s\S])*"?|:[^\s()[\]{}",;]+|-?\d+(?:\.\d+)?|[()[\]{}]|#\{|[^\s()[\]{}",;]+/g;

function kindOf(token: string): string | undefined {
  if (token.startsWith(";")) return "c";
  if (token.startsWith('"')) return "s";
  if (token.startsWith(":")) return "k";
  if (/^-?\d/.test(token)) return "n";
  if (/^[()[\]{}]$|^#\{$/.test(token)) return "p";
  if (token.startsWith("tool/")) return "t";
  if (/^(def|defn|fn|let|if|when|cond|case|and|or|loop|recur|for|doseq|return|fail|do|->|->>)$/.test(token)) {
    return "f";
  }
  if (token.startsWith("'") || token.includes("/")) return "q";
  return undefined;
}

/** The program as highlighted HTML (every character of it kept, escaped). */
export function highlightLisp(program: string): ReturnType<typeof raw> {
  const out: string[] = [];
  let last = 0;
  for (const m of program.matchAll(TOKEN)) {
    if (m.index > last) out.push(escapeText(program.slice(last, m.index)));
    const kind = kindOf(m[0]);
    out.push(kind ? `<span class="h${kind}">${escapeText(m[0])}</span>` : escapeText(m[0]));
    last = m.index + m[0].length;
  }
  if (last < program.length) out.push(escapeText(program.slice(last)));
  return raw(out.join(""));
}

/** HTML-escaped text (through hono's escaper). */
function escapeText(text: string): string {
  return String(html`${text}`);
}
