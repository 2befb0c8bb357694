/**
 * The analyzer core: turns reader forms into a tree of JS closures ("nodes") once, resolving every symbol at
 * analysis time — locals to frame slots, def'd names to namespace cells (late-bound), builtins to direct
 * references. Special forms live in `special_*.ts` and register into `SPECIALS`; what nodes, frames and the analysis
 * contexts are is defined in `nodes.ts`.
 * @module
 */
import { type Form, formText, isSym, symbolText } from "./forms.ts";
import { type Ana, constNode, constValue, formError, isConst, type Node, nonTail, slotOf } from "./nodes.ts";
import { SPECIALS } from "./specials.ts";
import { EMPTY_VEC, Keyword, kw, makeRegex, mapFromKvs, mkFloat, setFromItems, type Value, vecFrom } from "./vals.ts";
import { SMALL_MAP_MAX, smallMapOfDistinct } from "./values/hashmap.ts";
import { kwGet } from "./values/flex.ts";
import { internalized } from "./values/types.ts";
import { builtinCall, callNode, callSite, staticBuiltin } from "./calls.ts";
import { analyzeSymbol, qualifiedHooks } from "./symbols.ts";
import { takeRangeZero, takeRangeZeroForms } from "./take_range.ts";

/** Analyze one form. */
export function analyze(form: Form, a: Ana): Node {
  switch (form.type) {
    case "nil":
      return constNode(null);
    case "bool":
      return constNode(form.value);
    case "int":
      return constNode(form.value);
    case "float":
      return constNode(mkFloat(form.value));
    case "string":
      // The engine's unique copy: equal data strings (internalized by fromJson) then compare by identity.
      return constNode(internalized(form.value));
    case "keyword":
      return constNode(kw(form.name));
    case "regex":
      try {
        return constNode(makeRegex(form.source));
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        throw formError(a, "invalid_form", `Invalid regex literal #"${form.source}": ${msg}`, form);
      }
    case "symbol":
      return analyzeSymbol(form, a);
    case "vector":
      return analyzeVector(form.items, nonTail(a));
    case "map":
      return analyzeMap(form, nonTail(a));
    case "set":
      return analyzeSet(form, nonTail(a));
    case "fnlit": {
      const h = SPECIALS.get("#()");
      return h!.handler(form.items, form, a);
    }
    case "list":
      return analyzeList(form, a);
  }
}

/** Analyze forms as an implicit `do`: the last one inherits tail position. */
export function analyzeBody(forms: Form[], a: Ana): Node {
  if (forms.length === 0) return constNode(null);
  if (forms.length === 1) return analyze(forms[0], a);
  const nt = nonTail(a);
  const nodes = forms.map((f, i) => analyze(f, i === forms.length - 1 ? a : nt));
  if (nodes.length === 2) {
    const [x, y] = nodes;
    return (f) => {
      x(f);
      return y(f);
    };
  }
  const last = nodes.length - 1;
  return (f) => {
    for (let i = 0; i < last; i++) nodes[i](f);
    return nodes[last](f);
  };
}

function analyzeVector(items: Form[], a: Ana): Node {
  if (items.length === 0) return constNode(EMPTY_VEC);
  const nodes = items.map((x) => analyze(x, a));
  if (nodes.every(isConst)) return constNode(vecFrom(nodes.map(constValue)));
  const n = nodes.length;
  const R = a.p.run;
  const cost = 16 + 8 * n;
  // Up to three items: an array literal (packed, exact size, no loop over the item nodes).
  if (n === 1) {
    const [x] = nodes;
    return (f) => {
      const v = [x(f)];
      R.alloc(cost);
      return vecFrom(v);
    };
  }
  if (n === 2) {
    const [x, y] = nodes;
    return (f) => {
      const v = [x(f), y(f)];
      R.alloc(cost);
      return vecFrom(v);
    };
  }
  if (n === 3) {
    const [x, y, z] = nodes;
    return (f) => {
      const v = [x(f), y(f), z(f)];
      R.alloc(cost);
      return vecFrom(v);
    };
  }
  return (f) => {
    const arr = new Array(n);
    for (let i = 0; i < n; i++) arr[i] = nodes[i](f);
    R.alloc(cost);
    return vecFrom(arr);
  };
}

/** Canonical text of a literal key form for the duplicate-key check (null: never a duplicate). */
function dupKey(f: Form): string | null {
  if (f.type === "regex" || f.type === "fnlit") return null;
  if (f.type === "float") return "f:" + (f.value === 0 ? 0 : f.value);
  return formText(f, 100000);
}

function checkDuplicates(a: Ana, items: Form[], stride: number, what: string, form: Form): void {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i += stride) {
    const k = dupKey(items[i]);
    if (k === null) continue;
    if (seen.has(k)) {
      throw formError(a, "duplicate_key", `Duplicate ${what} ${formText(items[i])} in literal`, items[i]);
    }
    seen.add(k);
  }
  void form;
}

/**
 * The keys of a map literal's nodes when all are distinct constant keywords or strings and few enough for a flat map.
 */
function distinctNameKeys(nodes: Node[]): Value[] | null {
  if (nodes.length > 2 * SMALL_MAP_MAX) return null;
  const keys: Value[] = [];
  for (let i = 0; i < nodes.length; i += 2) {
    if (!isConst(nodes[i])) return null;
    const k = constValue(nodes[i]);
    if (!(k instanceof Keyword) && typeof k !== "string") return null;
    // Keywords are interned and strings compare by value: a key written twice in another spelling (`':a` and `:a`)
    // is seen here, and such a literal keeps the builder's last-wins rule.
    if (keys.includes(k)) return null;
    keys.push(k);
  }
  return keys;
}

function analyzeMap(form: Form & { type: "map" }, a: Ana): Node {
  checkDuplicates(a, form.items, 2, "key", form);
  const nodes = form.items.map((x) => analyze(x, a));
  if (nodes.every(isConst)) return constNode(mapFromKvs(nodes.map(constValue)));
  const n = nodes.length;
  const R = a.p.run;
  const fixed = distinctNameKeys(nodes);
  if (fixed !== null) {
    // Constant keyword/string keys, distinct by value (distinctNameKeys): the entries array is the map, no builder,
    // no scan.
    const strings = fixed.every((k) => typeof k === "string");
    const cost = 32 + 24 * n;
    // One to three entries: an array literal (packed and of exact size: no growth while it is filled).
    if (n === 2) {
      const [k0] = fixed;
      const v0 = nodes[1];
      return (f) => {
        const arr = [k0, v0(f)];
        R.alloc(cost);
        return smallMapOfDistinct(arr, strings);
      };
    }
    if (n === 4) {
      const [k0, k1] = fixed;
      const v0 = nodes[1], v1 = nodes[3];
      return (f) => {
        const arr = [k0, v0(f), k1, v1(f)];
        R.alloc(cost);
        return smallMapOfDistinct(arr, strings);
      };
    }
    if (n === 6) {
      const [k0, k1, k2] = fixed;
      const v0 = nodes[1], v1 = nodes[3], v2 = nodes[5];
      return (f) => {
        const arr = [k0, v0(f), k1, v1(f), k2, v2(f)];
        R.alloc(cost);
        return smallMapOfDistinct(arr, strings);
      };
    }
    return (f) => {
      // Built by push: a packed array, the elements kind every other small map has (a holey one would make the
      // lookups' scans polymorphic).
      const arr: Value[] = [];
      for (let i = 0; i < n; i += 2) arr.push(fixed[i >> 1], nodes[i + 1](f));
      R.alloc(32 + 24 * n);
      return smallMapOfDistinct(arr, strings);
    };
  }
  return (f) => {
    const arr = new Array(n);
    for (let i = 0; i < n; i++) arr[i] = nodes[i](f);
    R.alloc(32 + 24 * n);
    return mapFromKvs(arr);
  };
}

function analyzeSet(form: Form & { type: "set" }, a: Ana): Node {
  checkDuplicates(a, form.items, 1, "set member", form);
  const nodes = form.items.map((x) => analyze(x, a));
  if (nodes.every(isConst)) return constNode(setFromItems(nodes.map(constValue)));
  const n = nodes.length;
  const R = a.p.run;
  return (f) => {
    const arr = new Array(n);
    for (let i = 0; i < n; i++) arr[i] = nodes[i](f);
    R.alloc(32 + 16 * n);
    return setFromItems(arr);
  };
}

/** Analyze arguments (never in tail position). */
export function analyzeArgs(forms: Form[], a: Ana): Node[] {
  const nt = nonTail(a);
  return forms.map((x) => analyze(x, nt));
}

/** Analyze a list form: special form, or call. */
function analyzeList(form: Form & { type: "list" }, a: Ana): Node {
  const items = form.items;
  if (items.length === 0) {
    throw formError(a, "invalid_form", "Empty list () is not a valid expression; use [] for an empty vector", form);
  }
  const head = items[0];
  if (isSym(head)) {
    const sp = SPECIALS.get(head.name);
    if (sp !== undefined && (sp.core || !a.scope.has(head.name))) return sp.handler(items, form, a);
    if (head.name === ".") {
      throw formError(a, "invalid_form", "(. obj method) is not supported; write (.method obj args...)", form);
    }
  }
  if (head.type === "symbol" && head.ns !== null) {
    const q = SPECIALS.get(symbolText(head));
    if (q !== undefined) return q.handler(items, form, a);
    for (const hook of qualifiedHooks.call) {
      const n = hook(head, items, form, a);
      if (n !== null) return n;
    }
  }
  if (head.type === "symbol") {
    const b = staticBuiltin(head, a);
    if (b !== undefined) {
      const zero = takeRangeZeroForms(b, items, a);
      if (zero !== null) return takeRangeZero(analyzeArgs(zero, a), a.p.run);
      return builtinCall(b, analyzeArgs(items.slice(1), a), form, a);
    }
  }
  if (head.type === "keyword") {
    const k = kw(head.name);
    const args = analyzeArgs(items.slice(1), a);
    if (args.length < 1 || args.length > 2) {
      throw formError(
        a,
        "invalid_keyword_call",
        `Keyword :${head.name} called with ${args.length} arguments; use (:${head.name} map) or (:${head.name} map default)`,
        form,
      );
    }
    const [m, d] = args;
    const s = slotOf(m);
    if (d === undefined) return s >= 0 ? (f) => kwGet(f[s], k, null) : (f) => kwGet(m(f), k, null);
    return (f) => kwGet(m(f), k, d(f));
  }
  if (
    head.type === "int" || head.type === "float" || head.type === "string" || head.type === "nil" ||
    head.type === "bool"
  ) {
    throw formError(a, "not_callable", `${formText(head)} is not a function and cannot be called`, form);
  }
  const h = analyze(head, nonTail(a));
  const args = analyzeArgs(items.slice(1), a);
  return callNode(h, args, callSite(form, a));
}
