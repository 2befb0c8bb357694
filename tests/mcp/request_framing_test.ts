import assert from "node:assert/strict";
import { RequestFraming } from "../../src/mcp/request_framing.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("request framing: a later head is timed from its first byte; bodies are skipped by Content-Length", () => {
  let now = 100;
  const f = new RequestFraming(1024, () => now);
  assert.equal(f.feed(enc("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123")), "ok");
  assert.equal(f.headStartedAt, undefined, "the head ended; the body is under way");
  now = 200;
  f.feed(enc("456789")); // the rest of the body: still no head
  assert.equal(f.headStartedAt, undefined);
  f.feed(enc("\r\n")); // an empty line between requests starts nothing
  assert.equal(f.headStartedAt, undefined);
  now = 300;
  f.feed(enc("GET /health HT"));
  assert.equal(f.headStartedAt, 300, "a later head started");
  now = 400;
  f.feed(enc("TP/1.1\r\nHost: x\r\n\r\n"));
  assert.equal(f.headStartedAt, undefined);
  assert.equal(f.following, true);
});

Deno.test("request framing: chunked or conflicting lengths end the following; an endless head is too large", () => {
  const chunked = new RequestFraming(1024);
  chunked.feed(enc("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET / HT"));
  assert.equal(chunked.following, false);
  assert.equal(chunked.headStartedAt, undefined, "nothing is timed once the body could not be followed");
  const conflicting = new RequestFraming(1024);
  conflicting.feed(enc("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"));
  assert.equal(conflicting.following, false);
  const big = new RequestFraming(64);
  assert.equal(big.feed(enc(`GET / HTTP/1.1\r\nX: ${"y".repeat(100)}`)), "head_too_large");
});
