/**
 * `ns/name` references to operator libraries in programs (and in later libraries): public functions resolve to the
 * namespace's cell with their arity checked at analysis time; private helpers and unknown names are `invalid_form`
 * naming the namespace's publics. `(ns …)` in a program is refused: namespaces come from library files only.
 * @module
 */
import type { Form, SymbolForm } from "./forms.ts";
import { type Ana, type Cell, formError, type Node } from "./nodes.ts";
import { analyzeArgs } from "./analyze.ts";
import { qualifiedHooks } from "./symbols.ts";
import { cellNode } from "./symbols.ts";
import { callNode, callSite } from "./calls.ts";
import { didYouMean } from "../core/suggest.ts";
import type { LibraryFunction, NamespaceRuntime } from "./library_types.ts";
import { knownNamespaces } from "./builtins/registry.ts";

/** Namespaces no library may take: the language's own. */
export const PROTECTED_NAMESPACES: ReadonlySet<string> = new Set([
  "tool",
  "data",
  "budget",
  "ptc.core",
  "clojure.core",
  "clojure.string",
  "clojure.set",
  "clojure.walk",
  "core",
  "user",
]);

/** True when `name` belongs to the language (a library cannot be named so). */
export function isProtectedNamespace(name: string): boolean {
  return PROTECTED_NAMESPACES.has(name) || knownNamespaces().includes(name);
}

function publicsText(ns: NamespaceRuntime): string {
  const names = [...ns.publics.keys()].sort();
  return names.length ? names.map((n) => `${ns.info.name}/${n}`).join(", ") : "(none)";
}

/** The public function `s` names, or an analysis error saying why it is not one. */
function resolveExport(a: Ana, s: SymbolForm): { ns: NamespaceRuntime; fn: LibraryFunction } | null {
  const ns = a.p.libraries?.namespaces.get(s.ns ?? "");
  if (ns === undefined) return null;
  const fn = ns.publics.get(s.name);
  if (fn !== undefined) return { ns, fn };
  if (ns.privates.has(s.name)) {
    throw formError(
      a,
      "invalid_form",
      `${s.ns}/${s.name} is private to library ${s.ns} (${ns.info.file}); its public functions: ${publicsText(ns)}`,
      s,
    );
  }
  const refs = [...ns.publics.keys()].map((n) => `${s.ns}/${n}`);
  throw formError(
    a,
    "invalid_form",
    `library ${s.ns} has no public ${s.name}${didYouMean(`${s.ns}/${s.name}`, refs)}; ` +
      `its public functions: ${publicsText(ns)} — see (ns-publics '${s.ns}) or (dir '${s.ns})`,
    s,
  );
}

function exportNode(ns: NamespaceRuntime, fn: LibraryFunction): Node {
  return cellNode(ns.cells.get(fn.name)! as Cell);
}

function arityText([min, max]: [number, number]): string {
  if (max === Infinity) return `at least ${min}`;
  return min === max ? `${min}` : `${min} to ${max}`;
}

qualifiedHooks.value.unshift((s, a) => {
  const r = resolveExport(a, s);
  return r === null ? null : exportNode(r.ns, r.fn);
});

qualifiedHooks.call.unshift((head: SymbolForm, items: Form[], form: Form, a: Ana) => {
  const r = resolveExport(a, head);
  if (r === null) return null;
  const n = items.length - 1;
  const [min, max] = r.fn.arity;
  if (r.fn.arglists.length > 0 && (n < min || n > max)) {
    throw formError(
      a,
      "invalid_arity",
      `${r.fn.ref} takes ${arityText(r.fn.arity)} argument${max === 1 ? "" : "s"} ${r.fn.arglists.join(" ")}` +
        `${r.fn.signature ? ` — ${r.fn.signature}` : ""}, got ${n}`,
      form,
    );
  }
  return callNode(exportNode(r.ns, r.fn), analyzeArgs(items.slice(1), a), callSite(form, a));
});
