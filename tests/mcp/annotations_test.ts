import assert from "node:assert/strict";
import { lispEvalAnnotations } from "../../src/mcp/server.ts";
import { limitsCard, limitsInView, lispEvalDescription, WRITES_CARD } from "../../src/mcp/card.ts";
import type { CatalogServer, CatalogTool } from "../../src/engine/types.ts";
import type { RunLimits } from "../../src/upstream/config.ts";

const tool = (name: string, effect: "read" | "write"): CatalogTool => ({
  name,
  description: "",
  inputSchema: {},
  readOnly: effect === "read",
  effect,
  provenance: {},
});
const server = (tools: CatalogTool[]) =>
  ({ name: "s", description: "", transport: "t", status: "ready", tools }) as CatalogServer;

Deno.test("lisp_eval is read-only and non-destructive unless a write tool is installed", () => {
  for (const catalog of [[], [server([])], [server([tool("a", "read"), tool("b", "read")])]]) {
    const a = lispEvalAnnotations(catalog);
    assert.deepEqual(
      { readOnlyHint: a.readOnlyHint, destructiveHint: a.destructiveHint, idempotentHint: a.idempotentHint },
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    );
  }
  const writes = lispEvalAnnotations([server([tool("a", "read")]), server([tool("w", "write")])]);
  assert.equal(writes.readOnlyHint, false);
  assert.equal(writes.destructiveHint, true);
});

Deno.test("lisp_eval is open-world whenever a program can reach an upstream tool, closed when it only computes", () => {
  assert.equal(lispEvalAnnotations([]).openWorldHint, false);
  assert.equal(lispEvalAnnotations([server([])]).openWorldHint, false);
  assert.equal(lispEvalAnnotations([server([tool("a", "read")])]).openWorldHint, true, "reads reach a service too");
  assert.equal(lispEvalAnnotations([server([tool("w", "write")])]).openWorldHint, true);
});

const LIMITS = {
  maxToolCalls: 50,
  maxWriteCalls: 3,
  maxCatalogOps: 25,
  callTimeoutMs: 5000,
  connectTimeoutMs: 5000,
  maxResponseBytes: 2 * 1024 * 1024,
  maxCatalogResultBytes: 262144,
} as RunLimits;

Deno.test("the lisp_eval description states the write budget and mutation states only when a write tool is installed", () => {
  const reads = limitsCard(limitsInView(10_000, LIMITS));
  assert.doesNotMatch(reads, /writes/);
  const writes = limitsCard(limitsInView(10_000, LIMITS, true));
  assert.match(writes, /50 tool calls \(each page of tool\/pages is one\), 3 of them writes, /);
  const describe = (w: boolean) =>
    lispEvalDescription({
      hasTools: true,
      catalogText: "",
      slim: true,
      limits: limitsInView(10_000, LIMITS, w),
      writes: w,
    });
  assert.ok(describe(true).includes(WRITES_CARD));
  assert.match(WRITES_CARD, /:mutation_state :applied, :not_applied or :indeterminate/);
  assert.match(WRITES_CARD, /never retried/);
  assert.ok(!describe(false).includes("mutation_state"));
});
