/** `Retry-After` as the runtime reads it: delay-seconds or an HTTP date; malformed or over a day is absent. */
import assert from "node:assert/strict";
import { retryAfterMs } from "../../src/upstream/http_client.ts";

Deno.test("retryAfterMs: seconds, dates, the past, junk and absurd values", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterMs(null, now), undefined);
  assert.equal(retryAfterMs("2", now), 2000);
  assert.equal(retryAfterMs(" 0 ", now), 0);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now), 5000);
  assert.equal(retryAfterMs("Wed, 31 Dec 2025 23:59:00 GMT", now), 0, "a date in the past: now");
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs("-1", now), undefined);
  assert.equal(retryAfterMs("1.5", now), undefined);
  assert.equal(retryAfterMs("2026", now), 2_026_000, "digits are delay-seconds");
  assert.equal(retryAfterMs("2026-01-01", now), undefined, "a date must be an HTTP date");
  assert.equal(retryAfterMs("86401", now), undefined, "more than a day counts as absent");
});
