/**
 * Sessions: a user namespace (defs, closures), `*1 *2 *3` history and the last error persist across evaluations.
 * A failed evaluation rolls its defs back (docs/language.md §3); `(return v)` / `(fail v)` keep them.
 * @module
 */
import type { JsonValue } from "../core/json.ts";
import type { EvalOptions, EvalResult, LispSession } from "./api.ts";
import { type Cell, type ProgramCtx, UNBOUND } from "./nodes.ts";
import { compileProgram } from "./compile.ts";
import { DEFAULT_EVAL_LIMITS, EvalContext, hostFault } from "./runtime.ts";
import { ReturnSignal, undoDefs } from "./pmap.ts";
import { fromJson, prStr, toJson, type Value } from "./vals.ts";
import { chargeExpansion } from "./values/expansion.ts";
import type { Libraries } from "./library.ts";

/** The last error of a session (what a REPL binds to `*e`). */
export interface LastError {
  reason: string;
  message: string;
}

const jsonCache = new WeakMap<object, Value>();

/** Convert JSON to a value once per JSON object identity (hosts re-evaluating with the same data pay once). */
function cachedFromJson(j: JsonValue | undefined): Value {
  if (j === null || j === undefined || typeof j !== "object") return fromJson(j);
  let v = jsonCache.get(j);
  if (v === undefined) {
    v = fromJson(j);
    jsonCache.set(j, v);
  }
  return v;
}

function globalsMap(g: Record<string, JsonValue> | undefined): Map<string, Value> {
  const m = new Map<string, Value>();
  if (g !== undefined) { for (const [k, v] of Object.entries(g)) m.set(k, cachedFromJson(v)); }
  return m;
}

const HISTORY = 3;

/** A stateful evaluation context. */
export class Session implements LispSession {
  private cells = new Map<string, Cell>();
  private history: Value[] = [];
  private last: LastError | null = null;
  /**
   * The context every evaluation of this session runs in (closures defined earlier keep referring to it). With
   * libraries it is theirs, so a library function charges the budgets of the program that calls it.
   */
  private readonly run: EvalContext;

  constructor(private readonly libraries?: Libraries) {
    this.run = libraries?.run ?? new EvalContext();
  }

  /** Evaluate a program in this session. */
  eval(source: string, options: EvalOptions = {}): EvalResult {
    const run = this.run;
    run.reset(options.limits);
    run.tools = options.tools;
    run.discovery = options.discovery;
    run.onPrint = options.onPrint;
    const history = this.history;
    try {
      run.context = options.context === undefined ? null : cachedFromJson(options.context);
      const defined = new Set<string>();
      for (const [n, c] of this.cells) if (c.value !== UNBOUND) defined.add(n);
      const p: ProgramCtx = {
        source,
        run,
        cells: this.cells,
        defined,
        globals: globalsMap(options.globals),
        toolNames: options.tools ? new Set(options.tools.names()) : null,
        undefinedSyms: new Map(),
        unknownTools: new Map(),
        context: options.context,
        history: () => history,
        libraries: this.libraries,
      };
      const limits = { ...DEFAULT_EVAL_LIMITS, ...(options.limits ?? {}) };
      const program = compileProgram(source, p, limits.maxProgramBytes, limits.maxDepth);
      let value: Value;
      let status: "ok" | "returned" | "failed" = "ok";
      try {
        value = program.run();
      } catch (e) {
        if (!(e instanceof ReturnSignal)) throw e;
        value = e.value;
        status = e.status;
      }
      // The printed form and the JSON are built below: a value sharing structure may expand far past what it cost.
      chargeExpansion(value, run, 2);
      this.history.push(value);
      if (this.history.length > HISTORY) this.history.shift();
      return {
        ok: true,
        status,
        value,
        printed: prStr(value),
        json: toJson(value),
        prints: run.prints,
        steps: run.steps,
      };
    } catch (e) {
      const err = hostFault(e, run);
      undoDefs(run, 0);
      this.last = { reason: err.reason, message: err.message };
      const out: EvalResult = { ok: false, reason: err.reason, message: err.message, prints: run.prints };
      if (err.line !== undefined) out.line = err.line;
      if (err.column !== undefined) out.column = err.column;
      return out;
    } finally {
      run.release();
    }
  }

  /** Drop every def and the history. */
  reset(): void {
    this.cells = new Map();
    this.history = [];
    this.last = null;
  }

  /** Names defined in the user namespace, sorted. */
  definedNames(): string[] {
    return [...this.cells].filter(([, c]) => c.value !== UNBOUND).map(([n]) => n).sort();
  }

  /** The last error (for the REPL's `*e`), or null. */
  lastError(): LastError | null {
    return this.last;
  }

  /** The value of a defined name, if any (internal value). */
  lookup(name: string): Value | undefined {
    const c = this.cells.get(name);
    return c === undefined || c.value === UNBOUND ? undefined : c.value as Value;
  }
}
