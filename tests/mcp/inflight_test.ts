import assert from "node:assert/strict";
import { InFlightResponses } from "../../src/mcp/inflight.ts";

Deno.test("a request counts from begin() until its response body is read to the end", async () => {
  const t = new InFlightResponses();
  const handOver = t.begin();
  assert.equal(t.active, 1);
  let idle = false;
  const waiting = t.idle().then(() => (idle = true));
  const res = handOver(new Response("hello"))!;
  await Promise.resolve();
  assert.equal(idle, false, "still writing the body");
  assert.equal(await res.text(), "hello");
  await waiting;
  assert.equal(t.active, 0);
});

Deno.test("bodiless, failed and cancelled responses stop counting", async () => {
  const t = new InFlightResponses();
  t.begin()(new Response(null, { status: 202 }));
  t.begin()(undefined);
  assert.equal(t.active, 0);
  const res = t.begin()(new Response(new ReadableStream({ pull() {} })))!;
  assert.equal(t.active, 1);
  await res.body!.cancel();
  assert.equal(t.active, 0);
  await t.idle();
});
