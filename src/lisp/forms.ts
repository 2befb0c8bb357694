/**
 * Reader output: the syntax tree of PTC-Lisp source, independent of the runtime value model.
 *
 * Every form carries `at`, its character offset in the source, so the analyzer can point at a line and column.
 * @module
 */

/** A symbol as written: `ns` is the part before `/` (null when unqualified), `name` the rest. */
export interface SymbolForm {
  type: "symbol";
  ns: string | null;
  name: string;
  at: number;
}

/** One form produced by the reader. */
export type Form =
  | { type: "nil"; at: number }
  | { type: "bool"; value: boolean; at: number }
  /** Integers: a JS number when |n| <= 2^53 - 1, else a bigint (exact). */
  | { type: "int"; value: number | bigint; at: number }
  | { type: "float"; value: number; at: number }
  | { type: "string"; value: string; at: number }
  | { type: "keyword"; name: string; at: number }
  | SymbolForm
  | { type: "list"; items: Form[]; at: number }
  | { type: "vector"; items: Form[]; at: number }
  | { type: "map"; items: Form[]; at: number }
  | { type: "set"; items: Form[]; at: number }
  /** `#( … )` anonymous function shorthand. */
  | { type: "fnlit"; items: Form[]; at: number }
  /** `#"…"` regex literal; `source` is the pattern text. */
  | { type: "regex"; source: string; at: number };

/** Full text of a symbol form (`ns/name` or `name`). */
export function symbolText(s: SymbolForm): string {
  return s.ns === null ? s.name : `${s.ns}/${s.name}`;
}

/** True when `f` is the unqualified symbol `name`. */
export function isSym(f: Form | undefined, name?: string): f is SymbolForm {
  return f !== undefined && f.type === "symbol" && f.ns === null && (name === undefined || f.name === name);
}

/** Render a form back to source-like text (for error messages). */
export function formText(f: Form, max = 60): string {
  const s = render(f);
  return s.length > max ? s.slice(0, max - 3) + "..." : s;
}

function render(f: Form): string {
  switch (f.type) {
    case "nil":
      return "nil";
    case "bool":
      return String(f.value);
    case "int":
      return String(f.value);
    case "float":
      return Number.isInteger(f.value) ? f.value.toFixed(1) : String(f.value);
    case "string":
      return JSON.stringify(f.value);
    case "keyword":
      return ":" + f.name;
    case "symbol":
      return symbolText(f);
    case "list":
      return "(" + f.items.map(render).join(" ") + ")";
    case "vector":
      return "[" + f.items.map(render).join(" ") + "]";
    case "map":
      return "{" + f.items.map(render).join(" ") + "}";
    case "set":
      return "#{" + f.items.map(render).join(" ") + "}";
    case "fnlit":
      return "#(" + f.items.map(render).join(" ") + ")";
    case "regex":
      return '#"' + f.source + '"';
  }
}

/** Line and column (1-based) of an offset in `source`. */
export function lineCol(source: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(at, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}
