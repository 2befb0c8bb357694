import assert from "node:assert/strict";
import { curlTemplate } from "../../src/mcp/introspection.ts";
import type { CatalogTool } from "../../src/engine/types.ts";

const tool = (provenance: Record<string, unknown>, properties: Record<string, unknown>, required: string[]) =>
  ({
    name: "t",
    description: "",
    inputSchema: { type: "object", properties, required },
    readOnly: false,
    effect: "write",
    provenance: { baseUrl: "https://api.example.com/v1", ...provenance },
  }) as unknown as CatalogTool;

Deno.test("curl template: a write's body arguments go in a JSON body, header arguments as headers", () => {
  const curl = curlTemplate(tool({
    method: "PATCH",
    path: "/items/{item_id}",
    body: { mediaType: "application/merge-patch+json", args: ["status", "note"] },
    headerArgs: ["if-match"],
  }, {
    item_id: { type: "string" },
    "if-match": { type: "string" },
    status: { type: "string" },
    note: { type: "string" },
    dry_run: { type: "boolean" },
  }, ["item_id", "if-match", "status", "dry_run"]));
  assert.equal(
    curl,
    "curl -sS -X PATCH 'https://api.example.com/v1/items/<item_id>?dry_run=<dry_run>' -H 'Accept: application/json' " +
      `-H 'if-match: <if-match>' -H 'Content-Type: application/merge-patch+json' -d '{"status":"<status>"}'`,
  );
});

Deno.test("curl template: a GET keeps its required arguments in the query string, with no body", () => {
  const curl = curlTemplate(tool({ method: "GET", path: "/items" }, { q: { type: "string" } }, ["q"]));
  assert.equal(curl, "curl -sS -X GET 'https://api.example.com/v1/items?q=<q>' -H 'Accept: application/json'");
});
