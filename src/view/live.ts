/**
 * The live viewer's memory of a running server (`ptc mcp --view`): the most recent evaluations, bounded in count
 * and in the bytes of text kept, told to the pages' event stream as they end. It is an `EvalObserver` of the MCP
 * server, beside the audit trail: it hears each request with its owner and program and its response with the
 * engine result (already redacted at the engine's edge; the program is redacted here).
 * @module
 */
import type { EngineEvalResult } from "../engine/types.ts";
import type { EvalObserver } from "../mcp/server.ts";
import type { EvalSubject } from "../mcp/audit_lines.ts";
import { type AuditedEval, responseReason } from "../mcp/audit_trail.ts";
import type { ToolResponse } from "../mcp/envelope.ts";
import { runFromLive, type ViewRun } from "./model.ts";
import type { RunSourceReader } from "./sources.ts";

/** Default of `LiveFeedOptions.maxRuns`. */
export const DEFAULT_LIVE_RUNS = 500;
/** Longest text (program, answer, each print) a live run keeps; the rest is cut with a note. */
export const MAX_LIVE_TEXT = 64 * 1024;
/** Most prints a live run keeps (the first ones, then a note of how many more there were). */
export const MAX_LIVE_PRINTS = 100;

/** What the feed needs from the server. */
export interface LiveFeedOptions {
  face: "stdio" | "http";
  /** Redacts client-written text (the engine's redactor). */
  redact: (text: string) => string;
  /** The budgets in force (the engine's run limits). */
  limits?: Record<string, unknown>;
  /** Server name → snapshot identity of the served catalog. */
  snapshots: Record<string, string>;
  /** `server/tool` → its effect, from the served catalog (a call record names the effect of writes only). */
  effects?: Record<string, "read" | "write">;
  /** Most runs kept (the oldest are dropped). */
  maxRuns?: number;
}

function cut(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= MAX_LIVE_TEXT) return text;
  return `${text.slice(0, MAX_LIVE_TEXT)}… (${text.length - MAX_LIVE_TEXT} more characters not kept)`;
}

/** The first prints, each cut, and a note of those left out. */
function keptPrints(prints: string[]): string[] {
  const kept = prints.slice(0, MAX_LIVE_PRINTS).map((p) => cut(p)!);
  if (prints.length > MAX_LIVE_PRINTS) kept.push(`… ${prints.length - MAX_LIVE_PRINTS} more prints not kept`);
  return kept;
}

/** The recent evaluations of a running server. */
export class LiveFeed implements EvalObserver, RunSourceReader {
  readonly label = "this server's recent evaluations";
  readonly problems: string[] = [];
  readonly #runs: ViewRun[] = [];
  readonly #listeners = new Set<(run: ViewRun) => void>();
  readonly #max: number;
  #seq = 0;

  constructor(private readonly options: LiveFeedOptions) {
    this.#max = options.maxRuns ?? DEFAULT_LIVE_RUNS;
  }

  begin(subject: Omit<EvalSubject, "face">, program: unknown): AuditedEval {
    const started = performance.now();
    const time = new Date().toISOString();
    const seq = ++this.#seq;
    return {
      end: (response: ToolResponse, result?: EngineEvalResult) => {
        this.add(runFromLive({
          seq,
          time,
          face: this.options.face,
          owner: subject.owner,
          tool: subject.tool,
          program: typeof program === "string" ? cut(this.options.redact(program)) : undefined,
          result: result && {
            ...result,
            prints: keptPrints(result.prints),
            ...(result.ok ? { printed: cut(result.printed)! } : {}),
          } as EngineEvalResult,
          responseReason: result === undefined || response.isError ? responseReason(response) : undefined,
          answerBytes: new TextEncoder().encode(JSON.stringify(response)).length,
          elapsedMs: result?.elapsedMs ?? performance.now() - started,
          limits: this.options.limits,
          snapshots: this.options.snapshots,
        }));
        return Promise.resolve();
      },
    };
  }

  /** Keep `run` (dropping the oldest past the bound) and tell the listeners. */
  add(run: ViewRun): void {
    for (const c of run.calls) c.effect ??= this.options.effects?.[`${c.server}/${c.tool}`];
    this.#runs.push(run);
    if (this.#runs.length > this.#max) this.#runs.splice(0, this.#runs.length - this.#max);
    for (const l of this.#listeners) l(run);
  }

  /** Hear each new run until the returned function is called. */
  listen(listener: (run: ViewRun) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  refresh(): Promise<void> {
    return Promise.resolve();
  }

  runs(): ViewRun[] {
    return this.#runs;
  }
}
