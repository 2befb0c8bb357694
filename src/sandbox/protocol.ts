/**
 * The wire protocol between the host thread and a sandbox worker: message shapes and the layout of the shared
 * "mailbox" (a growable SharedArrayBuffer) through which the host answers tool and discovery requests while the
 * worker blocks in `Atomics.wait`.
 *
 * Mailbox layout (Int32 slots, then bytes):
 * - slot 0 `STATE`: `IDLE` while the worker waits, `READY` once the host wrote an answer.
 * - slot 1 `LENGTH`: byte length of the UTF-8 JSON answer.
 * - slot 2 `SEQ`: sequence number of the request the answer belongs to (stale answers are ignored).
 * - slot 3 `ABORT`: `ABORT.DEADLINE` or `ABORT.CANCELLED` once the host gave up on the evaluation; the worker stops
 *   asking and answers pending tool calls with that reason.
 * - slot 4 `REQ_SEQ`: bumped by the worker (and notified) when it wrote a request into the outbox.
 * - slot 5 `REQ_LENGTH`: byte length of that UTF-8 JSON request.
 * - bytes from `DATA_OFFSET`: the answer.
 *
 * Requests travel through a second growable buffer, the outbox, which the host watches with `Atomics.waitAsync`
 * while an evaluation runs (measurably faster than a message per request).
 * @module
 */
import type {
  DiscoveryOp,
  DiscoveryOutcome,
  EvalLimits,
  EvalStatus,
  JsonObject,
  JsonValue,
  ToolOutcome,
  ToolRequest,
} from "../lisp/api.ts";

/** Int32 slot indexes of the mailbox header. */
export const SLOT = { STATE: 0, LENGTH: 1, SEQ: 2, ABORT: 3, REQ_SEQ: 4, REQ_LENGTH: 5 } as const;
/** Int32 slots in the header. */
export const HEADER_SLOTS = 8;
/** Values of the ABORT slot (0: running). */
export const ABORT = { DEADLINE: 1, CANCELLED: 2 } as const;
/** Values of the STATE slot. */
export const STATE = { IDLE: 0, READY: 1 } as const;
/** Bytes reserved for the header before the answer bytes. */
export const DATA_OFFSET = HEADER_SLOTS * 4;
/** Initial mailbox size; the host grows it on demand up to the configured maximum. */
export const INITIAL_MAILBOX_BYTES = 64 * 1024;

/** Create a mailbox able to grow to `maxAnswerBytes` of answer. */
export function createMailbox(maxAnswerBytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Math.min(INITIAL_MAILBOX_BYTES, DATA_OFFSET + maxAnswerBytes), {
    maxByteLength: DATA_OFFSET + maxAnswerBytes,
  });
}

/** Largest request (tool arguments) a worker may send, in bytes. */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** Create the outbox through which a worker sends its requests. */
export function createOutbox(): SharedArrayBuffer {
  return new SharedArrayBuffer(INITIAL_MAILBOX_BYTES, { maxByteLength: MAX_REQUEST_BYTES });
}

/** A request as the worker writes it into the outbox. */
export type BridgeRequest =
  | { type: "tools"; requests: ToolRequest[] }
  | { type: "discovery"; op: DiscoveryOp; args: JsonObject };

/** How a payload (context or globals) is shipped: by value, or by the id of a payload the worker already holds. */
export interface CachedPayload<T> {
  id: number;
  value?: T;
}

/** Limits the worker hands to the language for one evaluation (host-only limits stripped). */
export type WireLimits = EvalLimits;

/** Host → worker: evaluate a program. */
export interface EvalMessage {
  type: "eval";
  id: number;
  source: string;
  /** `fresh`: a new namespace per evaluation (pool); `session`: the worker's persistent session. */
  mode: "fresh" | "session";
  /** Host tool names, or null when the host offers no tools. */
  toolNames: string[] | null;
  hasDiscovery: boolean;
  context?: CachedPayload<JsonObject>;
  globals?: CachedPayload<Record<string, JsonValue>>;
  limits: WireLimits;
  /** Post each println line as it happens. */
  streamPrints: boolean;
  /** Longest printed value (characters) the worker may send back; longer → `result_too_large`. */
  maxResultChars: number;
}

/** Host → worker: session housekeeping and diagnostics. */
export interface ControlMessage {
  type: "reset" | "names" | "probe";
  id: number;
}

/** Host → worker: the first message, carrying the mailbox and the outbox. */
export interface InitMessage {
  type: "init";
  mailbox: SharedArrayBuffer;
  outbox: SharedArrayBuffer;
}

/** Everything the host sends. */
export type HostMessage = InitMessage | EvalMessage | ControlMessage;

/** The result of one evaluation as it crosses back to the host (EvalResult without the internal value). */
export type SandboxResult =
  | {
    ok: true;
    status: EvalStatus;
    printed: string;
    json: JsonValue;
    prints: string[];
    steps: number;
    /** Milliseconds spent evaluating inside the worker (parse + analyse + run). */
    elapsedMs: number;
  }
  | {
    ok: false;
    reason: string;
    message: string;
    prints: string[];
    line?: number;
    column?: number;
    elapsedMs: number;
  };

/** Worker → host messages. */
export type WorkerMessage =
  | { type: "ready" }
  | { type: "print"; id: number; line: string }
  | { type: "result"; id: number; result: SandboxResult }
  | { type: "reply"; id: number; value: JsonValue };

/** The answer the host writes into the mailbox for a `tools` request. */
export type ToolsAnswer = ToolOutcome[];
/** The answer the host writes into the mailbox for a `discovery` request. */
export type DiscoveryAnswer = DiscoveryOutcome;
