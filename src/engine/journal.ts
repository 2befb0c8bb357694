/**
 * What an engine does with the upstream calls of its evaluations besides making them: a `RunJournal` records them
 * to a directory (`recorder.ts`) or answers them from one (`replayer.ts`). The engine asks it for one
 * `EvaluationJournal` per evaluation, whose interceptor sees (or answers) every call that reached an upstream.
 * @module
 */
import type { PtcConfig } from "../upstream/config.ts";
import type { CallInterceptor } from "../upstream/run_context.ts";
import type { Runtime, RuntimeOptions } from "../upstream/runtime.ts";
import type { EngineEvalResult } from "./types.ts";

/** One evaluation's part of a journal. */
export interface EvaluationJournal {
  /** Handed to the evaluation's run context (`RunOptions.intercept`). */
  intercept: CallInterceptor;
  /** The evaluation ended with `result` (unredacted; the journal redacts what it keeps). */
  finish(result: EngineEvalResult): Promise<void>;
}

/** A recording or a replay, for the whole life of an engine. */
export interface RunJournal {
  /**
   * Replay: the runtime comes from the journal (`startRuntime`), never from the config's upstreams, which are not
   * started (their credentials, hosts, files and commands are not needed).
   */
  readonly replacesUpstreams: boolean;
  /** With `replacesUpstreams`: the runtime whose upstreams answer from the journal. */
  startRuntime?(config: PtcConfig | undefined, options: RuntimeOptions): Promise<Runtime>;
  /** The engine started with `runtime` (none without upstreams): a recorder writes its catalog. */
  started(runtime: Runtime | undefined): Promise<void>;
  /** One evaluation of `program` begins, asked for by `owner` (a face's owner key, when it has one). */
  begin(program: string, owner?: string): Promise<EvaluationJournal>;
}
