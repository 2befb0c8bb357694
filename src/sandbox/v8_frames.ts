/**
 * Host → child evaluation frames that carry a payload (`globals`, `context`: a `--data` file, an MCP client's
 * context) and tool answers (decoded tool results) travel in V8's own serialization format instead of JSON text.
 *
 * Why: the child decodes such a frame about a third faster than it parses the same data as JSON, and — measured, not
 * explained by any documented V8 rule — the strings a child gets from one large `JSON.parse` are scanned about 1.5×
 * slower by `includes`, `index-of` and regexes than the same strings deserialized (a substring search over the
 * 33 MB of step payloads of 2,000 traces: ~23 ms against ~15 ms in plain JavaScript, before and after garbage
 * collections). `deno task bench lisp` program (f) and `bench/lisp` README carry the figures.
 *
 * Only the host writes this format and only the child reads it: the host never deserializes anything a sandbox
 * process sends (child → host frames stay JSON, checked by the host). A V8 serialization starts with its version tag
 * `0xFF`, a byte UTF-8 JSON never contains, so the child tells the two formats apart by the first byte. `node:v8` costs
 * a few milliseconds to load: the host starts loading it when it starts a sandbox process and uses JSON until it is
 * there; the child loads it on the first such frame. Tool answers arrive while an evaluation runs, where the child
 * reads synchronously: the evaluation's message says `binaryAnswers` (the host had `node:v8` when it sent it), and the
 * child loads `node:v8` before it starts that evaluation.
 * @module
 */
import type { HostMessage } from "./protocol.ts";
import { framed } from "./protocol.ts";

type V8 = { serialize(value: unknown): Uint8Array; deserialize(bytes: Uint8Array): unknown };

let v8: V8 | undefined;
let loading: Promise<V8> | undefined;

/** Load `node:v8` once (both sides); resolves with it. */
export function loadV8(): Promise<V8> {
  loading ??= import("node:v8").then((m) => (v8 = m as unknown as V8));
  return loading;
}

/** The first byte of a V8 serialization (its version tag). */
export const V8_TAG = 0xff;

/** True when a frame body is a V8 serialization (JSON text starts with `{`). */
export function isV8Frame(body: Uint8Array): boolean {
  return body.length > 0 && body[0] === V8_TAG;
}

/**
 * True when `msg` is an evaluation whose new globals or context are worth V8's format: carried exactly, and of at
 * least `V8_MIN_BYTES` together.
 */
export function carriesPayload(msg: HostMessage): boolean {
  if (msg.type !== "eval") return false;
  const g = msg.globals?.value, c = msg.context?.value;
  if (g === undefined && c === undefined) return false;
  const gs = g === undefined ? 0 : jsonExactSize(g), cs = c === undefined ? 0 : jsonExactSize(c);
  return gs >= 0 && cs >= 0 && gs + cs >= V8_MIN_BYTES;
}

/**
 * `msg` framed in V8's format, or null when `node:v8` is not loaded yet or the value cannot be serialized that way
 * (the caller then sends JSON, which reports its own error for a value JSON cannot carry either).
 */
export function encodeV8Frame(msg: HostMessage): Uint8Array | null {
  if (v8 === undefined) return null;
  try {
    return framed(v8.serialize(msg));
  } catch {
    return null;
  }
}

/**
 * Values below this estimated size go as JSON: for a small value V8's format gains nothing (a tool call's round trip
 * measured slower with it), and the child need not load `node:v8` for it.
 */
export const V8_MIN_BYTES = 64 * 1024;

/**
 * The rough size of `value` (string characters plus 8 per other item) when JSON would carry it exactly as V8's format
 * does, else -1 — so the format cannot change what a program sees: only strings, booleans, null, finite numbers other
 * than -0, dense arrays and plain objects (JSON turns -0 into 0, NaN into null, drops undefined members, calls
 * `toJSON`; V8's format keeps them). Data parsed from JSON always passes; a value a transport built with such members,
 * or one sharing an object (a cycle), goes as JSON instead. Iterative: any depth.
 */
export function jsonExactSize(value: unknown): number {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  let size = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    switch (typeof v) {
      case "string":
        size += v.length + 2;
        continue;
      case "boolean":
        size += 5;
        continue;
      case "number":
        if (!Number.isFinite(v) || (v === 0 && 1 / v < 0)) return -1;
        size += 8;
        continue;
      case "object":
        break;
      default:
        return -1; // undefined, bigint, function, symbol
    }
    size += 8;
    if (v === null) continue;
    if (seen.has(v)) return -1;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x === undefined) return -1; // a hole or an undefined member
        stack.push(x);
      }
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return -1;
    const o = v as Record<string, unknown>;
    if (Object.hasOwn(o, "toJSON")) return -1;
    for (const k in o) {
      size += k.length + 3;
      stack.push(o[k]);
    }
  }
  return size;
}

/** True when V8's format carries `value` exactly as JSON would and it is large enough to gain from it. */
export function worthV8(value: unknown): boolean {
  return jsonExactSize(value) >= V8_MIN_BYTES;
}

/** True once `node:v8` is loaded in this process. */
export function v8Loaded(): boolean {
  return v8 !== undefined;
}

/** The V8-format size of `value` (what it adds to an answer frame). Requires `v8Loaded()`. */
export function v8Size(value: unknown): number {
  return v8!.serialize(value).length;
}

/** The body of an `answer` frame in V8's format. Requires `v8Loaded()`; throws when the value cannot be serialized. */
export function v8AnswerBody(seq: number, value: unknown): Uint8Array {
  return v8!.serialize({ type: "answer", seq, value });
}

/** Decode a V8 frame body synchronously (the child, inside an evaluation whose message said `binaryAnswers`). */
export function decodeV8FrameSync(body: Uint8Array): HostMessage {
  if (v8 === undefined) throw new Error("a V8 frame arrived before node:v8 was loaded");
  return v8.deserialize(body) as HostMessage;
}

/** Decode a V8 frame body (the child, after `loadV8()`). */
export async function decodeV8Frame(body: Uint8Array): Promise<HostMessage> {
  const m = v8 ?? await loadV8();
  return m.deserialize(body) as HostMessage;
}
