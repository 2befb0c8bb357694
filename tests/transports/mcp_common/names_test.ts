import assert from "node:assert/strict";
import { exposeTools, kebabName, mapArgumentKeys, MAX_TOOL_NAME } from "../../../transports/mcp_common/names.ts";
import { parseToolMap } from "../../../transports/mcp_common/tool_map.ts";
import { normalizeCallResult } from "../../../transports/mcp_common/normalize.ts";
import { classifyCallError, McpWireFailure, OVERSIZE_RPC_CODE } from "../../../transports/mcp_common/errors.ts";
import { ProbeTap } from "../../../transports/mcp_common/session.ts";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { createRedactor } from "../../../src/upstream/redact.ts";

Deno.test("kebabName: mixed styles", () => {
  assert.equal(kebabName("get_user"), "get-user");
  assert.equal(kebabName("listItems"), "list-items");
  assert.equal(kebabName("HTTPServerStatus"), "http-server-status");
  assert.equal(kebabName("fs.read_file"), "fs-read-file");
  assert.equal(kebabName("get-sum"), "get-sum");
  assert.equal(kebabName("__weird__Name2Go"), "weird-name2-go");
  assert.equal(kebabName("!!!"), "");
  assert.equal(kebabName("getÜber"), "get-uber");
  assert.match(kebabName("获取用户"), /^tool-[0-9a-f]{8}$/);
  assert.equal(kebabName("获取用户"), kebabName("获取用户"), "stable");
  assert.notEqual(kebabName("获取用户"), kebabName("删除用户"));
  const long = kebabName("a_very_long_tool_name_".repeat(6));
  assert.ok(long.length <= MAX_TOOL_NAME);
  assert.match(long, /-[0-9a-f]{8}$/);
  assert.equal(long, kebabName("a_very_long_tool_name_".repeat(6)), "stable");
});

Deno.test("exposeTools: collisions, annotations, unnamed; every tool listed whatever it is annotated", () => {
  const tools = [
    { name: "listItems", annotations: { readOnlyHint: true } },
    { name: "list_items", annotations: { readOnlyHint: true } },
    { name: "ListItems", annotations: { readOnlyHint: true } },
    { name: "drop_table", annotations: { destructiveHint: true } },
    { name: "???" },
    { name: "get_user", outputSchema: { type: "object" }, annotations: { readOnlyHint: true, title: "Get" } },
  ];
  const all = exposeTools(tools, "mcp_stdio");
  assert.deepEqual(all.entries.map((e) => e.name), ["list-items", "drop-table", "get-user"]);
  assert.deepEqual(all.collisions, [{ name: "list-items", exposed: "listItems", hidden: ["list_items", "ListItems"] }]);
  assert.deepEqual(all.unnamed, ["???"]);
  const gu = all.entries.find((e) => e.name === "get-user")!;
  assert.deepEqual(gu.annotations, { readOnlyHint: true, title: "Get" });
  assert.deepEqual(gu._ptc, { transport: "mcp_stdio", upstreamName: "get_user" });
  assert.deepEqual(gu.outputSchema, { type: "object" });
  assert.deepEqual(all.entries.find((e) => e.name === "drop-table")!.annotations, { destructiveHint: true });
});

Deno.test("mapArgumentKeys: exact, then -/_ variant, unknown keys pass through", () => {
  const schema = { properties: { user_id: {}, "page-size": {}, q: {} } };
  assert.deepEqual(mapArgumentKeys({ "user-id": 1, page_size: 2, q: 3, extra: 4 }, schema), {
    user_id: 1,
    "page-size": 2,
    q: 3,
    extra: 4,
  });
  assert.deepEqual(mapArgumentKeys({ a: 1 }, undefined), { a: 1 });
});

Deno.test("normalizeCallResult: error, structured, one text block, none, and the byte cap", () => {
  const redactor = createRedactor();
  redactor.register("hunter2");
  const opts = { hasOutputSchema: false, maxResponseBytes: 10_000, redactor, toolLabel: "upstream u, tool t" };
  const err = normalizeCallResult({
    isError: true,
    content: [{ type: "image" }, { type: "text", text: "bad hunter2" }],
  }, opts);
  assert.deepEqual(err, { ok: false, reason: "tool_error", message: "bad [REDACTED]", bytes: err.bytes });
  const structured = { content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } };
  assert.deepEqual(normalizeCallResult(structured, { ...opts, hasOutputSchema: true }).ok, true);
  const s = normalizeCallResult(structured, { ...opts, hasOutputSchema: true });
  assert.deepEqual(s.ok && s.value, { a: 1 });
  const noSchema = normalizeCallResult(structured, opts);
  assert.deepEqual(noSchema.ok && noSchema.value, {}, "structuredContent ignored without an outputSchema");
  const json = normalizeCallResult({ content: [{ type: "text", text: " [1,2] " }] }, opts);
  assert.deepEqual(json.ok && [json.value, json.valueKind], [[1, 2], "json"]);
  const text = normalizeCallResult({ content: [{ type: "text", text: "plain" }] }, opts);
  assert.deepEqual(text.ok && [text.value, text.valueKind], ["plain", "text"]);
  const none = normalizeCallResult({ content: [] }, opts);
  assert.deepEqual(none.ok && [none.value, none.valueKind], [null, "none"]);
  const big = normalizeCallResult({ content: [{ type: "text", text: "x".repeat(20_000) }] }, opts);
  assert.equal(!big.ok && big.reason, "response_too_large");
});

Deno.test("classifyCallError: closed reasons", () => {
  const redactor = createRedactor();
  const o = { timeoutMs: 50, redactor };
  const c = (e: unknown) => classifyCallError(e, "upstream u, tool t", o).reason;
  assert.equal(c(new SdkError(SdkErrorCode.RequestTimeout, "x")), "timeout");
  assert.equal(c(new SdkError(SdkErrorCode.ConnectionClosed, "x")), "upstream_unavailable");
  assert.equal(c(new SdkError(SdkErrorCode.InvalidResult, "x")), "invalid_response");
  assert.equal(c(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 429 })), "rate_limited");
  assert.equal(
    c(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 503 })),
    "upstream_unavailable",
  );
  assert.equal(c(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 401 })), "auth_failed");
  assert.equal(c(new ProtocolError(-32602, "Tool x not found")), "not_found");
  assert.equal(c(new ProtocolError(OVERSIZE_RPC_CODE, "too big")), "response_too_large");
  assert.equal(c(new ProtocolError(-32000, "boom")), "upstream_error");
  assert.equal(c(new Error("x", { cause: new McpWireFailure("connect_failed", "refused") })), "upstream_unavailable");
  assert.equal(c(new Error("x", { cause: new McpWireFailure("response_too_large", "big") })), "response_too_large");
  const ac = new AbortController();
  ac.abort(new DOMException("t", "TimeoutError"));
  assert.equal(classifyCallError(new Error("aborted"), "l", { ...o, signal: ac.signal }).reason, "timeout");
});

Deno.test("ProbeTap: method not found vs version not advertised", () => {
  const a = new ProbeTap();
  a.sent({ jsonrpc: "2.0", id: "p1", method: "server/discover" });
  a.received({ jsonrpc: "2.0", id: "other", error: { code: -32601 } });
  assert.equal(a.outcome, undefined);
  a.received({ jsonrpc: "2.0", id: "p1", error: { code: -32601, message: "Method not found" } });
  assert.equal(a.outcome, "method_not_found");
  const b = new ProbeTap();
  b.sent({ jsonrpc: "2.0", id: 3, method: "server/discover" });
  b.received({ jsonrpc: "2.0", id: 3, result: { supportedVersions: ["2099-01-01"] } });
  assert.equal(b.outcome, "version_not_advertised");
  const c = new ProbeTap();
  c.sent({ jsonrpc: "2.0", id: 4, method: "server/discover" });
  c.received({ jsonrpc: "2.0", id: 4, result: { supportedVersions: ["2026-07-28"] } });
  assert.equal(c.outcome, "modern");
});

Deno.test("exposeTools: a mapping key may be the catalog's kebab name; a key the server lacks gets a suggestion", () => {
  const tools = [{ name: "list_items", annotations: { readOnlyHint: true } }, { name: "get_user" }];
  const errors: import("../../../src/upstream/types.ts").ConfigError[] = [];
  const mapping = parseToolMap(
    { "list-items": { effect: "read" }, get_user: { effect: "read" }, "purge-item": { effect: "write" } },
    "upstreams.fx.tools",
    errors,
  );
  assert.deepEqual(errors, []);
  const e = exposeTools(tools, "mcp_stdio", mapping);
  assert.deepEqual(e.entries.map((t) => [t.name, t._ptc?.upstreamName]), [
    ["list-items", "list_items"],
    ["get-user", "get_user"],
  ]);
  assert.deepEqual(e.missing, ['"purge-item"']);
  const typo = exposeTools(tools, "mcp_stdio", parseToolMap({ list_itemz: { effect: "read" } }, "t", errors));
  assert.deepEqual(typo.missing, ['"list_itemz" (did you mean "list_items"?)']);
});
