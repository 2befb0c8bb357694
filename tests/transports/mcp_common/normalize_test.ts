/**
 * Whole MCP content: every block of a `tools/call` result reaches the program — several text blocks, images and
 * audio as summaries without their data, resource links, embedded resources (text inline, blobs summarized).
 * @module
 */
import assert from "node:assert/strict";
import { base64Bytes, normalizeCallResult } from "../../../transports/mcp_common/normalize.ts";
import { createRedactor } from "../../../src/upstream/redact.ts";

const opts = { hasOutputSchema: false, maxResponseBytes: 100_000, redactor: createRedactor(), toolLabel: "u/t" };
const PNG = btoa("\x89PNG\r\n\x1a\n" + "x".repeat(92)); // 100 bytes

Deno.test("base64Bytes: the decoded size, padding and whitespace accounted for", () => {
  assert.equal(base64Bytes(PNG), 100);
  assert.equal(base64Bytes(btoa("ab")), 2);
  assert.equal(base64Bytes(btoa("abc")), 3);
  assert.equal(base64Bytes(btoa("abcd").replace(/(.{4})/, "$1\n")), 4);
  assert.equal(base64Bytes(undefined), 0);
});

Deno.test("normalizeCallResult: several blocks become a vector of block maps, in order, without binary data", () => {
  const r = normalizeCallResult({
    content: [
      { type: "text", text: "first" },
      { type: "text", text: '{"n": 2}' },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "audio", mimeType: "audio/wav", data: btoa("RIFF0000") },
      {
        type: "resource_link",
        uri: "demo://resource/static/document/architecture.md",
        name: "architecture.md",
        mimeType: "text/markdown",
        description: "the architecture",
      },
      { type: "resource", resource: { uri: "demo://r/1", mimeType: "text/plain", text: "inline text" } },
      { type: "resource", resource: { uri: "demo://r/2", mimeType: "application/octet-stream", blob: btoa("12345") } },
      { type: "hologram", data: "zzz" },
    ],
  }, opts);
  assert.ok(r.ok);
  assert.equal(r.valueKind, "json");
  assert.deepEqual(r.value, [
    { type: "text", text: "first" },
    { type: "text", text: '{"n": 2}' },
    { type: "image", mime_type: "image/png", bytes: 100 },
    { type: "audio", mime_type: "audio/wav", bytes: 8 },
    {
      type: "resource_link",
      uri: "demo://resource/static/document/architecture.md",
      name: "architecture.md",
      description: "the architecture",
      mime_type: "text/markdown",
    },
    { type: "resource", uri: "demo://r/1", mime_type: "text/plain", text: "inline text" },
    { type: "resource", uri: "demo://r/2", mime_type: "application/octet-stream", bytes: 5 },
    { type: "hologram" },
  ]);
  assert.doesNotMatch(JSON.stringify(r.value), new RegExp(PNG.slice(0, 20)), "no image data reaches the program");
});

Deno.test("normalizeCallResult: one text block keeps its shape; one image alone is a one-block vector", () => {
  const one = normalizeCallResult({ content: [{ type: "text", text: '{"a":1}' }] }, opts);
  assert.deepEqual(one.ok && [one.value, one.valueKind], [{ a: 1 }, "json"]);
  const img = normalizeCallResult({ content: [{ type: "image", mimeType: "image/png", data: PNG }] }, opts);
  assert.deepEqual(img.ok && img.value, [{ type: "image", mime_type: "image/png", bytes: 100 }]);
});

Deno.test("normalizeCallResult: a tool error's message is every text block, joined by newlines", () => {
  const r = normalizeCallResult({
    isError: true,
    content: [{ type: "text", text: "line one" }, { type: "image", data: PNG }, { type: "text", text: "line two" }],
  }, opts);
  assert.deepEqual(!r.ok && [r.reason, r.message], ["tool_error", "line one\nline two"]);
});
