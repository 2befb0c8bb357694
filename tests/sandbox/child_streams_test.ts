/**
 * The host-side reading of a sandbox process's output, on its own: frames split across reads arrive whole and in
 * order, a broken frame is reported (not thrown), the stderr tail explains an exit, and a heap overflow is told from a
 * crash. Also the payload cache's id-only resend.
 */
import assert from "node:assert/strict";
import { exitResult, readFrames, StderrTail } from "../../src/sandbox/child_streams.ts";
import { PayloadCache } from "../../src/sandbox/payload_cache.ts";
import { type ChildMessage, encodeFrame } from "../../src/sandbox/protocol.ts";

function byteStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    type: "bytes",
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

function textStream(text: string): ReadableStream<Uint8Array> {
  return byteStream([new TextEncoder().encode(text)]);
}

const EXIT_1 = { success: false, code: 1, signal: null } as Deno.CommandStatus;

Deno.test("readFrames: frames split across reads arrive whole, in order; a broken frame is reported", async () => {
  const a = encodeFrame({ type: "ready" });
  const b = encodeFrame({ type: "print", id: 1, line: "héllo" });
  const both = new Uint8Array([...a, ...b]);
  const got: ChildMessage[] = [];
  const broken: string[] = [];
  await readFrames(byteStream([both.slice(0, 3), both.slice(3, a.length + 5), both.slice(a.length + 5)]), (m) => {
    got.push(m);
  }, (why) => broken.push(why));
  assert.deepEqual(got, [{ type: "ready" }, { type: "print", id: 1, line: "héllo" }]);
  assert.equal(broken.length, 0);

  const bad = new Uint8Array([0, 0, 0, 3, 0x7b, 0x7b, 0x7b]); // a 3-byte frame that is not JSON
  await readFrames(byteStream([bad]), (m) => got.push(m), (why) => broken.push(why));
  assert.equal(broken.length, 1);
  assert.match(broken[0], /^the sandbox process broke the protocol \(/);
});

Deno.test("StderrTail and exitResult: the last lines explain a crash; a heap overflow is memory_limit", async () => {
  const crash = new StderrTail();
  await crash.read(textStream("starting\n[123:0x55d0] noise\nfirst problem\nsecond problem\n"));
  assert.equal(crash.describe(EXIT_1), "exit code 1; first problem | second problem");
  assert.equal(crash.outOfMemory, false);
  const crashed = exitResult(EXIT_1, crash, { mode: "fresh", started: Date.now() }, 64);
  assert.deepEqual([crashed.ok, !crashed.ok && crashed.reason, crashed.abandoned], [false, "internal_error", true]);

  const oom = new StderrTail();
  await oom.read(textStream("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n"));
  const fresh = exitResult(EXIT_1, oom, { mode: "fresh", started: Date.now() }, 64);
  assert.ok(!fresh.ok && fresh.reason === "memory_limit" && /cap 64 MiB/.test(fresh.message));
  assert.equal(fresh.sessionEnded, false);
  const session = exitResult(EXIT_1, oom, { mode: "session", started: Date.now() }, 64);
  assert.equal(session.sessionEnded, true, "a session over its cap ends");

  const long = new StderrTail();
  await long.read(textStream("x".repeat(10_000) + "\nthe end\n"));
  assert.equal(long.describe(EXIT_1), `exit code 1; ${"x".repeat(300)}`, "at most 300 characters of stderr");
});

Deno.test("PayloadCache: an object the process holds travels as its id only", () => {
  const cache = new PayloadCache();
  const context = { org: "acme" };
  const first = cache.prepare("context", context);
  assert.deepEqual(first.wire, { id: first.id, value: context });
  cache.hold("context", first.id);
  assert.deepEqual(cache.prepare("context", context).wire, { id: first.id });
  assert.deepEqual(cache.prepare("context", undefined), { id: first.id, wire: undefined });
  assert.deepEqual(cache.prepare("globals", context).wire, { id: first.id, value: context }, "slots are separate");
  const other = cache.prepare("context", { org: "acme" });
  assert.notEqual(other.id, first.id, "identity, not equality");
});
