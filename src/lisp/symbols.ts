/**
 * Symbol resolution at analysis time: locals (frame slots or captured values), user-namespace cells (late-bound),
 * `options.globals`, builtins (direct references), `*1 *2 *3`, `#()` placeholders and hooks for qualified names.
 * Undefined symbols are collected and reported together after analysis (compile.ts).
 * @module
 */
import { type SymbolForm, symbolText } from "./forms.ts";
import type { Form } from "./forms.ts";
import { LispError } from "./errors.ts";
import { SPECIAL_VALUES, SPECIALS } from "./specials.ts";
import { type Ana, type Cell, constNode, formError, type Node, type ProgramCtx, slotNode, UNBOUND } from "./nodes.ts";
import { supportedMethods } from "./builtins/registry.ts";
import { builtinValue } from "./vals.ts";

/** A node reading a local. */
export function localNode(a: Ana, name: string): Node | null {
  const ref = a.scope.resolve(name);
  if (ref === null) return null;
  const i = ref.index;
  return ref.kind === "slot" ? slotNode(i) : (f) => f[0][i];
}

/** Get (or create) the namespace cell of `name`. */
export function cellOf(p: ProgramCtx, name: string): Cell {
  let c = p.cells.get(name);
  if (c === undefined) {
    c = { name, value: UNBOUND };
    p.cells.set(name, c);
  }
  return c;
}

/** Raise `unbound_var` for a cell read before it holds a value. */
export function unboundError(name: string): never {
  throw new LispError("unbound_var", `Undefined variable: ${name}`);
}

/** A node reading a user-namespace cell (late-bound). */
export function cellNode(cell: Cell, orNil = false): Node {
  if (orNil) return () => (cell.value === UNBOUND ? null : cell.value);
  return () => {
    const v = cell.value;
    return v === UNBOUND ? unboundError(cell.name) : v;
  };
}

const SPECIAL_CONSTS: Record<string, number> = {
  NaN: NaN,
  POSITIVE_INFINITY: Infinity,
  NEGATIVE_INFINITY: -Infinity,
};

/** Hooks for qualified symbols the analyzer core does not own (data/, tool/, builtin namespaces). */
export const qualifiedHooks: {
  value: ((s: SymbolForm, a: Ana) => Node | null)[];
  call: ((head: SymbolForm, items: Form[], form: Form, a: Ana) => Node | null)[];
} = { value: [], call: [] };

/** Record an undefined symbol; returns a node that raises if ever reached. */
export function undefinedSymbol(a: Ana, s: SymbolForm): Node {
  const name = symbolText(s);
  if (!a.p.undefinedSyms.has(name)) {
    a.p.undefinedSyms.set(name, s.at);
    (a.p.undefinedLocals ??= new Map()).set(name, a.scope.names());
  }
  return () => unboundError(name);
}

/** Analyze a symbol in value position. */
export function analyzeSymbol(s: SymbolForm, a: Ana, orNil = false): Node {
  if (s.ns !== null) {
    for (const hook of qualifiedHooks.value) {
      const n = hook(s, a);
      if (n !== null) return n;
    }
    return undefinedSymbol(a, s);
  }
  const name = s.name;
  if (name.startsWith("%") && a.fnlit === null && /^%(\d+|&)?$/.test(name)) {
    throw formError(a, "invalid_placeholder", `Placeholder ${name} can only be used inside #(...)`, s);
  }
  if (a.fnlit !== null && /^%(\d+|&)?$/.test(name)) return fnlitPlaceholder(a, s);
  const local = localNode(a, name);
  if (local !== null) return local;
  if (name === "*1" || name === "*2" || name === "*3") {
    const k = Number(name[1]);
    const hist = a.p.history;
    return () => {
      const h = hist();
      return h.length >= k ? h[h.length - k] : null;
    };
  }
  const cell = a.p.cells.get(name);
  if (a.p.defined.has(name) || (cell !== undefined && cell.value !== UNBOUND)) {
    return cellNode(cellOf(a.p, name), orNil);
  }
  if (a.p.globals.has(name)) return constNode(a.p.globals.get(name)!);
  const b = builtinValue(null, name, a.p.run);
  if (b !== undefined) return constNode(b);
  if (name in SPECIAL_CONSTS) return constNode(SPECIAL_CONSTS[name]);
  const asValue = SPECIAL_VALUES.get(name);
  if (asValue !== undefined) return constNode(asValue(a.p.run));
  if (SPECIALS.has(name)) {
    throw formError(a, "invalid_form", `${name} is a special form and can only be used in call position`, s);
  }
  if (orNil) return cellNode(cellOf(a.p, name), true);
  if (name.startsWith(".") && name.length > 1) {
    return () => {
      throw new LispError(
        "unsupported_method",
        `Unsupported method ${name}. Supported methods: ${supportedMethods().join(", ")}`,
      );
    };
  }
  return undefinedSymbol(a, s);
}

function fnlitPlaceholder(a: Ana, s: SymbolForm): Node {
  const st = a.fnlit!;
  const key = s.name === "%" ? "%1" : s.name;
  if (key !== "%&") {
    const n = Number(key.slice(1));
    if (n < 1 || n > 20) throw formError(a, "invalid_placeholder", `Placeholder ${s.name} out of range (%1..%20)`, s);
    if (n > st.max) st.max = n;
  } else st.rest = true;
  let slot = st.slots.get(key);
  if (slot === undefined) {
    slot = st.scope.bind(key);
    st.slots.set(key, slot);
  }
  // Resolve through the normal path so captures work from nested fns inside the literal.
  return localNode(a, key)!;
}

/** Names for did-you-mean suggestions of an unbound symbol. */
export function knownNames(a: Ana | null, p: ProgramCtx): string[] {
  const out = new Set<string>([...p.defined, ...p.globals.keys(), ...SPECIALS.keys()]);
  for (const [n, c] of p.cells) if (c.value !== UNBOUND) out.add(n);
  if (a !== null) { for (const n of a.scope.names()) out.add(n); }
  return [...out];
}
