import assert from "node:assert/strict";
import { lispEvalAnnotations } from "../../src/mcp/server.ts";
import type { CatalogServer, CatalogTool } from "../../src/engine/types.ts";

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
    assert.deepEqual(lispEvalAnnotations(catalog), {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  }
  const writes = lispEvalAnnotations([server([tool("a", "read")]), server([tool("w", "write")])]);
  assert.equal(writes.readOnlyHint, false);
  assert.equal(writes.destructiveHint, true);
});
