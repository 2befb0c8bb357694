/**
 * Evaluation payloads (`globals`, `context`) cross to a real sandbox process in V8's serialization format once
 * `node:v8` is loaded, and arrive exactly as JSON would have carried them; every other frame stays JSON.
 */
import assert from "node:assert/strict";
import { SandboxPool } from "../../src/sandbox/pool.ts";
import {
  carriesPayload,
  encodeV8Frame,
  isV8Frame,
  jsonExactSize,
  loadV8,
  V8_MIN_BYTES,
  V8_TAG,
} from "../../src/sandbox/v8_frames.ts";
import { FAKE_CHILD, fakeHost } from "./helpers.ts";
import { encodeFrame, type EvalMessage, HEADER_BYTES } from "../../src/sandbox/protocol.ts";

const EVAL: EvalMessage = {
  type: "eval",
  id: 1,
  source: "data",
  mode: "fresh",
  toolNames: null,
  hasDiscovery: false,
  limits: {},
  streamPrints: false,
  maxResultChars: 1000,
};

Deno.test("v8 frames: only an evaluation with a payload value goes in V8's format, told apart by its first byte", async () => {
  await loadV8();
  assert.equal(carriesPayload(EVAL), false);
  assert.equal(carriesPayload({ ...EVAL, globals: { id: 3 } }), false, "a payload the process holds goes as its id");
  const withData = { ...EVAL, globals: { id: 3, value: { data: [1, "x".repeat(V8_MIN_BYTES)] } } };
  assert.equal(carriesPayload(withData), true);
  assert.equal(carriesPayload({ ...EVAL, context: { id: 4, value: { a: "x".repeat(V8_MIN_BYTES) } } }), true);
  assert.equal(carriesPayload({ ...EVAL, context: { id: 4, value: { a: 1 } } }), false, "a small payload goes as JSON");
  const frame = encodeV8Frame(withData)!;
  assert.equal(frame[HEADER_BYTES], V8_TAG);
  assert.equal(isV8Frame(frame.subarray(HEADER_BYTES)), true);
  assert.equal(isV8Frame(encodeFrame(withData).subarray(HEADER_BYTES)), false);
  // A value V8's serializer refuses: null, and the caller sends JSON (which reports its own error).
  assert.equal(encodeV8Frame({ ...EVAL, globals: { id: 5, value: { f: (() => 1) as unknown as number } } }), null);
});

Deno.test("v8 frames: data reaches the program unchanged (unicode, keys JSON allows, numbers, nesting)", async () => {
  await loadV8();
  // From JSON text, as a data file or a decoded tool result has it: `__proto__` is an own key there.
  const payload = JSON.parse(
    `{"text": "ü✓ 😀 \\u0000 \\u2028 日本語", "": "empty key", "__proto__": {"own": "a key, not a prototype"},
      "constructor": 1, "big": 9007199254740993, "small": 5e-324, "neg": -0.5,
      "nested": [[[{"a": [null, true, false]}]]], "long": "${"x".repeat(100_000)}"}`,
  );
  assert.ok(Object.hasOwn(payload, "__proto__"));
  const pool = new SandboxPool({ size: 1 });
  try {
    await pool.warm();
    const r = await pool.evaluate('[(get data "__proto__") (count (get data "long")) (dissoc data "long")]', {
      globals: { data: payload },
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    if (!r.ok) return;
    const { long: _, ...rest } = payload;
    // Beyond 2^53 the language answers an integer as its decimal string (docs/language.md), whatever the transport.
    assert.deepEqual(r.json, [{ own: "a key, not a prototype" }, 100_000, { ...rest, big: "9007199254740992" }]);
    // The same payload again is sent as its id only; a context travels the same way.
    const again = await pool.evaluate('(get data "text")', { globals: { data: payload }, context: { who: "ü" } });
    assert.equal(again.ok && again.json, "ü✓ 😀 \u0000 \u2028 日本語");
    const ctx = await pool.evaluate("data/who", { context: { who: "ü" } });
    assert.equal(ctx.ok && ctx.json, "ü");
  } finally {
    await pool.close();
  }
});

Deno.test("v8 frames: tool answers cross in V8's format, bounded by their size in it", async () => {
  await loadV8();
  // 300,000 'é' are 600 KB of JSON (two UTF-8 bytes each) but 300 KB in V8's format (one Latin-1 byte each): under
  // a 512 KiB bridge limit the answer fits only in V8's format, so this shows which one crossed.
  const text = "é".repeat(300_000);
  const pool = new SandboxPool({ size: 1, entry: FAKE_CHILD, limits: { maxToolResultBytes: 512 * 1024 } });
  try {
    const r = await pool.evaluate(`call echo {"s":"${text}","n":[1,-2.5,null,true]}`, { host: fakeHost() });
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 300));
    assert.deepEqual(r.ok && r.json, { kind: "value", value: { s: text, n: [1, -2.5, null, true] } });
    // 300,000 '日' are 600 KB in V8's format too (a two-byte string): response_too_large, sized in that format.
    const big = await pool.evaluate(`call echo {"s":"${"日".repeat(300_000)}"}`, { host: fakeHost() });
    assert.equal(big.ok, true, JSON.stringify(big).slice(0, 300));
    const out = (big.ok ? big.json : null) as { reason: string; message: string };
    assert.equal(out.reason, "response_too_large");
    assert.match(out.message, /answered 6000\d\d bytes; the sandbox bridge carries at most 524288 bytes/);
  } finally {
    await pool.close();
  }
});

Deno.test("v8 frames: only values JSON carries exactly take V8's format", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const shared = { x: 1 };
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const cases: [unknown, boolean][] = [
    [{ a: [1, "x", null, true, { b: -2.5 }] }, true],
    [JSON.parse('{"__proto__": {"a": 1}, "constructor": 2}'), true],
    [Object.assign(Object.create(null), { a: 1 }), true],
    [deep, true],
    [{ a: -0 }, false],
    [[NaN], false],
    [{ a: Infinity }, false],
    [{ a: undefined }, false],
    [[1, , 3], false],
    [{ d: new Date(0) }, false],
    [{ m: new Map() }, false],
    [{ toJSON: () => 1 }, false],
    [{ n: 1n }, false],
    [cyclic, false],
    [[shared, shared], false],
  ];
  cases.forEach(([value, exact], i) => assert.equal(jsonExactSize(value) >= 0, exact, `case ${i}`));
});
