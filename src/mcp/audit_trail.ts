/**
 * The audit trail of the MCP face: what the tool handlers and the HTTP face call. `admit()` before an evaluation
 * (fail closed while the log is unwritable), `begin()` when a `lisp_eval` / `lisp_session_eval` request arrives and
 * `end()` with its response — awaited before the response goes out, inside the evaluation's concurrency permit, so a
 * slow disk slows evaluations instead of queueing lines without bound — and `denied()` for a request the HTTP face
 * refused (at most `DENIED_PER_SECOND` lines a second; the rest are counted in the next one).
 * @module
 */
import type { CatalogServer, EngineEvalResult } from "../engine/types.ts";
import type { AuditLog } from "./audit_log.ts";
import { type Denial, deniedLine, type EvalSubject, evaluationLines, ToolIndex } from "./audit_lines.ts";
import type { ToolResponse } from "./envelope.ts";
import { utf8Bytes } from "./metrics.ts";

/** Most `denied` lines written per second; more are counted in the next line's `suppressed`. */
export const DENIED_PER_SECOND = 20;

/** One evaluation being audited. */
export interface AuditedEval {
  /**
   * Write the evaluation's lines (its calls, then itself) and resolve when they are written (or, the log having
   * failed, sent to stderr). `result` is absent when the request was refused before it ran.
   */
  end(response: ToolResponse, result?: EngineEvalResult): Promise<void>;
}

/** The reason of an error response (`reason: message` text, or the structured `reason`). */
export function responseReason(response: ToolResponse): string | undefined {
  if (!response.isError) return undefined;
  const structured = response.structuredContent?.reason;
  if (typeof structured === "string") return structured;
  return /^([a-z][a-z0-9_]*):/.exec(response.content[0]?.text ?? "")?.[1];
}

/** The audit trail over one `AuditLog`. */
export class AuditTrail {
  readonly #index: ToolIndex;
  #window = 0;
  #inWindow = 0;
  #suppressed = 0;

  constructor(
    private readonly log: AuditLog,
    private readonly face: "stdio" | "http",
    catalog: CatalogServer[],
    private readonly now: () => number = Date.now,
    snapshots: Record<string, string> = {},
  ) {
    this.#index = new ToolIndex(catalog, snapshots);
  }

  /** Whether an evaluation may run now (false while the log is unwritable). */
  admit(): Promise<boolean> {
    return this.log.admit();
  }

  /** Start auditing a request of `subject` carrying `program`. */
  begin(subject: Omit<EvalSubject, "face">, program: unknown): AuditedEval {
    const started = performance.now();
    const evalId = crypto.randomUUID();
    return {
      end: async (response, result) => {
        const facts = {
          evalId,
          time: this.log.time(),
          subject: { ...subject, face: this.face },
          program,
          elapsedMs: result?.elapsedMs ?? performance.now() - started,
          result,
          responseReason: result === undefined || response.isError ? responseReason(response) : undefined,
          answerBytes: utf8Bytes(JSON.stringify(response)),
        };
        await this.log.append(await evaluationLines(facts, this.#index));
      },
    };
  }

  /** Log a refused HTTP request (rate-capped; never waits for the disk). */
  denied(d: Denial): void {
    const second = Math.floor(this.now() / 1000);
    if (second !== this.#window) {
      this.#window = second;
      this.#inWindow = 0;
    }
    if (++this.#inWindow > DENIED_PER_SECOND) {
      this.#suppressed++;
      return;
    }
    const line = deniedLine(d, this.log.time(), this.#suppressed);
    this.#suppressed = 0;
    void this.log.append([line], { droppable: true });
  }
}
