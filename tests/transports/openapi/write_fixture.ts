/**
 * A loopback notes service with write operations and its OpenAPI document, for the OpenAPI write tests: every
 * request is recorded (method, target, headers, body) before it is answered, so a test can count what reached the
 * service — including a write that times out or is cut off after the service received it.
 * @module
 */
import { Hono } from "hono";
import { sleep } from "./server_fixture.ts";

/** One request the service received. */
export interface Received {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

/** A running notes service. */
export interface NotesService {
  url: string;
  received: Received[];
  /** Requests received for `method` + path prefix. */
  count(method: string, pathPrefix: string): number;
  close(): Promise<void>;
}

/** Start the service on 127.0.0.1 with an OS-assigned port. `token` is the bearer token it accepts. */
export function startNotesService(token = "notes-token"): NotesService {
  const ac = new AbortController();
  const received: Received[] = [];
  const app = new Hono();
  app.use("*", async (c, next) => {
    const u = new URL(c.req.url);
    received.push({
      method: c.req.method,
      target: c.req.raw.url.slice(u.origin.length),
      headers: Object.fromEntries(c.req.raw.headers),
      body: await c.req.text(), // Hono caches it for the handler
    });
    if (c.req.header("authorization") !== `Bearer ${token}`) return c.json({ title: "Unauthorized" }, 401);
    await next();
  });
  app.post("/notes", async (c) => {
    const body = await c.req.json();
    return c.json({ id: "n-1", ...body, key: c.req.header("idempotency-key") ?? null }, 201);
  });
  app.post("/notes/query", async (c) => c.json({ notes: [{ id: "n-1" }], filter: await c.req.json() }));
  app.put("/notes/:id", (c) => c.body(null, 201));
  app.patch("/notes/:id", (c) => c.body(null, 200));
  app.delete("/notes/:id", (c) => c.body(null, 204));
  app.post("/outcome/:code", (c) => {
    const code = Number(c.req.param("code"));
    if (code === 422) {
      return c.json({ title: "Unprocessable", errors: [{ field: "title", message: "too short" }] }, 422);
    }
    return c.json({ error: { message: `status ${code}` } }, code as 200);
  });
  app.post("/slow", async (c) => {
    await sleep(5_000, ac.signal);
    return c.json({ late: true }, 201);
  });
  app.post("/reset", () => {
    // headers go out, then the body stream fails: the connection is cut mid-answer
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ === 0) controller.enqueue(new TextEncoder().encode('{"partial": '));
        else controller.error(new DOMException("the test cuts the connection", "AbortError"));
      },
    });
    return new Response(body, { status: 201, headers: { "content-type": "application/json" } });
  });
  app.post("/big", (c) => c.json({ data: "y".repeat(20_000) }, 201));
  app.post("/moved", (c) => c.redirect("/notes", 301));
  app.post("/see-other", (c) => c.redirect("/notes", 303));
  app.post("/see-nothing", (c) => c.redirect("/nothing-here", 303));
  app.get("/notes", (c) => c.json({ notes: [{ id: "n-1" }] }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, app.fetch);
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    received,
    count: (method, prefix) => received.filter((r) => r.method === method && r.target.startsWith(prefix)).length,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

const created = { "201": { description: "created", content: { "application/json": { schema: { type: "object" } } } } };
const noContent = { "204": { description: "none" } };
const noteId = { name: "note_id", in: "path", required: true, schema: { type: "string" } };
const jsonBody = (schema: unknown, required = true, type = "application/json") => ({
  required,
  content: { [type]: { schema } },
});

/** The document of the notes service (OpenAPI 3.1). */
export function notesDoc(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "notes", version: "1" },
    paths: {
      "/notes": {
        get: {
          operationId: "list-notes",
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
        post: {
          operationId: "create-note",
          summary: "Create a note",
          parameters: [
            { name: "Idempotency-Key", in: "header", schema: { type: "string", maxLength: 64 } },
            { name: "dry-run", in: "query", schema: { type: "boolean" } },
          ],
          requestBody: jsonBody({ $ref: "#/components/schemas/NewNote" }),
          responses: created,
        },
      },
      "/notes/query": {
        post: {
          operationId: "query-notes",
          "x-ptc-read-only": true,
          requestBody: jsonBody({
            type: "object",
            properties: { text: { type: "string" }, limit: { type: "integer", minimum: 1 } },
          }, false),
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
      "/notes/{note_id}": {
        parameters: [noteId],
        put: {
          operationId: "replace-note",
          parameters: [{ name: "If-Match", in: "header", required: true, schema: { type: "string" } }],
          requestBody: jsonBody({
            allOf: [{ $ref: "#/components/schemas/NewNote" }, {
              type: "object",
              properties: { version: { type: "integer" } },
              required: ["version"],
            }],
          }),
          responses: created,
        },
        patch: {
          operationId: "patch-note",
          requestBody: jsonBody(
            { type: "object", properties: { title: { type: "string" } } },
            false,
            "application/merge-patch+json",
          ),
          responses: { "200": { description: "ok" } },
        },
        delete: { operationId: "delete-note", responses: noContent },
      },
      "/outcome/{code}": {
        post: {
          operationId: "write-outcome",
          parameters: [{ name: "code", in: "path", required: true, schema: { type: "integer" } }],
          responses: created,
        },
      },
      "/slow": { post: { operationId: "slow-write", responses: created } },
      "/reset": { post: { operationId: "reset-write", responses: created } },
      "/big": { post: { operationId: "big-write", responses: created } },
      "/moved": { post: { operationId: "moved-write", responses: created } },
      "/see-other": { post: { operationId: "see-other-write", responses: created } },
      "/see-nothing": { post: { operationId: "see-nothing-write", responses: created } },
    },
    components: {
      schemas: {
        NewNote: {
          type: "object",
          properties: {
            id: { type: "string", readOnly: true },
            title: { type: "string", minLength: 1, description: "The note's title" },
            body_text: { type: "string" },
            "tag-list": { type: "array", items: { type: "string" } },
            meta: { type: "object", properties: { pinned: { type: "boolean" } } },
          },
          required: ["id", "title"],
        },
      },
    },
  };
}

/**
 * Write a ptc config for the service into `dir` (with `notes.json`, and `token` holding `token`): upstream `notes`
 * with every operation of {@link notesDoc} declared (writes allowed by the config) and a 500 ms request timeout.
 * `extra` adds top-level keys; `upstream` adds or replaces keys of the upstream entry. Returns the config path.
 */
export async function writeNotesConfig(
  dir: string,
  url: string,
  options: { token?: string; extra?: Record<string, unknown>; upstream?: Record<string, unknown> } = {},
): Promise<string> {
  await Deno.writeTextFile(`${dir}/notes.json`, JSON.stringify(notesDoc()));
  await Deno.writeTextFile(`${dir}/token`, options.token ?? "notes-token");
  const file = `${dir}/ptc.json`;
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      ...options.extra,
      credentials: { notes_token: { source: "file", path: "token" } },
      upstreams: {
        notes: {
          transport: "openapi",
          base_url: url,
          schema_file: "notes.json",
          allow_insecure_http: true,
          allow_insecure_auth: true,
          allow_writes: true,
          auth: [{ scheme: "bearer", binding: "notes_token" }],
          request_timeout_ms: 500,
          include_operations: Object.keys(notesOverrides()),
          operation_overrides: notesOverrides(),
          ...options.upstream,
        },
      },
    }),
  );
  return file;
}

/** Every operation of {@link notesDoc} declared: the non-GET ones as writes, query-notes as a safe query. */
export function notesOverrides(): Record<string, { effect: "read" | "write" }> {
  return {
    "create-note": { effect: "write" },
    "query-notes": { effect: "read" },
    "replace-note": { effect: "write" },
    "patch-note": { effect: "write" },
    "delete-note": { effect: "write" },
    "write-outcome": { effect: "write" },
    "slow-write": { effect: "write" },
    "reset-write": { effect: "write" },
    "big-write": { effect: "write" },
    "moved-write": { effect: "write" },
    "see-other-write": { effect: "write" },
    "see-nothing-write": { effect: "write" },
  };
}
