/**
 * Compiling a whole program: size preflight → read → symbol limit → analyze every top-level form (in order, so
 * defs are visible to later forms) → undefined-symbol check → unknown-tool check. Nothing runs before all checks
 * pass. Loads every special-form module.
 * @module
 */
import { clojureAlternative, describeGaps } from "./clojure_gaps.ts";
import type { Form } from "./forms.ts";
import { lineCol } from "./forms.ts";
import type { Ana, Frame, Node, ProgramCtx } from "./nodes.ts";
import { analyze } from "./analyze.ts";
import { knownNames } from "./symbols.ts";
import { FnScope, LexScope } from "./scope.ts";
import { ReadError, readForms } from "./reader.ts";
import { LispError } from "./errors.ts";
import type { Value } from "./vals.ts";
import { didYouMean } from "../core/suggest.ts";
import { builtinNames } from "./builtins/registry.ts";
import { upstreamToolNamed } from "./discovery.ts";
import "./special_core.ts";
import "./special_fn.ts";
import "./special_arity.ts";
import "./special_quote.ts";
import "./special_ns.ts";
import "./special_def.ts";
import "./special_cond.ts";
import "./special_thread.ts";
import "./special_for.ts";
import "./special_host.ts";
import "./special_misc.ts";
import "./discovery.ts";
import "./library_refs.ts";

const MAX_SYMBOLS = 10_000;

/** A compiled program: run it with `run()` (a fresh top-level frame each time). */
export interface CompiledProgram {
  run(): Value;
}

function countSymbols(forms: Form[]): number {
  const seen = new Set<string>();
  const walk = (f: Form) => {
    if (f.type === "symbol") seen.add(f.ns === null ? f.name : `${f.ns}/${f.name}`);
    else if (f.type === "keyword") seen.add(":" + f.name);
    else if ("items" in f) { for (const x of f.items) walk(x); }
  };
  forms.forEach(walk);
  return seen.size;
}

/** Read source, converting reader errors into LispErrors. */
export function readProgram(source: string, maxBytes: number, maxDepth: number): Form[] {
  const bytes = source.length <= maxBytes / 3 ? source.length : new TextEncoder().encode(source).length;
  if (bytes > maxBytes) {
    throw new LispError("program_too_large", `Program is ${bytes} bytes; the limit is ${maxBytes} bytes`);
  }
  try {
    return readForms(source, { maxDepth });
  } catch (e) {
    if (e instanceof ReadError) {
      throw new LispError(e.reason, e.message, { line: e.line, column: e.column });
    }
    throw e;
  }
}

/** How many unknown names an error message names (with suggestions); the rest are counted. */
const MAX_HINTED_NAMES = 10;

function firstUse(p: ProgramCtx, entries: Map<string, number>): { line: number; column: number } {
  const at = Math.min(...entries.values());
  return lineCol(p.source, at);
}

/** Compile `source` against the program context (session namespace, tools, globals). */
export function compileProgram(
  source: string,
  p: ProgramCtx,
  maxBytes: number,
  maxDepth: number,
  pre?: { forms: Form[] },
): CompiledProgram {
  const forms = pre?.forms ?? readProgram(source, maxBytes, maxDepth);
  const nsyms = countSymbols(forms);
  if (nsyms > MAX_SYMBOLS) {
    throw new LispError(
      "symbol_limit_exceeded",
      `Program uses ${nsyms} distinct symbols and keywords; the limit is ${MAX_SYMBOLS}`,
    );
  }
  const fn = new FnScope(null);
  const scope = new LexScope(fn, null);
  const a: Ana = { p, scope, tail: false, recur: null, fnlit: null, cond: false };
  const nodes: Node[] = forms.map((f) => {
    p.run.slowCheck();
    return analyze(f, a);
  });
  if (p.undefinedSyms.size > 0) {
    const all = [...p.undefinedSyms.keys()];
    // A Clojure form PTC-Lisp omits (dotimes, try, atom …) makes its bindings look undefined too: name only it.
    const gaps = all.filter((n) => clojureAlternative(n) !== undefined);
    if (gaps.length > 0) {
      const pos = firstUse(p, new Map(gaps.map((n) => [n, p.undefinedSyms.get(n)!])));
      throw new LispError(
        "unbound_var",
        `Undefined variable${gaps.length > 1 ? "s" : ""}: ${
          describeGaps(gaps)
        } (line ${pos.line}, column ${pos.column})`,
        pos,
      );
    }
    // Hints for the first few names only: a program of thousands of unknown names gets a short message, and the
    // suggestion work stays bounded whatever the program holds.
    const names = all.slice(0, MAX_HINTED_NAMES);
    const more = all.length - names.length;
    const known = [...knownNames(null, p), ...builtinNames()];
    const hints = names.map((n) => {
      // Suggestions cost time per unknown name: analysis honours the evaluation's deadline and interrupt too.
      p.run.slowCheck();
      if (p.defined.has(n)) return `${n} (defined later in the program; define it before its first use)`;
      const tool = upstreamToolNamed(p.run, n);
      if (tool !== undefined) return `${n} (a tool: call it as (tool/call '${tool} {…}))`;
      return `${n}${didYouMean(n, [...(p.undefinedLocals?.get(n) ?? []), ...known])}`;
    });
    const pos = firstUse(p, p.undefinedSyms);
    throw new LispError(
      "unbound_var",
      `Undefined variable${all.length > 1 ? "s" : ""}: ${hints.join(", ")}${
        more > 0 ? ` and ${more} more` : ""
      } (line ${pos.line}, column ${pos.column})`,
      pos,
    );
  }
  if (p.unknownTools.size > 0) {
    const all = [...p.unknownTools.keys()];
    const names = all.slice(0, MAX_HINTED_NAMES);
    const more = all.length - names.length;
    const avail = p.toolNames === null ? [] : [...p.toolNames].sort();
    const hints = names.map((n) => {
      p.run.slowCheck();
      const tool = upstreamToolNamed(p.run, n);
      if (tool !== undefined) return `${n} (upstream tools are called as (tool/call '${tool} {…}))`;
      return `${n}${didYouMean(n, avail)}`;
    });
    const pos = firstUse(p, p.unknownTools);
    throw new LispError(
      "unknown_tool",
      `Unknown tool${all.length > 1 ? "s" : ""}: ${hints.join(", ")}${more > 0 ? ` and ${more} more` : ""}. ` +
        (avail.length > 0 ? `Available tools: ${avail.join(", ")}` : "No tools are available in this evaluation"),
      pos,
    );
  }
  const n = nodes.length;
  return {
    run(): Value {
      const f: Frame = new Array(fn.nslots);
      f[0] = [];
      p.run.source = p.source;
      let v: Value = null;
      for (let i = 0; i < n; i++) v = nodes[i](f);
      return v;
    },
  };
}
