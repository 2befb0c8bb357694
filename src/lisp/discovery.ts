/**
 * Discovery forms (docs/language.md §7): apropos, dir, doc, meta, source, ns-publics, all-ns, ns-name and (tool/servers).
 * Builtins and special forms are answered locally from the registry docs; everything else goes to the host's
 * `DiscoveryBackend`. Symbol arguments are auto-quoted (`(doc map)` ≡ `(doc "map")`).
 * @module
 */
import type { DiscoveryOp, DiscoveryOutcome } from "../core/tool_seam.ts";
import type { JsonObject } from "../core/json.ts";
import type { BuiltinDoc } from "./api.ts";
import { LispError } from "./errors.ts";
import { type Ana, constNode, formError, type Node, nonTail } from "./nodes.ts";
import { analyze } from "./analyze.ts";
import { defSpecial, SPECIALS } from "./specials.ts";
import { builtinDoc, knownNamespaces, namespaceMembers, searchBuiltins } from "./builtins/registry.ts";
import type { EvalContext } from "./runtime.ts";
import type { Form } from "./forms.ts";
import type { LibraryFunction } from "./library_types.ts";
import {
  fromJson,
  Keyword,
  kw,
  MapBuilder,
  mapFromKvs,
  PMap,
  prStr,
  PVec,
  SymbolRef,
  toJson,
  type Value,
  vecFrom,
} from "./vals.ts";

const ALL_NS = ["clojure.core", "clojure.set", "clojure.string", "clojure.walk", "json"];
const NS_ALIASES: Record<string, string> = {
  "clojure.core": "clojure.core",
  "clojure.string": "clojure.string",
  "clojure.set": "clojure.set",
  "clojure.walk": "clojure.walk",
  json: "json",
};

function keywordize(v: Value): Value {
  if (v instanceof PMap) {
    const b = new MapBuilder();
    v.forEach((k, x) => b.set(typeof k === "string" ? kw(k) : k, keywordize(x)));
    return b.build();
  }
  if (v instanceof PVec) return vecFrom(v.toArray().map(keywordize));
  return v;
}

/** A discovery world fault as the program sees it: `{:ok false :reason :catalog_cap_exhausted :message "…"}`. */
export function isDiscoveryFault(v: Value): boolean {
  return v instanceof PMap && v.get(K_OK, undefined) === false;
}

const K_OK = kw("ok");

/**
 * Run one operation on the host backend: world faults (a spent discovery budget, a result over the size limit) → a
 * tagged fault map with the host's message, never a bare nil; programmer faults → runtime_error.
 */
export function discoveryCall(run: EvalContext, op: DiscoveryOp, args: JsonObject): Value {
  const d = run.discovery;
  if (d === undefined) {
    throw new LispError(
      "runtime_error",
      `${op === "servers" ? "(tool/servers)" : `(${op} …)`}: no upstream servers are configured here, so there ` +
        `are no tools to discover (give ptc an upstreams config, e.g. --upstreams-config FILE)`,
    );
  }
  const o = d.exec(op, args);
  if (o.kind === "world_fault") {
    return mapFromKvs([K_OK, false, kw("reason"), kw(o.reason), kw("message"), o.message]);
  }
  if (o.kind === "programmer_fault") throw new LispError("runtime_error", o.message);
  const v = fromJson(o.result);
  return o.keywordKeys ? keywordize(v) : v;
}

/**
 * The qualified name (`server/tool`) of an upstream tool whose own name is `name` (`list-traces`), found through the
 * host's catalog search; undefined without a backend or without an exact match. Used to turn `(list-traces …)` and
 * `(tool/list-traces …)` into a pointer at `tool/call`.
 */
export function upstreamToolNamed(run: EvalContext, name: string): string | undefined {
  const d = run.discovery;
  if (d === undefined || name === "") return undefined;
  let o: DiscoveryOutcome;
  try {
    o = d.exec("apropos", { query: name, limit: 20 });
  } catch {
    return undefined;
  }
  if (o.kind !== "ok" || !Array.isArray(o.result)) return undefined;
  for (const line of o.result) {
    if (typeof line !== "string") continue;
    const qualified = line.replace(/^upstream: /, "").split(" ")[0];
    const slash = qualified.indexOf("/");
    if (slash > 0 && qualified.slice(slash + 1) === name) return qualified;
  }
  return undefined;
}

/** Documentation of a local name (builtin or special form), if any. */
export function localDoc(name: string): BuiltinDoc | undefined {
  const b = builtinDoc(name);
  if (b !== undefined) return b;
  const sp = SPECIALS.get(name);
  if (sp !== undefined) return { name, arglists: sp.doc.arglists, doc: sp.doc.doc, section: "special forms" };
  return undefined;
}

/** The library function `ref` (`ns/name`) names, if it is a public one of a loaded library. */
function libraryFn(run: EvalContext, ref: string): LibraryFunction | undefined {
  const i = ref.indexOf("/");
  if (i <= 0) return undefined;
  return run.libraries?.namespaces.get(ref.slice(0, i))?.publics.get(ref.slice(i + 1));
}

/** Text block printed by `(doc ns/name)` for a library function: arglists, signature, docstring. */
export function libraryDocText(f: LibraryFunction): string {
  const lines = [f.ref, ...f.arglists.map((a) => `  ${a}`)];
  if (f.signature) lines.push(`  signature: ${f.signature}`);
  lines.push(`  ${f.doc}`);
  return lines.join("\n");
}

/** Text block printed by `(doc name)` for a local name. */
export function docText(d: BuiltinDoc): string {
  return `${d.name}\n${d.arglists.map((a) => `  ${a}`).join("\n")}\n  ${d.doc}`;
}

/** Turn a discovery argument into a ref string. */
function refText(v: Value, form: string): string {
  if (typeof v === "string") return v;
  if (v instanceof SymbolRef) return v.full;
  if (v instanceof Keyword) return v.name;
  throw new LispError("type_error", `${form}: expected a name (symbol or string), got ${prStr(v)}`);
}

/** Analyze a ref argument: bare/qualified symbols are auto-quoted. */
function refArg(f: Form, a: Ana): Node {
  if (f.type === "symbol") return constNode(new SymbolRef(f.ns, f.name));
  return analyze(f, nonTail(a));
}

function optsJson(v: Value | undefined, form: string): JsonObject {
  if (v === undefined || v === null) return {};
  if (!(v instanceof PMap)) throw new LispError("type_error", `${form}: options must be a map, got ${prStr(v)}`);
  return toJson(v) as JsonObject;
}

function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i < 0 ? s : s.slice(0, i);
}

function discoveryForm(
  name: string,
  arglists: string[],
  doc: string,
  min: number,
  max: number,
  run: (args: Value[], ctx: EvalContext) => Value,
) {
  defSpecial(name, arglists, doc, (items, form, a) => {
    const n = items.length - 1;
    if (n < min || n > max) {
      throw formError(
        a,
        "invalid_arity",
        `${name} expects ${min === max ? min : `${min} to ${max}`} arguments, got ${n}`,
        form,
      );
    }
    const args = items.slice(1).map((x, i) => (i === 0 ? refArg(x, a) : analyze(x, nonTail(a))));
    const R = a.p.run;
    return (f) => run(args.map((x) => x(f)), R);
  });
}

discoveryForm(
  "doc",
  ["(doc name)"],
  "The documentation of a builtin, special form, library function or namespace, upstream server or tool, as a " +
    "string (printed only when you print it); nil when the name has none.",
  1,
  1,
  (args, R) => {
    const ref = refText(args[0], "doc");
    const d = localDoc(ref);
    if (d !== undefined) return docText(d);
    const lf = libraryFn(R, ref);
    if (lf !== undefined) return libraryDocText(lf);
    const lns = R.libraries?.namespaces.get(ref);
    if (lns !== undefined) return `${ref} (library ${lns.info.file})\n  ${lns.info.doc}`;
    if (R.discovery === undefined) return null;
    const r = discoveryCall(R, "doc", { ref });
    if (isDiscoveryFault(r) || r === null || typeof r === "string") return r;
    return prStr(r);
  },
);

discoveryForm(
  "source",
  ["(source name)"],
  "The source of a prelude export as a string; none exist here, so it says so (builtins are native; doc shows a " +
    "library function's docstring and signature).",
  1,
  1,
  (args) => `no source available for ${refText(args[0], "source")}`,
);

discoveryForm(
  "apropos",
  ["(apropos query)", "(apropos query opts)"],
  "Searches builtins and upstream tools; returns matching lines.",
  1,
  2,
  (args, R) => {
    const q = refText(args[0], "apropos");
    if (q.trim() === "") throw new LispError("runtime_error", "apropos: the query must not be empty");
    const opts = optsJson(args[1], "apropos");
    const limit = typeof opts.limit === "number" ? Math.max(1, Math.min(50, opts.limit)) : 8;
    const out: Value[] = [];
    if (R.discovery !== undefined) {
      const r = discoveryCall(R, "apropos", { query: q, ...opts, limit });
      if (isDiscoveryFault(r)) return r;
      if (r instanceof PVec) out.push(...r.view());
    }
    const needle = q.toLowerCase();
    for (const ns of R.libraries?.namespaces.values() ?? []) {
      for (const f of ns.publics.values()) {
        if (`${f.ref} ${f.doc}`.toLowerCase().includes(needle)) out.push(`library: ${f.ref} - ${firstLine(f.doc)}`);
      }
    }
    for (const h of searchBuiltins(q, limit)) out.push(`local: ${h.name} - ${firstLine(h.doc.doc)}`);
    return vecFrom(out.slice(0, limit));
  },
);

discoveryForm(
  "dir",
  ["(dir ns)", "(dir ns opts)"],
  "Lists the members of a namespace or upstream server.",
  1,
  2,
  (args, R) => {
    const ref = refText(args[0], "dir");
    const opts = optsJson(args[1], "dir");
    const members = namespaceMembers(ref);
    if (members !== undefined) {
      const limit = typeof opts.limit === "number" ? opts.limit : 50;
      const offset = typeof opts.offset === "number" ? opts.offset : 0;
      return vecFrom(
        members.slice(offset, offset + limit).map((m) => {
          const d = builtinDoc(`${ref}/${m}`) ?? builtinDoc(m);
          return `${m} - ${d ? firstLine(d.doc) : ""}`;
        }),
      );
    }
    const lns = R.libraries?.namespaces.get(ref);
    if (lns !== undefined) {
      const limit = typeof opts.limit === "number" ? opts.limit : 50;
      const offset = typeof opts.offset === "number" ? opts.offset : 0;
      return vecFrom(
        [...lns.publics.values()].slice(offset, offset + limit).map((f) =>
          `${f.name} ${f.signature ?? f.arglists.join(" ")} - ${firstLine(f.doc)}`
        ),
      );
    }
    return discoveryCall(R, "dir", { ref, ...opts });
  },
);

discoveryForm(
  "meta",
  ["(meta name)"],
  "Structured description of a builtin, special form or upstream tool.",
  1,
  1,
  (args, R) => {
    const ref = refText(args[0], "meta");
    const d = localDoc(ref);
    if (d !== undefined) {
      const i = ref.lastIndexOf("/");
      return mapFromKvs([
        kw("kind"),
        kw(SPECIALS.has(ref) ? "special-form" : "builtin"),
        kw("source"),
        kw("local"),
        kw("namespace"),
        i > 0 ? ref.slice(0, i) : "clojure.core",
        kw("name"),
        d.name,
        kw("ref"),
        ref,
        kw("description"),
        d.doc,
        kw("signatures"),
        vecFrom(d.arglists.slice()),
        kw("section"),
        d.section,
      ]);
    }
    const lf = libraryFn(R, ref);
    if (lf !== undefined) {
      const ns = ref.slice(0, ref.indexOf("/"));
      return mapFromKvs([
        kw("kind"),
        kw("library-function"),
        kw("source"),
        kw("library"),
        kw("namespace"),
        ns,
        kw("name"),
        lf.name,
        kw("ref"),
        ref,
        kw("description"),
        lf.doc,
        kw("signatures"),
        vecFrom(lf.arglists.slice()),
        kw("signature"),
        lf.signature ?? null,
        kw("file"),
        R.libraries!.namespaces.get(ns)!.info.file,
        kw("line"),
        lf.line,
      ]);
    }
    return discoveryCall(R, "meta", { ref });
  },
);

discoveryForm(
  "ns-publics",
  ["(ns-publics ns)"],
  "Map of a namespace's public names to their documentation.",
  1,
  1,
  (args, R) => {
    const ref = refText(args[0], "ns-publics");
    const lns = R.libraries?.namespaces.get(ref);
    if (lns !== undefined) {
      const b = new MapBuilder();
      for (const f of lns.publics.values()) {
        b.set(
          f.name,
          mapFromKvs([
            kw("name"),
            f.name,
            kw("doc"),
            f.doc,
            kw("arglists"),
            vecFrom(f.arglists.slice()),
            kw("signature"),
            f.signature ?? null,
          ]),
        );
      }
      return b.build();
    }
    const members = namespaceMembers(ref === "clojure.core" ? "core" : ref);
    if (members === undefined) {
      throw new LispError(
        "runtime_error",
        `ns-publics: unknown namespace ${ref}. Known: ${knownNamespaces().join(", ")}`,
      );
    }
    const b = new MapBuilder();
    for (const m of members) {
      const d = builtinDoc(ref === "clojure.core" ? m : `${ref}/${m}`) ?? builtinDoc(m);
      if (d === undefined) continue;
      b.set(
        m,
        mapFromKvs([
          kw("name"),
          m,
          kw("doc"),
          d.doc,
          kw("arglists"),
          vecFrom(d.arglists.slice()),
          kw("section"),
          d.section,
        ]),
      );
    }
    return b.build();
  },
);

discoveryForm(
  "all-ns",
  ["(all-ns)"],
  "Names of the namespaces (the language's and the loaded libraries').",
  0,
  0,
  (_args, R) => vecFrom([...ALL_NS, ...(R.libraries?.namespaces.keys() ?? [])]),
);

discoveryForm("ns-name", ["(ns-name ns)"], "The name of a namespace.", 1, 1, (args) => {
  const ref = refText(args[0], "ns-name");
  const n = NS_ALIASES[ref];
  if (n === undefined) throw new LispError("runtime_error", `ns-name: unknown namespace ${ref}`);
  return n;
});
