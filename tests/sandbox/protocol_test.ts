import assert from "node:assert/strict";
import { answerFrame, encodeFrame, encodeFrameView, FrameDecoder, FrameTooLarge } from "../../src/sandbox/protocol.ts";

const decoder = new TextDecoder();

function decodeAll(...chunks: Uint8Array[]): unknown[] {
  const frames = new FrameDecoder(1024 * 1024);
  const out: unknown[] = [];
  for (const chunk of chunks) {
    frames.push(chunk);
    for (let body = frames.next(); body; body = frames.next()) out.push(JSON.parse(decoder.decode(body)));
  }
  return out;
}

Deno.test("protocol: frames round-trip, non-ASCII and astral text included, split at any byte", () => {
  const msg = { type: "print" as const, id: 7, line: "héllo → 𝄞 " + "x".repeat(20_000) };
  const frame = encodeFrame(msg);
  assert.deepEqual(decodeAll(frame), [msg]);
  for (const cut of [1, 3, 4, 5, frame.length - 1]) {
    assert.deepEqual(decodeAll(frame.subarray(0, cut), frame.subarray(cut)), [msg]);
  }
});

Deno.test("protocol: a view frame is valid until the next encoding; encodeFrame owns its bytes", () => {
  const a = encodeFrame({ type: "reply", id: 1, value: "first" });
  const view = encodeFrameView({ type: "reply", id: 2, value: "second" });
  assert.deepEqual(decodeAll(view), [{ type: "reply", id: 2, value: "second" }]);
  encodeFrameView({ type: "reply", id: 3, value: "third!" });
  assert.deepEqual(decodeAll(a), [{ type: "reply", id: 1, value: "first" }]);
  // A frame above the scratch limit is encoded on its own.
  const big = { type: "reply" as const, id: 4, value: "é".repeat(600_000) };
  const frames = new FrameDecoder(8 * 1024 * 1024);
  frames.push(encodeFrameView(big));
  assert.deepEqual(JSON.parse(decoder.decode(frames.next()!)), big);
});

Deno.test("protocol: an answer frame carries the encoded value unchanged", () => {
  const value = new TextEncoder().encode(JSON.stringify([{ kind: "tagged", ok: true, value: "ü", valueKind: "json" }]));
  assert.deepEqual(decodeAll(answerFrame(12, value), answerFrame(13, new TextEncoder().encode("null"))), [
    { type: "answer", seq: 12, value: [{ kind: "tagged", ok: true, value: "ü", valueKind: "json" }] },
    { type: "answer", seq: 13, value: null },
  ]);
});

Deno.test("protocol: a frame longer than the receiver accepts is refused", () => {
  const frames = new FrameDecoder(16);
  frames.push(encodeFrame({ type: "reply", id: 1, value: "x".repeat(32) }));
  assert.throws(() => frames.next(), FrameTooLarge);
});
