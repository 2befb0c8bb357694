import assert from "node:assert/strict";
import { base64Utf8, createRedactor, REDACTED } from "../../src/upstream/redact.ts";

Deno.test("redact: replaces secrets longest-first and leaves other text", () => {
  const r = createRedactor();
  r.register("abc");
  r.register("abcdef");
  assert.equal(r.redact("x abcdef y abc z"), `x ${REDACTED} y ${REDACTED} z`);
  assert.equal(r.redact("nothing here"), "nothing here");
});

Deno.test("redact: empty secrets ignored, regex metacharacters are literal", () => {
  const r = createRedactor();
  r.register("");
  assert.equal(r.redact("abc"), "abc");
  r.register("a.b*c");
  assert.equal(r.redact("a.b*c axbbc"), `${REDACTED} axbbc`);
});

Deno.test("redact: encoded forms (base64, url, json escape) are scrubbed", () => {
  const r = createRedactor();
  r.register('s3cr/t "x"');
  const text = `${base64Utf8('s3cr/t "x"')} ${encodeURIComponent('s3cr/t "x"')} ${JSON.stringify('s3cr/t "x"')}`;
  assert.ok(!r.redact(text).includes("s3cr"));
  assert.ok(!r.redact(text).includes(base64Utf8('s3cr/t "x"')));
});

Deno.test("redactJson: keys and nested values, non-strings untouched", () => {
  const r = createRedactor();
  r.register("tok");
  const out = r.redactJson({ tok: ["a tok", 1, null, { k: "tok" }], n: 5, b: true });
  assert.deepEqual(out, { [REDACTED]: [`a ${REDACTED}`, 1, null, { k: REDACTED }], n: 5, b: true });
});

Deno.test("redact: two redactors do not share secrets", () => {
  const a = createRedactor();
  const b = createRedactor();
  a.register("only-a");
  assert.equal(b.redact("only-a"), "only-a");
});
