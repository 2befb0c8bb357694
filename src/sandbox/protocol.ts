/**
 * The wire protocol between the host and a sandbox process: the child's stdin carries host frames, its stdout
 * child frames. A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON.
 *
 * A tool call is one `request` frame from the child, which then blocks in a synchronous read until the host writes
 * the matching `answer` (or an `abort` for the running evaluation); a `pmap` batch is one request. Answers and
 * aborts that arrive for an evaluation that already ended are recognised by their ids and dropped.
 * @module
 */
import type { DiscoveryOp, DiscoveryOutcome, ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { EvalLimits, EvalStatus } from "../lisp/api.ts";
import type { LibrarySource } from "../lisp/library_types.ts";

/** Bytes of the length prefix. */
export const HEADER_BYTES = 4;

/** Largest request (tool arguments) a sandbox process may send, in bytes. */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** A request as the child sends it. */
export type BridgeRequest =
  | { type: "tools"; requests: ToolRequest[] }
  | { type: "discovery"; op: DiscoveryOp; args: JsonObject };

/** How a payload (context or globals) is shipped: by value, or by the id of a payload the process already holds. */
export interface CachedPayload<T> {
  id: number;
  value?: T;
}

/** Limits the child hands to the language for one evaluation (host-only limits stripped). */
export type WireLimits = EvalLimits;

/** Host → child: evaluate a program. */
export interface EvalMessage {
  type: "eval";
  id: number;
  source: string;
  /** `fresh`: a new namespace per evaluation (pool); `session`: the process's persistent session. */
  mode: "fresh" | "session";
  /** Host tool names, or null when the host offers no tools. */
  toolNames: string[] | null;
  /** Tool answers of this evaluation come in V8's format (v8_frames.ts): the child loads `node:v8` before it runs. */
  binaryAnswers?: boolean;
  hasDiscovery: boolean;
  context?: CachedPayload<JsonObject>;
  globals?: CachedPayload<Record<string, JsonValue>>;
  limits: WireLimits;
  /** Send each println line as it happens. */
  streamPrints: boolean;
  /** Longest printed value (characters) the child may send back; longer → `result_too_large`. */
  maxResultChars: number;
  /** JSON Schema the value must satisfy; checked in the child (an expensive schema only costs the child). */
  outputSchema?: JsonObject;
}

/** Host → child: the answer to request `seq` of the running evaluation. */
export interface AnswerMessage {
  type: "answer";
  seq: number;
  value: JsonValue;
}

/** Host → child: evaluation `id` must stop asking; its pending and later requests fail with `why`. */
export interface AbortMessage {
  type: "abort";
  id: number;
  why: "timeout" | "cancelled";
}

/** Host → child: the host held evaluation `id`'s clock for `ms` (a person deciding); its deadline moves by that. */
export interface PausedMessage {
  type: "paused";
  id: number;
  ms: number;
}

/** Host → child: session housekeeping and diagnostics. */
export interface ControlMessage {
  type: "reset" | "names" | "probe";
  id: number;
}

/**
 * Host → child, always the first frame: what every evaluation and session of the process shares (the operator
 * libraries, loaded once before the child says `ready`).
 */
export interface InitMessage {
  type: "init";
  libraries: LibrarySource[];
}

/** Everything the host sends. */
export type HostMessage = InitMessage | EvalMessage | AnswerMessage | AbortMessage | PausedMessage | ControlMessage;

/** How the returned value fared against an `outputSchema`. */
export type OutputCheck = { valid: true } | { valid: false; message: string };

/** The result of one evaluation as it crosses back to the host (EvalResult without the internal value). */
export type SandboxResult =
  | {
    ok: true;
    status: EvalStatus;
    printed: string;
    json: JsonValue;
    prints: string[];
    steps: number;
    /** Milliseconds spent evaluating inside the sandbox process (parse + analyse + run). */
    elapsedMs: number;
    /** Present when an `outputSchema` was given and the program did not fail. */
    outputCheck?: OutputCheck;
  }
  | {
    ok: false;
    reason: string;
    message: string;
    prints: string[];
    line?: number;
    column?: number;
    elapsedMs: number;
    /** A session passed its memory cap: it must not continue. */
    sessionEnded?: boolean;
  };

/** Child → host messages. */
export type ChildMessage =
  | { type: "ready" }
  | { type: "request"; id: number; seq: number; request: BridgeRequest }
  | { type: "print"; id: number; line: string }
  | { type: "result"; id: number; result: SandboxResult; heapBytes?: number; fatal?: boolean }
  | { type: "reply"; id: number; value: JsonValue };

/** The answer the host sends for a `tools` request. */
export type ToolsAnswer = ToolOutcome[];
/** The answer the host sends for a `discovery` request. */
export type DiscoveryAnswer = DiscoveryOutcome;

const encoder = new TextEncoder();

/** Frames up to this size are encoded through a reused scratch buffer (larger ones are encoded directly). */
const SCRATCH_LIMIT = 1024 * 1024;
let scratch = new Uint8Array(16 * 1024);

/**
 * Encode `msg` as one frame in one buffer (header and body together, so it is written with one call). The returned
 * bytes are a view of a scratch buffer, valid until the next `encodeFrameView`: for synchronous writers (the child).
 * Throws (RangeError/TypeError) when the message cannot be serialised.
 */
export function encodeFrameView(msg: HostMessage | ChildMessage): Uint8Array {
  const text = JSON.stringify(msg);
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  const worst = HEADER_BYTES + text.length * 3;
  if (worst > SCRATCH_LIMIT) return framed(encoder.encode(text));
  if (worst > scratch.length) scratch = new Uint8Array(Math.max(worst, scratch.length * 2));
  const { written } = encoder.encodeInto(text, scratch.subarray(HEADER_BYTES));
  new DataView(scratch.buffer).setUint32(0, written);
  return scratch.subarray(0, HEADER_BYTES + written);
}

/** Encode `msg` as one frame in a buffer of its own (for asynchronous writers). Throws like `encodeFrameView`. */
export function encodeFrame(msg: HostMessage | ChildMessage): Uint8Array {
  return encodeFrameView(msg).slice();
}

/** The frame of an `answer` to request `seq` whose value is the already-encoded JSON `value`: one allocation. */
export function answerFrame(seq: number, value: Uint8Array): Uint8Array {
  const head = `{"type":"answer","seq":${seq},"value":`; // ASCII: one byte per character
  const length = head.length + value.length + 1;
  const out = new Uint8Array(HEADER_BYTES + length);
  new DataView(out.buffer).setUint32(0, length);
  encoder.encodeInto(head, out.subarray(HEADER_BYTES));
  out.set(value, HEADER_BYTES + head.length);
  out[out.length - 1] = 0x7d; // }
  return out;
}

/** Prefix already-encoded JSON bytes with their length. */
export function framed(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, HEADER_BYTES);
  return out;
}

/**
 * Incremental frame decoder: feed it bytes as they arrive, take out complete frame bodies. Frames above
 * `maxFrameBytes` are a protocol violation (`FrameTooLarge`).
 */
export class FrameDecoder {
  #buf = new Uint8Array(64 * 1024);
  #start = 0;
  #end = 0;

  constructor(private maxFrameBytes: number) {}

  /** Space to read into directly (at least `min` bytes); call `commit(n)` after writing `n` bytes. */
  spare(min = 64 * 1024): Uint8Array {
    this.#reserve(min);
    return this.#buf.subarray(this.#end);
  }

  /** Record `n` bytes written into `spare()`. */
  commit(n: number): void {
    this.#end += n;
  }

  /** Append a chunk. */
  push(chunk: Uint8Array): void {
    this.#reserve(chunk.length);
    this.#buf.set(chunk, this.#end);
    this.#end += chunk.length;
  }

  /** The next complete frame body (a view valid until the next push/spare), or null when more bytes are needed. */
  next(): Uint8Array | null {
    const available = this.#end - this.#start;
    if (available < HEADER_BYTES) return null;
    const view = new DataView(this.#buf.buffer, this.#buf.byteOffset + this.#start, HEADER_BYTES);
    const length = view.getUint32(0);
    if (length > this.maxFrameBytes) throw new FrameTooLarge(length, this.maxFrameBytes);
    if (available < HEADER_BYTES + length) {
      this.#reserve(HEADER_BYTES + length - available);
      return null;
    }
    // A view, not a copy: valid until the next push (callers decode it at once).
    const body = this.#buf.subarray(this.#start + HEADER_BYTES, this.#start + HEADER_BYTES + length);
    this.#start += HEADER_BYTES + length;
    if (this.#start === this.#end) this.#start = this.#end = 0;
    return body;
  }

  #reserve(extra: number): void {
    if (this.#buf.length - this.#end >= extra) return;
    const used = this.#end - this.#start;
    const size = Math.max(this.#buf.length, (used + extra) * 2);
    if (size === this.#buf.length) {
      this.#buf.copyWithin(0, this.#start, this.#end);
    } else {
      const next = new Uint8Array(size);
      next.set(this.#buf.subarray(this.#start, this.#end), 0);
      this.#buf = next;
    }
    this.#end = used;
    this.#start = 0;
  }
}

/** A frame longer than the receiver accepts. */
export class FrameTooLarge extends Error {
  constructor(readonly length: number, readonly max: number) {
    super(`a frame of ${length} bytes exceeds the limit of ${max}`);
    this.name = "FrameTooLarge";
  }
}
