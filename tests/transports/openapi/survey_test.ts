/**
 * The document survey behind `ptc init openapi` and `ptc catalog --operations`: a non-GET operation that compiles once
 * declared is listed as not included, with the exact override to add; one that would not compile says why.
 */
import assert from "node:assert/strict";
import { surveyDocument } from "../../../transports/openapi/survey.ts";
import { renderInitConfig } from "../../../transports/openapi/init_config.ts";
import { notesDoc } from "./write_fixture.ts";

function survey(doc = notesDoc()) {
  const ops = surveyDocument(doc, "3.1", {
    upstreamName: "notes",
    path: "upstreams.notes",
    baseUrl: "https://n.example",
    maxResponseBytes: 1 << 20,
  });
  return Object.fromEntries(ops.map((o) => [o.id, o]));
}

Deno.test("survey: writes and safe queries are listed with the override to add, never included", () => {
  const ops = survey();
  assert.equal(ops["list-notes"].tool, "list-notes");
  const create = ops["create-note"];
  assert.equal(create.tool, undefined);
  assert.equal(create.declare, "write");
  assert.deepEqual(create.problems, [
    'a write (POST); to include it add "operation_overrides": {"create-note": {"effect": "write"}} and ' +
    '"allow_writes": true, and start ptc with --allow-writes; if it only reads (a search or query), declare ' +
    '{"effect": "read"} instead',
  ]);
  assert.doesNotMatch(ops["delete-note"].problems[0], /only reads/, "a DELETE is never offered as a read");
  assert.equal(ops["delete-note"].declare, "write");
  const query = ops["query-notes"];
  assert.equal(query.declare, "read", "the document's x-ptc-read-only: true suggests a safe query");
  assert.deepEqual(query.problems, [
    "a POST the document marks x-ptc-read-only: true; if it is a safe query, include it and add " +
    '"operation_overrides": {"query-notes": {"effect": "read"}}',
  ]);
});

Deno.test("survey: a write that would not compile says why, without an override hint", () => {
  const doc = notesDoc() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  doc.paths["/notes"].post.requestBody = { content: { "multipart/form-data": { schema: { type: "object" } } } };
  const create = survey(doc)["create-note"];
  assert.equal(create.declare, undefined);
  assert.match(create.problems.join("\n"), /request body media type "multipart\/form-data" is not supported/);
});

Deno.test("init config: a write is commented out with its reason and the override", () => {
  const text = renderInitConfig({
    name: "notes",
    schema: { schema_file: "notes.json" },
    baseUrl: { url: "https://n.example", origin: "flag" },
    title: "notes",
    source: "notes.json",
    operations: Object.values(survey()),
    securitySchemes: {},
    requiredSchemes: [],
  });
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes('// "create-note", // POST /notes'));
  assert.ok(at > 0, text);
  assert.match(
    lines[at + 1],
    /not included: a write \(POST\); to include it add "operation_overrides": \{"create-note": \{"effect": "write"\}\}/,
  );
  assert.match(text, /^ {8}"list-notes", \/\/ GET \/notes → list-notes$/m);
});
