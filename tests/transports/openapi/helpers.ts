/**
 * Test helpers for the OpenAPI transport: a sample document, a config builder, transport deps over the real
 * redactor and credential materializer, and a loopback Hono server that records what it received.
 * @module
 */
import { Hono } from "hono";
import { createRedactor, type SecretRedactor } from "../../../src/upstream/redact.ts";
import { createMaterializer, type CredentialSpec } from "../../../src/upstream/credentials.ts";
import type { JsonObject } from "../../../src/core/json.ts";
import type { ConfigContext, TransportDeps } from "../../../src/upstream/types.ts";
import { type OpenApiConfig, parseOpenApiConfig } from "../../../transports/openapi/config.ts";
import { CompileError } from "../../../transports/openapi/compiler.ts";

/** A small OpenAPI 3.0 document exercising most compiler paths. */
export function sampleDoc(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Sample", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/api/v1/traces": {
        get: {
          operationId: "list_traces",
          summary: "List traces",
          description: "Lists the traces of an organization.",
          parameters: [
            { $ref: "#/components/parameters/OrgId" },
            { name: "environment", in: "query", schema: { type: "string", enum: ["production", "staging"] } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
            { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } } },
            { name: "page-size", in: "query", schema: { type: "integer" } },
            { name: "flag", in: "query", schema: { type: "boolean" } },
            { name: "X-Request-Id", in: "header", schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/TraceList" } } },
            },
          },
        },
        post: { operationId: "create_trace", responses: { "201": { description: "created" } } },
      },
      "/api/v1/traces/{trace_id}": {
        parameters: [{ name: "trace_id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          operationId: "getTrace",
          "x-ptc-name": "fetch-trace",
          summary: "Get a trace",
          parameters: [{ $ref: "#/components/parameters/OrgId" }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Trace" } } },
            },
            "404": { $ref: "#/components/responses/NotFound" },
          },
        },
      },
      "/api/v1/traces/{trace_id}/steps": {
        get: {
          operationId: "listTraceSteps",
          "x-ptc-default-args": { summary: true },
          "x-ptc-max-response-bytes": 4096,
          "x-ptc-result-path": "steps",
          parameters: [
            { name: "trace_id", in: "path", required: true, schema: { type: "string" } },
            { name: "summary", in: "query", required: true, schema: { type: "boolean" } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { steps: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
                  },
                },
              },
            },
          },
        },
      },
      "/api/v1/ping": {
        get: { operationId: "ping", responses: { "204": { description: "no content" } } },
      },
      "/api/v1/old": {
        get: {
          operationId: "old_thing",
          deprecated: true,
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
      "/pets": {
        get: {
          summary: "no operationId",
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array" } } } } },
        },
      },
      "/pets/{petId}": {
        get: {
          parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "200": { description: "ok", content: { "application/json": {} } } },
        },
      },
      "/report.csv": {
        get: {
          operationId: "get_report",
          responses: { "200": { description: "csv", content: { "text/csv": { schema: { type: "string" } } } } },
        },
      },
      "/with-body": {
        get: {
          operationId: "get_with_body",
          requestBody: {
            content: { "application/json": { schema: { type: "object", properties: { q: { type: "string" } } } } },
          },
          responses: { "204": { description: "none" } },
        },
      },
      "/tenant": {
        get: {
          operationId: "get_tenant",
          parameters: [{ name: "X-Tenant", in: "header", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "none" } },
        },
      },
      "/elsewhere": {
        get: {
          operationId: "get_elsewhere",
          servers: [{ url: "https://evil.example.net" }],
          responses: { "204": { description: "none" } },
        },
      },
      "/same-origin": {
        get: {
          operationId: "get_same_origin",
          servers: [{ url: "https://api.example.com/v2" }, { url: "/relative" }],
          responses: { "204": { description: "none" } },
        },
      },
      "/external": {
        get: {
          operationId: "get_external",
          parameters: [{ $ref: "other.yaml#/components/parameters/X" }],
          responses: { "204": { description: "none" } },
        },
      },
    },
    components: {
      parameters: {
        OrgId: {
          name: "org_id",
          in: "query",
          required: true,
          description: "Organization id",
          schema: { type: "string", minLength: 1, pattern: "^[a-z]+$" },
        },
      },
      responses: { NotFound: { description: "not found" } },
      schemas: {
        Trace: {
          type: "object",
          properties: {
            id: { type: "string" },
            status: { type: "string", enum: ["ok", "error"] },
            cost_usd: { type: "number", nullable: true },
            example: { type: "string", description: "a property literally named example" },
          },
          required: ["id"],
          example: { id: "t-1" },
        },
        TraceList: {
          type: "object",
          properties: {
            traces: { type: "array", items: { $ref: "#/components/schemas/Trace" } },
            next_cursor: { type: "string", nullable: true },
          },
        },
        Node: {
          type: "object",
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
          },
        },
      },
    },
  };
}

/** A ConfigContext for upstream `name`. */
export function configContext(name = "obs", credentials: string[] = []): ConfigContext {
  return {
    upstreamName: name,
    path: `upstreams.${name}`,
    configDir: "/tmp",
    credentialNames: new Set(credentials),
  };
}

/** Parse an openapi upstream entry; throws with the problems when it is invalid. */
export function parseConfig(raw: Record<string, unknown>, credentials: string[] = []): OpenApiConfig {
  const result = parseOpenApiConfig({ transport: "openapi", ...raw }, configContext("obs", credentials));
  if (Array.isArray(result)) throw new Error(result.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return result;
}

/** Transport deps over the real redactor and materializer; `logs` collects log lines. */
export function makeDeps(specs: CredentialSpec[] = []): TransportDeps & { redactor: SecretRedactor; logs: string[] } {
  const redactor = createRedactor();
  const logs: string[] = [];
  const credentials = createMaterializer(new Map(specs.map((s) => [s.name, s])), redactor);
  return {
    upstreamName: "obs",
    credentials,
    redactor,
    limits: { callTimeoutMs: 10_000, maxResponseBytes: 1024 * 1024, connectTimeoutMs: 5_000 },
    fetch: globalThis.fetch,
    log: (m) => logs.push(redactor.redact(m)),
    logs,
  };
}

/** A call context with the given limits. */
export function callCtx(timeoutMs = 5_000, maxResponseBytes = 1024 * 1024, signal = new AbortController().signal) {
  return { signal, timeoutMs, maxResponseBytes };
}

/** What the test server saw. */
export interface Seen {
  method: string;
  /** Path and query exactly as received (`/a%2Fb?x=1`). */
  target: string;
  headers: Record<string, string>;
}

/** A running loopback server. */
export interface TestServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** Serve a Hono app on 127.0.0.1 with an OS-assigned port, recording every request; `ac` aborts on close. */
export function serve(app: Hono, ac = new AbortController()): TestServer {
  const seen: Seen[] = [];
  const outer = new Hono();
  outer.use("*", async (c, next) => {
    const u = new URL(c.req.url);
    const rawTarget = c.req.raw.url.slice(u.origin.length);
    seen.push({ method: c.req.method, target: rawTarget, headers: Object.fromEntries(c.req.raw.headers) });
    await next();
  });
  outer.route("/", app);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, outer.fetch);
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    seen,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

/** The problems of the CompileError `fn` throws (fails when it throws none). */
export function compileProblems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof CompileError) return e.problems;
    throw e;
  }
  throw new Error("expected a CompileError");
}

/** JSON object helper for args. */
export function args(o: Record<string, unknown>): JsonObject {
  return o as JsonObject;
}

/** An OpenAPI document whose schemas share `$ref`s `levels` deep, each level referring to the next `fanout` times. */
export function exponentialRefsDoc(levels = 14, fanout = 6): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const properties: Record<string, unknown> = {};
    for (let j = 0; j < fanout; j++) {
      properties[`p${j}`] = i + 1 < levels ? { $ref: `#/components/schemas/L${i + 1}` } : { type: "string" };
    }
    schemas[`L${i}`] = { type: "object", properties };
  }
  return {
    openapi: "3.0.3",
    info: { title: "exponential", version: "1" },
    paths: {
      "/boom": {
        get: {
          operationId: "boom",
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/L0" } } },
            },
          },
        },
      },
    },
    components: { schemas },
  };
}

/** A generated OpenAPI document of `ops` GET operations, each with parameters and a 20-property response schema. */
export function bigDocument(ops: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < ops; i++) {
    const properties: Record<string, unknown> = {};
    for (let p = 0; p < 20; p++) {
      properties[`field_${p}`] = { type: "string", description: `Field ${p} of resource ${i}, `.repeat(4) };
    }
    paths[`/resources${i}/{id}`] = {
      get: {
        operationId: `getResource${i}`,
        summary: `Get resource ${i}`,
        description: "A generated operation of the hostile overlay tests. ".repeat(4),
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "expand", in: "query", schema: { type: "array", items: { type: "string" } } },
        ],
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { type: "object", properties } } },
          },
        },
      },
    };
  }
  return { openapi: "3.1.0", info: { title: "Big", version: "1" }, paths };
}
