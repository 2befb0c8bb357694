/**
 * The builtin registry: name → builtin, namespace aliases resolved at analysis time, docs and search.
 *
 * - `resolveBuiltin(ns, name)` → `{ ok: true, builtin }` or `{ ok: false, reason, message }` (message lists valid
 *   members / "did you mean …").
 * - `builtinNames()`, `builtinDoc(name)`, `searchBuiltins(query)` (ranked, for `apropos`), `namespaceMembers(ns)`,
 *   `knownNamespaces()`.
 * - The evaluator calls `b.fn(args, ctx)` directly (after `checkArity`) with its evaluation context; a builtin
 *   function value (`(map inc …)`) is a `BuiltinFn` bound to that same context, so it charges the same budgets.
 * @module
 */

import { didYouMean, phraseSuggestions, suggest } from "../../core/suggest.ts";
import type { BuiltinDoc } from "../api.ts";
import { type Builtin, type NsGroup, TABLE } from "./table.ts";
import "./seq.ts";
import "./sort.ts";
import "./steps.ts";
import "./colls.ts";
import "./build.ts";
import "./members.ts";
import "./maps.ts";
import "./sets.ts";
import "./relations.ts";
import "./agg.ts";
import "./fns.ts";
import "./walk.ts";
import "./math.ts";
import "./compare.ts";
import "./preds.ts";
import "./strings.ts";
import "./string_case.ts";
import "./reduced.ts";
import "./text.ts";
import "./regex.ts";
import "./json.ts";
import "./interop.ts";

export { type Builtin, type BuiltinContext, BuiltinFn, checkArity } from "./table.ts";

/** Namespace spellings → group. */
const NAMESPACES: Record<string, NsGroup> = {
  "clojure.core": "core",
  "core": "core",
  "clojure.string": "string",
  "str": "string",
  "string": "string",
  "clojure.set": "set",
  "set": "set",
  "clojure.walk": "walk",
  "walk": "walk",
  "regex": "regex",
  "json": "json",
  "Math": "math",
  "Double": "Double",
  "Float": "Float",
  "Integer": "Integer",
  "Long": "Long",
  "Boolean": "Boolean",
  "System": "System",
  "LocalDate": "LocalDate",
  "java.time.LocalDate": "LocalDate",
  "Instant": "Instant",
  "java.time.Instant": "Instant",
  "Duration": "Duration",
  "java.time.Duration": "Duration",
};

/** Outcome of resolving a (possibly qualified) builtin name. */
export type ResolveResult =
  | { ok: true; builtin: Builtin }
  | { ok: false; reason: "unknown_namespace" | "unknown_member" | "unknown_builtin"; message: string };

let groupIndex: Map<NsGroup, Map<string, Builtin>> | null = null;

function member(b: Builtin): string {
  const i = b.name.indexOf("/");
  return i > 0 ? b.name.slice(i + 1) : b.name;
}

function index(): Map<NsGroup, Map<string, Builtin>> {
  if (groupIndex) return groupIndex;
  const idx = new Map<NsGroup, Map<string, Builtin>>();
  const add = (g: NsGroup, name: string, b: Builtin) => {
    let m = idx.get(g);
    if (!m) idx.set(g, m = new Map());
    m.set(name, b);
  };
  for (const b of TABLE.values()) {
    if (!b.qualifiedOnly && !b.name.startsWith(".")) add("core", b.name, b);
    for (const g of b.groups) add(g, member(b), b);
  }
  groupIndex = idx;
  return idx;
}

/**
 * The builtin `ns/name` (or bare `name` when ns is null) names, or undefined — no suggestions computed, so the
 * analyzer can probe every symbol cheaply.
 */
export function lookupBuiltin(ns: string | null, name: string): Builtin | undefined {
  const idx = index();
  if (ns === null) {
    // Unqualified: core names, `.method` interop and constructor symbols like `java.util.Date.`.
    return idx.get("core")!.get(name) ?? (name.startsWith(".") || name.endsWith(".") ? TABLE.get(name) : undefined);
  }
  const g = NAMESPACES[ns];
  return g === undefined ? undefined : idx.get(g)?.get(name);
}

/** Resolve `ns/name` (or bare `name` when ns is null) to a builtin, or a structured error naming valid choices. */
export function resolveBuiltin(ns: string | null, name: string): ResolveResult {
  const found = lookupBuiltin(ns, name);
  if (found) return { ok: true, builtin: found };
  const idx = index();
  if (ns === null) {
    return {
      ok: false,
      reason: "unknown_builtin",
      message: `unknown function '${name}'${didYouMean(name, idx.get("core")!.keys())}`,
    };
  }
  const g = NAMESPACES[ns];
  if (g === undefined) {
    return {
      ok: false,
      reason: "unknown_namespace",
      message: `unknown namespace '${ns}' in ${ns}/${name}${didYouMean(ns, Object.keys(NAMESPACES))}. ` +
        `Known namespaces: ${Object.keys(NAMESPACES).join(", ")}`,
    };
  }
  const members = idx.get(g) ?? new Map<string, Builtin>();
  const near = suggest(name, members.keys()).map((n) => `${ns}/${n}`);
  const all = [...members.keys()].sort();
  return {
    ok: false,
    reason: "unknown_member",
    message: `${ns}/${name} does not exist${phraseSuggestions(near)}. Members of ${ns}: ${all.join(", ")}`,
  };
}

/** Every canonical builtin name (including qualified-only ones like `json/parse-string`), sorted. */
export function builtinNames(): string[] {
  return [...TABLE.keys()].sort();
}

/** The builtin registered under exactly `name` (canonical or alias), if any. */
export function getBuiltin(name: string): Builtin | undefined {
  return TABLE.get(name);
}

/** Documentation of a builtin; accepts bare or qualified spellings (`str/join`, `Math/abs`). */
export function builtinDoc(name: string): BuiltinDoc | undefined {
  const direct = TABLE.get(name);
  if (direct) return direct.doc;
  const i = name.lastIndexOf("/");
  if (i > 0) {
    const r = resolveBuiltin(name.slice(0, i), name.slice(i + 1));
    if (r.ok) return r.builtin.doc;
  }
  return undefined;
}

/** Known namespace spellings, sorted. */
export function knownNamespaces(): string[] {
  return Object.keys(NAMESPACES).sort();
}

/** Member names reachable as `ns/<member>`, sorted; undefined for an unknown namespace. */
export function namespaceMembers(ns: string): string[] | undefined {
  const g = NAMESPACES[ns];
  if (g === undefined) return undefined;
  return [...(index().get(g)?.keys() ?? [])].sort();
}

/** Supported `.method` interop names, sorted. */
export function supportedMethods(): string[] {
  return [...TABLE.keys()].filter((n) => n.startsWith(".")).sort();
}

function tokens(s: string): string[] {
  return s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s_\-./(),:?!*<>=+'[\]]+/).filter((t) =>
    t.length > 0
  );
}

/** One search hit. */
export interface SearchHit {
  name: string;
  doc: BuiltinDoc;
  score: number;
}

/**
 * Rank builtins for a query (apropos): per query token the best of exact 10 / prefix 5 / substring 2 over the name
 * and doc tokens, +2 when it hit a name token. Zero-score builtins are dropped; ties put plain names before
 * interop/qualified ones, then sort by name.
 */
export function searchBuiltins(query: string, limit = 20): SearchHit[] {
  const q = tokens(query);
  if (q.length === 0) return [];
  const hits: SearchHit[] = [];
  for (const b of TABLE.values()) {
    const nameToks = tokens(b.name);
    const docToks = tokens(b.doc.doc);
    let score = 0;
    for (const t of q) {
      let best = 0;
      let onName = false;
      for (const [toks, isName] of [[nameToks, true], [docToks, false]] as const) {
        for (const w of toks) {
          const s = w === t ? 10 : w.startsWith(t) ? 5 : w.includes(t) ? 2 : 0;
          if (s > best || (s === best && s > 0 && isName)) {
            best = s;
            onName = isName;
          }
        }
      }
      score += best + (best > 0 && onName ? 2 : 0);
    }
    if (b.name.toLowerCase() === query.toLowerCase()) score += 20;
    if (score > 0) hits.push({ name: b.name, doc: b.doc, score });
  }
  const plain = (n: string) => (n.startsWith(".") || n.includes("/") ? 1 : 0);
  hits.sort((a, b) =>
    b.score - a.score || plain(a.name) - plain(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
  return hits.slice(0, limit);
}
