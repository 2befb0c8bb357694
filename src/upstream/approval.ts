/**
 * Write approval: a person confirms each write before it is sent. Transport-neutral: a face hands the run an
 * {@link Approver} (the MCP face asks the client through elicitation, the REPL asks on the terminal, `ptc eval --yes`
 * accepts for an operator who said so up front); the `tool/call` pipeline's approve step asks it once per write call,
 * after the budgets were charged and before anything is dispatched. One approval covers one call: it is never cached or
 * reused, and the calls of one `pmap` are asked one at a time, in the order they reached the host.
 * @module
 */
import type { JsonValue } from "../core/json.ts";
import type { ToolEffect } from "./types.ts";

/** How a person answered (or could not answer) one approval request. */
export type ApprovalOutcome = "accepted" | "declined" | "cancelled" | "unavailable";

/** What the approver is shown: the call, its arguments (redacted, bounded) and the program's own explanation. */
export interface ApprovalRequest {
  server: string;
  tool: string;
  effect: ToolEffect;
  /** The arguments as the run records them (redacted), bounded to {@link MAX_APPROVAL_ARGS_CHARS} as JSON text. */
  argsText: string;
  /** The program's `:reason` (redacted, bounded), when it gave one. */
  reason?: string;
}

/** The approver's answer; `detail` says why an approval was unavailable (no capability, no answer in time). */
export interface ApprovalAnswer {
  outcome: ApprovalOutcome;
  detail?: string;
}

/**
 * Asks a person about one write. Must settle within {@link APPROVAL_WAIT_CAP_MS} (the pipeline stops waiting then and
 * answers `unavailable`) and should stop asking when `signal` aborts (the run ended).
 */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** The longest the pipeline waits for one approval before it answers `approval_unavailable` (5 minutes). */
export const APPROVAL_WAIT_CAP_MS = 300_000;

/** The default wait for one approval (`--approval-timeout-ms`), under {@link APPROVAL_WAIT_CAP_MS}. */
export const DEFAULT_APPROVAL_WAIT_MS = 120_000;

/** The arguments shown to the approver, as JSON text, at most this many characters. */
export const MAX_APPROVAL_ARGS_CHARS = 2_000;

/** The program's `:reason`, at most this many characters. */
export const MAX_APPROVAL_REASON_CHARS = 500;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (clipped)` : text;
}

/** The request shown for a call whose arguments (already redacted) and reason (already redacted) are given. */
export function approvalRequest(
  call: { server: string; tool: string; effect: ToolEffect },
  args: JsonValue,
  reason: string | undefined,
): ApprovalRequest {
  return {
    server: call.server,
    tool: call.tool,
    effect: call.effect,
    argsText: clip(JSON.stringify(args), MAX_APPROVAL_ARGS_CHARS),
    ...(reason !== undefined ? { reason: clip(reason, MAX_APPROVAL_REASON_CHARS) } : {}),
  };
}

/** The summary every face shows (elicitation message, terminal prompt): one fact a line. */
export function approvalSummary(request: ApprovalRequest): string {
  return [
    `The agent's program wants to call ${request.server}/${request.tool} (effect: ${request.effect}).`,
    `Arguments: ${request.argsText}`,
    `Reason given by the program: ${request.reason ?? "(none)"}`,
    "Nothing has been sent yet. Approve this one write?",
  ].join("\n");
}

/** An approver for a face with no human that was told to proceed (`ptc eval --yes`). */
export const approveAll: Approver = () => Promise.resolve({ outcome: "accepted" });

/**
 * Ask `approver`, bounded by `waitMs` (capped at {@link APPROVAL_WAIT_CAP_MS}) and the run's `signal`: no answer in
 * time, an approver that throws, or a run that ended all count as `unavailable` — never as an approval.
 */
export async function askBounded(
  approver: Approver,
  request: ApprovalRequest,
  signal: AbortSignal,
  waitMs: number = DEFAULT_APPROVAL_WAIT_MS,
): Promise<ApprovalAnswer> {
  const wait = Math.max(0, Math.min(waitMs, APPROVAL_WAIT_CAP_MS));
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ApprovalAnswer>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException("approval timeout", "TimeoutError"));
      resolve({ outcome: "unavailable", detail: `no answer within ${wait} ms` });
    }, wait);
  });
  let done = () => {};
  const ended = new Promise<ApprovalAnswer>((resolve) => {
    done = () => resolve({ outcome: "unavailable", detail: "the run ended while waiting for approval" });
    if (signal.aborted) done();
    else signal.addEventListener("abort", done, { once: true });
  });
  try {
    // the timer's abort tells the approver to stop asking; only the run's own signal ends the wait as "run ended"
    const asked = approver(request, controller.signal).then(
      (a) => ["accepted", "declined", "cancelled", "unavailable"].includes(a?.outcome) ? a : unavailable(),
      (e) => ({ outcome: "unavailable" as const, detail: e instanceof Error ? e.message.split("\n")[0] : String(e) }),
    );
    return await Promise.race([asked, late, ended]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    signal.removeEventListener("abort", done);
    controller.abort();
  }
}

function unavailable(): ApprovalAnswer {
  return { outcome: "unavailable", detail: "the approver gave no recognizable answer" };
}

/**
 * One run's approvals, one at a time: the writes of a `pmap` are asked in the order they reached the host, each on
 * its own (a person can accept one and decline another; an answer never covers a different call).
 */
export class ApprovalQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Run `ask` after every earlier approval of the run settled. */
  run<T>(ask: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(ask, ask);
    this.#tail = next.catch(() => {});
    return next;
  }
}
