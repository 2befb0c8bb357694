/**
 * Destructuring patterns (docs/language.md §4) for `let`, `loop`, fn parameters and `for`/`doseq` bindings: a pattern is
 * compiled once into a binder `(frame, value) => void` that writes the pattern's names into their frame slots.
 * @module
 */
import { type Form, formText, isSym } from "./forms.ts";
import { type Ana, constOf, formError, type Frame, type Node, nonTail } from "./nodes.ts";
import { analyze } from "./analyze.ts";
import type { LexScope } from "./scope.ts";
import { LispError } from "./errors.ts";
import { describe, kw, MapBuilder, mapFlexGet, NOT_FOUND, PMap, PVec, type Value } from "./vals.ts";

/** Writes the names of a pattern into the frame. */
export type Binder = (f: Frame, v: Value) => void;

/** Keyword-style rest arguments `[:k v …]` as a map (for `[& {:keys [k]}]`). */
export function restArgsMap(v: Value, what: string): Value {
  if (v === null || !(v instanceof PVec)) return v;
  // Clojure 1.11: a trailing map supplies the keyword arguments too ((f 1 {:k 2}) as well as (f 1 :k 2)).
  if (v.n % 2 === 1 && v.at(v.n - 1) instanceof PMap) {
    const b = new MapBuilder();
    for (let i = 0; i + 1 < v.n - 1; i += 2) b.set(v.at(i), v.at(i + 1));
    (v.at(v.n - 1) as PMap).forEach((k, x) => b.set(k, x)); // the trailing map's entries come last and win
    return b.build();
  }
  if (v.n % 2 !== 0) destructureError(`${what}: keyword arguments must come in key/value pairs (got ${v.n} values)`);
  const b = new MapBuilder();
  for (let i = 0; i + 1 < v.n; i += 2) b.set(v.at(i), v.at(i + 1));
  return b.build();
}

function destructureError(message: string): never {
  throw new LispError("destructure_error", message);
}

/** Compile `pattern`, binding its names in `scope` (in order). `what` names the form for messages. */
export function compilePattern(pattern: Form, a: Ana, scope: LexScope, what: string): Binder {
  if (pattern.type === "symbol") {
    if (pattern.ns !== null) {
      throw formError(a, "invalid_form", `${what}: cannot bind the qualified name ${formText(pattern)}`, pattern);
    }
    if (pattern.name === "&") throw formError(a, "invalid_form", `${what}: misplaced '&'`, pattern);
    const slot = scope.bind(pattern.name);
    return (f, v) => {
      f[slot] = v;
    };
  }
  if (pattern.type === "vector") return vectorPattern(pattern.items, a, scope, what, pattern);
  if (pattern.type === "map") return mapPattern(pattern.items, a, scope, what, pattern);
  throw formError(
    a,
    "invalid_form",
    `${what}: ${formText(pattern)} is not a valid binding pattern (use a symbol, [vector] or {map} pattern)`,
    pattern,
  );
}

function vectorPattern(items: Form[], a: Ana, scope: LexScope, what: string, form: Form): Binder {
  const fixed: Binder[] = [];
  let rest: Binder | null = null;
  let restIsMap = false;
  let asSlot = -1;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (isSym(it, "&")) {
      const p = items[i + 1];
      if (p === undefined || (items[i + 2] !== undefined && items[i + 2].type !== "keyword")) {
        throw formError(a, "invalid_form", `${what}: '&' must be followed by exactly one pattern`, it);
      }
      restIsMap = p.type === "map";
      rest = compilePattern(p, a, scope, what);
      i++;
      continue;
    }
    if (it.type === "keyword" && it.name === "as") {
      const p = items[i + 1];
      if (!isSym(p)) throw formError(a, "invalid_form", `${what}: :as must be followed by a symbol`, it);
      asSlot = scope.bind(p.name);
      i++;
      continue;
    }
    if (rest !== null) throw formError(a, "invalid_form", `${what}: nothing may follow the & pattern`, it);
    fixed.push(compilePattern(it, a, scope, what));
  }
  const n = fixed.length;
  void form;
  return (f, v) => {
    let len: number;
    if (v instanceof PVec) len = v.n;
    else if (v === null) len = 0;
    else {
      destructureError(`${what}: cannot destructure ${describe(v)} with a vector pattern (expected a vector or nil)`);
    }
    const vec = v as PVec;
    for (let i = 0; i < n; i++) fixed[i](f, i < len ? vec.at(i) : null);
    if (rest !== null) {
      if (restIsMap) {
        const trailing = (len - n) % 2 === 1 && vec.at(len - 1) instanceof PMap; // Clojure 1.11 trailing map
        const b = new MapBuilder();
        if ((len - n) % 2 !== 0 && len > n && !trailing) {
          destructureError(`${what}: keyword arguments must come in key/value pairs (got ${len - n} values)`);
        }
        for (let i = n; i + 1 < (trailing ? len - 1 : len); i += 2) b.set(vec.at(i), vec.at(i + 1));
        if (trailing) (vec.at(len - 1) as PMap).forEach((k, x) => b.set(k, x)); // the trailing map wins
        rest(f, len > n ? b.build() : null);
      } else rest(f, len > n ? vec.slice(n, len) : null);
    }
    if (asSlot >= 0) f[asSlot] = v;
  };
}

interface KeyBinding {
  binder: Binder;
  key: Value;
  /** Default expression (from :or), evaluated only when the key is absent. */
  dflt: Node | null;
}

function keyOf(form: Form, a: Ana, what: string): Value {
  if (form.type === "symbol") return kw(form.name);
  const n = analyze(form, nonTail(a));
  const c = constOf(n);
  if (c === undefined) throw formError(a, "invalid_form", `${what}: map pattern keys must be literals`, form);
  return c.v;
}

function mapPattern(items: Form[], a: Ana, scope: LexScope, what: string, form: Form): Binder {
  const bindings: KeyBinding[] = [];
  let asName: string | null = null;
  let orForms: Form[] = [];
  let meaningful = false;
  const pending: { name: Form; key: Value; sub: Form | null }[] = [];
  for (let i = 0; i < items.length; i += 2) {
    const k = items[i];
    const v = items[i + 1];
    if (k.type === "keyword" && (k.name === "keys" || k.name === "strs")) {
      if (v.type !== "vector") {
        throw formError(a, "invalid_form", `${what}: :${k.name} must be followed by a vector`, v);
      }
      for (const s of v.items) {
        if (s.type !== "symbol" && s.type !== "keyword") {
          throw formError(a, "invalid_form", `${what}: :${k.name} entries must be symbols, got ${formText(s)}`, s);
        }
        const name = s.type === "symbol" ? s.name : s.name;
        pending.push({
          name: { type: "symbol", ns: null, name, at: s.at },
          key: k.name === "keys" ? kw(name) : name,
          sub: null,
        });
      }
      meaningful = true;
    } else if (k.type === "keyword" && k.name === "as") {
      if (!isSym(v)) throw formError(a, "invalid_form", `${what}: :as must be followed by a symbol`, v);
      asName = v.name;
      meaningful = true;
    } else if (k.type === "keyword" && k.name === "or") {
      if (v.type !== "map") throw formError(a, "invalid_form", `${what}: :or must be followed by a map`, v);
      orForms = v.items;
      meaningful = true;
    } else if (k.type === "keyword" && k.name === "syms") {
      throw formError(a, "unsupported_pattern", `${what}: :syms destructuring is not supported; use :keys`, k);
    } else if (k.type === "symbol" || k.type === "vector" || k.type === "map") {
      pending.push({ name: k, key: keyOf(v, a, what), sub: k });
      meaningful = true;
    } else {
      throw formError(a, "unsupported_pattern", `${what}: unsupported map pattern entry ${formText(k)}`, k);
    }
  }
  if (!meaningful) {
    throw formError(a, "unsupported_pattern", `${what}: empty map pattern; use {:keys [...]} or {local :key}`, form);
  }
  const defaults = new Map<string, Form>();
  for (let i = 0; i < orForms.length; i += 2) {
    const s = orForms[i];
    if (!isSym(s)) throw formError(a, "invalid_form", `${what}: :or keys must be symbols`, s);
    defaults.set(s.name, orForms[i + 1]);
  }
  for (const p of pending) {
    const d = p.name.type === "symbol" ? defaults.get(p.name.name) : undefined;
    const dflt = d === undefined ? null : analyze(d, nonTail({ ...a, scope }));
    const binder = compilePattern(p.sub ?? p.name, a, scope, what);
    bindings.push({ binder, key: p.key, dflt });
  }
  const asSlot = asName === null ? -1 : scope.bind(asName);
  return (f, v) => {
    if (v !== null && !(v instanceof PMap)) {
      destructureError(`${what}: cannot destructure ${describe(v)} with a map pattern (expected a map or nil)`);
    }
    for (const b of bindings) {
      const r = v === null ? NOT_FOUND : mapFlexGet(v as PMap, b.key);
      b.binder(f, r === NOT_FOUND ? (b.dflt === null ? null : b.dflt(f)) : r);
    }
    if (asSlot >= 0) f[asSlot] = v;
  };
}
