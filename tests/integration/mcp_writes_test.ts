/**
 * OpenAPI writes as an MCP client sees them: `ptc mcp --http` over a loopback service with one write and one safe
 * POST query, driven by the official MCP SDK client. `lisp_eval` is read-only (and says nothing of writes) when the
 * gate withholds every write tool, destructive with the writes card and the write budget when one is installed; an
 * evaluation that wrote ends with the `Writes:` line and carries `writes` in its structured content; introspection's curl
 * template sends the write's body as JSON.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { startNotesService, writeNotesConfig } from "../transports/openapi/write_fixture.ts";
import { connectHttp, evalLisp, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";

type Annotations = Record<string, boolean>;

async function withServer(
  config: string,
  flags: string[],
  fn: (
    lisp: { annotations: Annotations; description: string },
    call: (p: string) => Promise<unknown>,
    client: Client,
  ) => Promise<void>,
) {
  const server = await spawnHttpServer(["--upstreams-config", config, ...flags], { PTC_ALLOW_WRITES: "" });
  try {
    const client = await connectHttp("auto", server.url);
    try {
      const lisp = (await client.listTools()).tools.find((t) => t.name === "lisp_eval")!;
      await fn(
        { annotations: lisp.annotations as Annotations, description: lisp.description ?? "" },
        (program) => evalLisp(client, program),
        client,
      );
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
}

Deno.test("ptc mcp: lisp_eval's annotations, description and results follow the write gate", async () => {
  const service = startNotesService("notes-token");
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-writes-" });
  try {
    const config = await writeNotesConfig(dir, service.url, {
      upstream: {
        include_operations: ["list-notes", "create-note", "query-notes"],
        operation_overrides: { "create-note": { effect: "write" }, "query-notes": { effect: "read" } },
      },
    });
    const create = `(:mutation_state (tool/call 'notes/create-note {:title "via mcp"}))`;
    const closedGate = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

    for (const flags of [[], ["--allow-writes", "--read-only"]]) {
      await withServer(config, flags, async (lisp, call) => {
        assert.deepEqual(lisp.annotations, closedGate, `${flags}: no write tool installed`);
        assert.doesNotMatch(lisp.description, /mutation_state|create-note|of them writes/);
        const refused = await call(create) as { isError?: boolean };
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), flags.length ? /read-only mode/ : /started without --allow-writes/);
      });
    }
    assert.equal(service.count("POST", "/notes"), 0, "a withheld write never reaches the service");

    await withServer(
      config,
      ["--allow-writes", "--response-profile", "structured", "--introspection"],
      async (lisp, call, client) => {
        assert.deepEqual(lisp.annotations, {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: true,
        });
        assert.match(lisp.description, /notes\/create-note \[write\]/);
        assert.match(lisp.description, /50 tool calls \(each page of tool\/pages is one\), 5 of them writes/);
        assert.match(lisp.description, /:mutation_state :applied, :not_applied or :indeterminate/);
        const wrote = await call(create) as { structuredContent: Record<string, unknown> };
        assert.equal(textOf(wrote), ":applied\n\nWrites: notes/create-note applied");
        assert.deepEqual(wrote.structuredContent.writes, [
          { server: "notes", tool: "create-note", mutation_state: "applied" },
        ]);
        const query = await call(`(:ok (tool/call 'notes/query-notes {:text "mcp"}))`) as {
          structuredContent: Record<string, unknown>;
        };
        assert.equal(textOf(query), "true", "a safe query is a read: no Writes line");
        assert.equal(query.structuredContent.writes, undefined);
        // the introspection curl template sends a write's body as JSON, not its arguments as a query string
        const schema = await client.callTool({
          name: "get_operation_schema",
          arguments: { service: "notes", operation: "create-note" },
        }) as { structuredContent: { curl: string } };
        assert.equal(
          schema.structuredContent.curl,
          `curl -sS -X POST '${service.url}/notes' -H 'Accept: application/json' -H 'Content-Type: application/json' ` +
            `-d '{"title":"<title>"}'`,
        );
      },
    );
    const posts = service.received.filter((r) => r.method === "POST").map((r) => r.target);
    assert.deepEqual(posts, ["/notes", "/notes/query"], "one write, one query, nothing else sent");
  } finally {
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
});
