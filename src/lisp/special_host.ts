/**
 * Qualified names: `data/<key>` (context), `tool/<name>` (host tools, call position and first-class values) and
 * builtin namespaces (`str/join`, `Math/abs`, `json/parse-string` …) with did-you-mean errors.
 * @module
 */
import { formText, type SymbolForm } from "./forms.ts";
import { type Ana, constNode, formError } from "./nodes.ts";
import { analyzeArgs } from "./analyze.ts";
import { qualifiedHooks } from "./symbols.ts";
import { builtinCall, callSite, located, staticBuiltin } from "./calls.ts";
import { resolveBuiltin } from "./builtins/registry.ts";
import { callTool, ToolFn } from "./tools.ts";
import { flexGet, kw, type Value } from "./vals.ts";
import { discoveryCall } from "./discovery.ts";

function checkTool(a: Ana, s: SymbolForm): void {
  const names = a.p.toolNames;
  if (names !== null && names.has(s.name)) return;
  if (!a.p.unknownTools.has(s.name)) a.p.unknownTools.set(s.name, s.at);
}

// data/<key>
qualifiedHooks.value.push((s, a) => {
  if (s.ns !== "data") return null;
  const key = kw(s.name);
  const R = a.p.run;
  return () => flexGet(R.context, key, null);
});

// tool/<name> as a value
qualifiedHooks.value.push((s, a) => {
  if (s.ns !== "tool") return null;
  checkTool(a, s);
  const fn = new ToolFn(s.name, a.p.run);
  return constNode(fn);
});

function builtinError(a: Ana, s: SymbolForm): never {
  const r = resolveBuiltin(s.ns, s.name);
  if (r.ok) throw new Error("unreachable");
  throw formError(a, "invalid_form", r.message, s);
}

// builtin namespaces as values
qualifiedHooks.value.push((s, a) => {
  const r = resolveBuiltin(s.ns, s.name);
  if (r.ok) return constNode(r.builtin.constant !== undefined ? r.builtin.constant : a.p.run.builtinFn(r.builtin));
  return builtinError(a, s);
});

// (tool/<name> args…) and discovery's (tool/servers)
qualifiedHooks.call.push((head, items, form, a) => {
  if (head.ns !== "tool") return null;
  const args = analyzeArgs(items.slice(1), a);
  const R = a.p.run;
  if (head.name === "servers") {
    if (args.length !== 0) throw formError(a, "invalid_arity", "(tool/servers) takes no arguments", form);
    return () => discoveryCall(R, "servers", {});
  }
  checkTool(a, head);
  const name = head.name;
  const n = args.length;
  const site = callSite(form, a);
  return (f) => {
    const vals = new Array<Value>(n);
    for (let i = 0; i < n; i++) vals[i] = args[i](f);
    R.step();
    try {
      return callTool(R, name, vals);
    } catch (e) {
      throw located(e, site);
    }
  };
});

// (ns/fn args…) for builtin namespaces
qualifiedHooks.call.push((head, items, form, a) => {
  if (head.ns === "data") {
    throw formError(a, "not_callable", `${formText(head)} is a data lookup, not a function`, form);
  }
  const b = staticBuiltin(head, a);
  if (b !== undefined) return builtinCall(b, analyzeArgs(items.slice(1), a), form, a);
  const r = resolveBuiltin(head.ns, head.name);
  if (r.ok) return null; // a constant in call position: analyzed (and rejected) as a normal call
  if (r.reason === "unknown_namespace" && /^[a-z][a-z0-9_-]*$/.test(head.ns ?? "")) {
    throw formError(
      a,
      "invalid_form",
      `${r.message}. To call an upstream tool write (tool/call '${head.ns}/${head.name} {...})`,
      head,
    );
  }
  return builtinError(a, head);
});
