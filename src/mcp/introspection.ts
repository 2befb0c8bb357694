/**
 * Introspection tools (`--introspection`): read a service's contract without writing Lisp.
 * `list_api_services`, `list_service_operations {service, filter?, limit?}`,
 * `get_operation_schema {service, operation, view?}`. The schema view ends with a paste-ready, unauthenticated
 * curl template — never a credential.
 * @module
 */
import type { CatalogServer, CatalogTool } from "../engine/types.ts";
import { didYouMean } from "../core/suggest.ts";
import type { JsonObject } from "../core/json.ts";

/** A refused introspection request (unknown service or operation), listing the nearest names. */
export class IntrospectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IntrospectionError";
  }
}

/** `list_api_services`. */
export function listApiServices(catalog: CatalogServer[]): JsonObject {
  return {
    services: catalog.map((s) => ({
      name: s.name,
      description: s.description,
      status: s.status,
      operation_count: s.tools.length,
    })),
  };
}

function findService(catalog: CatalogServer[], name: string): CatalogServer {
  const s = catalog.find((c) => c.name === name);
  if (s) return s;
  const names = catalog.map((c) => c.name);
  throw new IntrospectionError(
    `unknown service '${name}'${didYouMean(name, names)}. Services: ${names.join(", ") || "(none configured)"}`,
  );
}

function findTool(service: CatalogServer, name: string): CatalogTool {
  const t = service.tools.find((x) => x.name === name || x.provenance.upstreamName === name);
  if (t) return t;
  throw new IntrospectionError(
    `unknown operation '${name}' in service '${service.name}'${didYouMean(name, service.tools.map((x) => x.name))}.` +
      " Use list_service_operations to see them all.",
  );
}

/** `list_service_operations`. */
export function listServiceOperations(
  catalog: CatalogServer[],
  args: { service: string; filter?: string; limit?: number },
): JsonObject {
  const service = findService(catalog, args.service);
  const filter = args.filter?.toLowerCase();
  const matching = service.tools.filter((t) =>
    !filter || t.name.toLowerCase().includes(filter) || t.description.toLowerCase().includes(filter)
  );
  const limit = Math.max(1, Math.min(args.limit ?? 50, 200));
  return {
    service: service.name,
    total: matching.length,
    operations: matching.slice(0, limit).map((t) => ({
      name: t.name,
      description: t.description,
      read_only: t.readOnly,
      ref: `${service.name}/${t.name}`,
    })),
  };
}

/** `get_operation_schema`. view: `full` (default) | `input` | `output`. */
export function getOperationSchema(
  catalog: CatalogServer[],
  args: { service: string; operation: string; view?: "full" | "input" | "output" },
): { json: JsonObject; text: string } {
  const service = findService(catalog, args.service);
  const tool = findTool(service, args.operation);
  const view = args.view ?? "full";
  const json: JsonObject = { service: service.name, operation: tool.name, description: tool.description };
  if (view !== "output") json.input_schema = tool.inputSchema;
  if (view !== "input" && tool.outputSchema) json.output_schema = tool.outputSchema;
  const call = `(tool/call '${service.name}/${tool.name} ${exampleArgs(tool.inputSchema)})`;
  json.lisp_call = call;
  const curl = curlTemplate(tool);
  if (curl) json.curl = curl;
  const text = [
    `${service.name}/${tool.name} — ${tool.description}`,
    view !== "output" ? `input schema:\n${JSON.stringify(tool.inputSchema, null, 2)}` : "",
    view !== "input" && tool.outputSchema ? `output schema:\n${JSON.stringify(tool.outputSchema, null, 2)}` : "",
    `PTC-Lisp:\n${call}`,
    curl ? `curl (unauthenticated template; add your own credentials):\n${curl}` : "",
  ].filter(Boolean).join("\n\n");
  return { json, text };
}

function exampleArgs(schema: JsonObject): string {
  const props = (schema.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((schema.required ?? []) as string[]);
  const parts = Object.keys(props).filter((k) => required.has(k)).map((k) =>
    `:${k.replaceAll("_", "-")} ${placeholder(props[k])}`
  );
  return `{${parts.join(" ")}}`;
}

function placeholder(schema: JsonObject | undefined): string {
  if (!schema) return "…";
  if (Array.isArray(schema.enum) && schema.enum.length) return JSON.stringify(schema.enum[0]);
  switch (schema.type) {
    case "integer":
    case "number":
      return "0";
    case "boolean":
      return "true";
    case "array":
      return "[]";
    default:
      return '"…"';
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/** A curl template for an HTTP-reachable operation, with placeholders and no credentials. */
export function curlTemplate(tool: CatalogTool): string | undefined {
  const p = tool.provenance;
  const method = typeof p.method === "string" ? p.method.toUpperCase() : undefined;
  const path = typeof p.path === "string" ? p.path : undefined;
  if (method && path) {
    const base = typeof p.baseUrl === "string" ? p.baseUrl.replace(/\/+$/, "") : "$BASE_URL";
    const props = (tool.inputSchema.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((tool.inputSchema.required ?? []) as string[]);
    const pathParams = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    // A write's provenance says which arguments travel in the JSON body and which as headers.
    const body = p.body as { mediaType?: string; args?: string[] } | undefined;
    const inBody = new Set(body?.args ?? []);
    const headers = new Set(Array.isArray(p.headerArgs) ? p.headerArgs as string[] : []);
    const shown = Object.keys(props).filter((k) => required.has(k));
    const query = shown.filter((k) => !pathParams.has(k) && !inBody.has(k) && !headers.has(k)).map((k) =>
      `${encodeURIComponent(k)}=<${k}>`
    );
    const url = base + path.replace(/\{([^}]+)\}/g, "<$1>") + (query.length ? `?${query.join("&")}` : "");
    const parts = [`curl -sS -X ${method} ${shellQuote(url)} -H 'Accept: application/json'`];
    for (const h of shown.filter((k) => headers.has(k))) parts.push(`-H ${shellQuote(`${h}: <${h}>`)}`);
    if (body?.mediaType) {
      const json = Object.fromEntries(shown.filter((k) => inBody.has(k)).map((k) => [k, `<${k}>`]));
      parts.push(`-H ${shellQuote(`Content-Type: ${body.mediaType}`)}`, `-d ${shellQuote(JSON.stringify(json))}`);
    }
    return parts.join(" ");
  }
  if (typeof p.url === "string" && p.transport === "mcp_http") {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: p.upstreamName, arguments: {} },
    });
    return `curl -sS -X POST ${shellQuote(p.url)} -H 'Content-Type: application/json' ` +
      `-H 'Accept: application/json, text/event-stream' -d ${shellQuote(body)}`;
  }
  return undefined;
}
