/**
 * Operator libraries: `.clj` files of one `(ns name "doc" {:visibility :prompt|:hidden})` form followed by `defn`,
 * `defn-` and `def` forms. `loadLibraries` reads, checks, orders (a library may call another, never in a cycle) and
 * runs them once, in one evaluation context that every session of the process then shares — so a library function
 * charges the budgets of whichever program calls it. Every load error names the file, line and column.
 * @module
 */
import { HOST_TOOL_NAMES } from "../core/tool_seam.ts";
import { type Form, formText, lineCol, type SymbolForm } from "./forms.ts";
import { type Cell, type ProgramCtx, UNBOUND } from "./nodes.ts";
import { compileProgram, readProgram } from "./compile.ts";
import { DEFAULT_EVAL_LIMITS, EvalContext } from "./runtime.ts";
import { LispError } from "./errors.ts";
import { isProtectedNamespace } from "./library_refs.ts";
import { LispFn, type Value } from "./vals.ts";
import { didYouMean } from "../core/suggest.ts";
import { checkArgs, checkReturn, parseSignature, type Signature, SignatureSyntaxError } from "./library_sig.ts";
import type {
  LibraryFunction,
  LibraryIndex,
  LibraryNamespace,
  LibrarySource,
  NamespaceRuntime,
} from "./library_types.ts";

/** Options of `loadLibraries`. */
export interface LoadOptions {
  /**
   * Upstream tools (`server/tool`) that exist: a `(tool/call 'server/tool …)` naming another is a load error.
   * Absent: names are not checked (a sandbox process trusts what the host already checked).
   */
  upstreamTools?: ReadonlySet<string>;
  /** Servers whose tools are unknown now (unavailable in live mode): their names are not checked. */
  uncheckedServers?: ReadonlySet<string>;
}

/** The loaded libraries of a process: one shared evaluation context and the namespaces. */
export class Libraries implements LibraryIndex {
  /** The evaluation context library code was compiled against; sessions of this process evaluate in it. */
  readonly run = new EvalContext();
  readonly namespaces = new Map<string, NamespaceRuntime>();

  /** The namespaces, in load order, as discovery and prompts describe them. */
  describe(): LibraryNamespace[] {
    return [...this.namespaces.values()].map((n) => n.info);
  }
}

/** A load-time error: `file:line:column: message` (the reason stays the language's). */
function loadError(file: string, e: unknown): LispError {
  if (!(e instanceof LispError)) throw e;
  const where = e.line !== undefined ? `${file}:${e.line}:${e.column}` : file;
  const message = e.message.replace(/ \(line \d+, column \d+\)$/, "");
  return new LispError(e.reason, `library ${where}: ${message}`, { line: e.line, column: e.column });
}

function at(source: string, f: Form, reason: LispError["reason"], message: string): LispError {
  return new LispError(reason, message, lineCol(source, f.at));
}

interface Parsed {
  file: string;
  source: string;
  name: string;
  doc: string;
  visibility: "prompt" | "hidden";
  replaces: string[];
  body: Form[];
  defs: { name: string; form: Form; private: boolean; doc?: string; signature?: Signature }[];
  uses: Set<string>;
}

function keywordValue(m: Form & { type: "map" }, key: string): Form | undefined {
  for (let i = 0; i + 1 < m.items.length; i += 2) {
    const k = m.items[i];
    if (k.type === "keyword" && k.name === key) return m.items[i + 1];
  }
  return undefined;
}

function parseNs(src: LibrarySource, forms: Form[]): Pick<Parsed, "name" | "doc" | "visibility" | "replaces"> {
  const ns = forms[0];
  const example = '(ns oncall "What the namespace is for." {:visibility :prompt})';
  if (ns === undefined || ns.type !== "list" || ns.items[0]?.type !== "symbol" || ns.items[0].name !== "ns") {
    throw at(src.source, ns ?? { type: "nil", at: 0 } as Form, "invalid_form", `a library starts with ${example}`);
  }
  const [, nameForm, docForm, optsForm, ...rest] = ns.items;
  if (nameForm?.type !== "symbol" || nameForm.ns !== null) {
    throw at(src.source, nameForm ?? ns, "invalid_form", `ns needs a plain name symbol: ${example}`);
  }
  if (isProtectedNamespace(nameForm.name)) {
    throw at(src.source, nameForm, "invalid_form", `namespace ${nameForm.name} belongs to the language; pick another`);
  }
  if (docForm?.type !== "string" || docForm.value.trim() === "") {
    throw at(src.source, docForm ?? ns, "invalid_form", `ns ${nameForm.name} needs a docstring: ${example}`);
  }
  let visibility: "prompt" | "hidden" = "prompt";
  const replaces: string[] = [];
  if (optsForm !== undefined) {
    if (optsForm.type !== "map" || rest.length > 0) {
      throw at(src.source, optsForm, "invalid_form", `ns takes a name, a docstring and one option map: ${example}`);
    }
    for (let i = 0; i < optsForm.items.length; i += 2) {
      const k = optsForm.items[i];
      if (k.type !== "keyword" || !["visibility", "replaces"].includes(k.name)) {
        throw at(src.source, k, "invalid_form", `unknown ns option ${formText(k)}; known: :visibility, :replaces`);
      }
    }
    const vis = keywordValue(optsForm, "visibility");
    if (vis !== undefined) {
      if (vis.type !== "keyword" || (vis.name !== "prompt" && vis.name !== "hidden")) {
        throw at(src.source, vis, "invalid_form", `:visibility is :prompt or :hidden, got ${formText(vis)}`);
      }
      visibility = vis.name;
    }
    const rep = keywordValue(optsForm, "replaces");
    if (rep !== undefined) {
      const ok = rep.type === "vector" && rep.items.every((x) => x.type === "string" || x.type === "symbol");
      if (!ok) throw at(src.source, rep, "invalid_form", ':replaces is a vector of tool names: ["server/tool" …]');
      for (const x of (rep as Form & { type: "vector" }).items) {
        replaces.push(x.type === "string" ? x.value : formText(x));
      }
    }
  }
  return { name: nameForm.name, doc: docForm.value, visibility, replaces };
}

/** Read one file: ns header, then defn/defn-/def forms (defn- rewritten to defn and remembered as private). */
function parseLibrary(src: LibrarySource, names: ReadonlySet<string>): Parsed {
  const forms = readProgram(src.source, DEFAULT_EVAL_LIMITS.maxProgramBytes, DEFAULT_EVAL_LIMITS.maxDepth);
  const head = parseNs(src, forms);
  const parsed: Parsed = { ...src, ...head, body: [], defs: [], uses: new Set() };
  const seen = new Set<string>();
  for (const f of forms.slice(1)) {
    const op = f.type === "list" && f.items[0]?.type === "symbol" && f.items[0].ns === null ? f.items[0].name : "";
    if (op === "ns") throw at(src.source, f, "invalid_form", "a library file holds exactly one ns form");
    if (op !== "defn" && op !== "defn-" && op !== "def") {
      throw at(
        src.source,
        f,
        "invalid_form",
        `a library holds only defn, defn- and def forms after its ns, got ${formText(f)}`,
      );
    }
    const items = (f as Form & { type: "list" }).items;
    const nameForm = items[1];
    if (nameForm?.type !== "symbol" || nameForm.ns !== null) {
      throw at(src.source, nameForm ?? f, "invalid_form", `${op} needs a plain name symbol`);
    }
    if (seen.has(nameForm.name)) {
      throw at(src.source, nameForm, "invalid_form", `${nameForm.name} is defined twice in namespace ${head.name}`);
    }
    seen.add(nameForm.name);
    const def: Parsed["defs"][number] = { name: nameForm.name, form: f, private: op !== "defn" };
    if (op !== "def") {
      const doc = items[2]?.type === "string" ? items[2].value : undefined;
      if (op === "defn" && (doc === undefined || doc.trim() === "")) {
        throw at(
          src.source,
          nameForm,
          "invalid_form",
          `public function ${head.name}/${nameForm.name} needs a docstring`,
        );
      }
      def.doc = doc;
      const attrs = items[doc === undefined ? 2 : 3];
      if (attrs?.type === "map") {
        const sig = keywordValue(attrs, "signature");
        if (sig !== undefined) {
          if (sig.type !== "string") throw at(src.source, sig, "invalid_form", ":signature is a string");
          try {
            def.signature = parseSignature(sig.value);
          } catch (e) {
            if (!(e instanceof SignatureSyntaxError)) throw e;
            throw at(src.source, sig, "parse_error", `bad :signature of ${head.name}/${nameForm.name}: ${e.message}`);
          }
        }
      }
    }
    parsed.defs.push(def);
    const rewritten: Form = op === "defn-"
      ? { ...f, items: [{ ...(items[0] as SymbolForm), name: "defn" }, ...items.slice(1)] } as Form
      : f;
    parsed.body.push(rewritten);
  }
  const walk = (x: Form) => {
    if (x.type === "symbol" && x.ns !== null && names.has(x.ns) && x.ns !== head.name) parsed.uses.add(x.ns);
    else if ("items" in x) { for (const y of x.items) walk(y); }
  };
  parsed.body.forEach(walk);
  return parsed;
}

/** Every `(tool/call 'server/tool …)` naming a tool that does not exist. */
function checkToolNames(p: Parsed, tools: ReadonlySet<string>, unchecked: ReadonlySet<string>): void {
  const walk = (x: Form) => {
    if (!("items" in x)) return;
    const [h, q] = x.items;
    if (
      x.type === "list" && h?.type === "symbol" && h.ns === "tool" && h.name === "call" && q?.type === "list" &&
      q.items[0]?.type === "symbol" && q.items[0].name === "quote" && q.items[1]?.type === "symbol"
    ) {
      const ref = formText(q.items[1]);
      if (!tools.has(ref) && !unchecked.has(ref.split("/")[0])) {
        throw at(p.source, q, "unknown_tool", `unknown upstream tool ${ref}${didYouMean(ref, tools)}`);
      }
    }
    for (const y of x.items) walk(y);
  };
  p.body.forEach(walk);
}

/** Dependency order; a cycle is a load error naming its files. */
function order(parsed: Parsed[]): Parsed[] {
  const byName = new Map(parsed.map((p) => [p.name, p]));
  const out: Parsed[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (p: Parsed, path: Parsed[]) => {
    const s = state.get(p.name);
    if (s === "done") return;
    if (s === "visiting") {
      const cycle = [...path.slice(path.indexOf(p)), p].map((x) => `${x.name} (${x.file})`).join(" → ");
      throw new LispError("invalid_form", `libraries call each other in a cycle: ${cycle}`);
    }
    state.set(p.name, "visiting");
    for (const u of p.uses) visit(byName.get(u)!, [...path, p]);
    state.set(p.name, "done");
    out.push(p);
  };
  for (const p of parsed) visit(p, []);
  return out;
}

/** A library export with a declared signature: arguments checked on entry, the value on exit. */
class SignedFn extends LispFn {
  constructor(readonly name: string, readonly inner: LispFn, readonly sig: Signature) {
    super();
  }
  call(args: Value[]): Value {
    checkArgs(this.name, this.sig, args);
    const v = this.inner.call(args);
    checkReturn(this.name, this.sig, v);
    return v;
  }
  printed(): string {
    return this.inner.printed();
  }
}

/** The parameter vectors of a defn form: one, or one per arity clause `([params] body…)`. */
function paramVectors(form: Form): (Form & { type: "vector" })[] {
  const items = (form as Form & { type: "list" }).items.slice(2);
  const single = items.find((x) => x.type === "vector");
  if (single) return [single as Form & { type: "vector" }];
  return items.flatMap((x) =>
    x.type === "list" && x.items[0]?.type === "vector" ? [x.items[0] as Form & { type: "vector" }] : []
  );
}

/** Smallest and largest argument count over the parameter vectors (Infinity with `& rest`). */
function arityOf(vectors: (Form & { type: "vector" })[]): [number, number] {
  if (vectors.length === 0) return [0, Infinity];
  let min = Infinity;
  let max = 0;
  for (const v of vectors) {
    const amp = v.items.findIndex((x) => x.type === "symbol" && x.ns === null && x.name === "&");
    const n = amp >= 0 ? amp : v.items.length;
    min = Math.min(min, n);
    max = Math.max(max, amp >= 0 ? Infinity : n);
  }
  return [min, max];
}

/** Run one parsed library in the shared context; its namespace becomes visible to the libraries after it. */
function install(libs: Libraries, p: Parsed): void {
  const cells = new Map<string, Cell>();
  const run = libs.run;
  run.reset(undefined);
  run.libraries = libs;
  const ctx: ProgramCtx = {
    source: p.source,
    file: p.file,
    run,
    cells,
    defined: new Set(),
    globals: new Map(),
    toolNames: new Set(HOST_TOOL_NAMES),
    undefinedSyms: new Map(),
    unknownTools: new Map(),
    context: undefined,
    history: () => [],
    libraries: libs,
  };
  // The body is already read: hand the analyzer the original text (positions stay the file's).
  const program = compileProgram(p.source, ctx, DEFAULT_EVAL_LIMITS.maxProgramBytes, DEFAULT_EVAL_LIMITS.maxDepth, {
    forms: p.body,
  });
  program.run();
  run.release();
  const functions: LibraryFunction[] = [];
  const rt: NamespaceRuntime = {
    info: { name: p.name, doc: p.doc, visibility: p.visibility, replaces: p.replaces, file: p.file, functions },
    cells,
    publics: new Map(),
    privates: new Set(),
    signatures: new Map(),
  };
  for (const d of p.defs) {
    const cell = cells.get(d.name)!;
    if (d.private) {
      rt.privates.add(d.name);
      continue;
    }
    if (d.form.type === "list" && (d.form.items[0] as SymbolForm).name === "def") {
      rt.publics.set(d.name, {
        ref: `${p.name}/${d.name}`,
        name: d.name,
        doc: cell.doc ?? "",
        arglists: [],
        arity: [0, Infinity],
        line: lineCol(p.source, d.form.at).line,
      });
      continue;
    }
    const value = cell.value === UNBOUND ? null : cell.value as Value;
    const fn: LibraryFunction = {
      ref: `${p.name}/${d.name}`,
      name: d.name,
      doc: d.doc ?? "",
      arglists: paramVectors(d.form).map((v) => formText(v, 200)),
      arity: arityOf(paramVectors(d.form)),
      line: lineCol(p.source, d.form.at).line,
    };
    if (d.signature) {
      fn.signature = d.signature.text;
      rt.signatures.set(d.name, d.signature);
      const n = d.signature.params.length;
      if (n < fn.arity[0] || n > fn.arity[1]) {
        throw at(
          p.source,
          d.form,
          "invalid_form",
          `the :signature of ${fn.ref} names ${n} parameters, the function takes ${fn.arglists.join(" ")}`,
        );
      }
      if (value instanceof LispFn) cell.value = new SignedFn(fn.ref, value, d.signature);
    }
    functions.push(fn);
    rt.publics.set(d.name, fn);
  }
  libs.namespaces.set(p.name, rt);
}

/**
 * Load library sources into a new `Libraries`: parse, check (ns header, forms, signatures, undefined names, arity,
 * unknown tools when `upstreamTools` is given, cycles), order and run them. Throws a LispError whose message starts
 * with `library FILE:LINE:COLUMN:`.
 */
export function loadLibraries(sources: LibrarySource[], options: LoadOptions = {}): Libraries {
  const names = new Set<string>();
  const firstFile = new Map<string, string>();
  const headers: Parsed[] = [];
  // Names first, so a library's references to another one are recognised whatever the file order.
  for (const src of sources) {
    try {
      const forms = readProgram(src.source, DEFAULT_EVAL_LIMITS.maxProgramBytes, DEFAULT_EVAL_LIMITS.maxDepth);
      const { name } = parseNs(src, forms);
      if (firstFile.has(name)) {
        throw at(
          src.source,
          forms[0],
          "invalid_form",
          `namespace ${name} is already defined by ${firstFile.get(name)}`,
        );
      }
      firstFile.set(name, src.file);
      names.add(name);
    } catch (e) {
      throw loadError(src.file, e);
    }
  }
  for (const src of sources) {
    try {
      const p = parseLibrary(src, names);
      if (options.upstreamTools) checkToolNames(p, options.upstreamTools, options.uncheckedServers ?? new Set());
      headers.push(p);
    } catch (e) {
      throw loadError(src.file, e);
    }
  }
  const libs = new Libraries();
  for (const p of order(headers)) {
    try {
      install(libs, p);
    } catch (e) {
      throw loadError(p.file, e);
    }
  }
  return libs;
}
