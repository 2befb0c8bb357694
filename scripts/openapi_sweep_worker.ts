/**
 * Worker of `scripts/openapi_sweep.ts`: loads one OpenAPI document, picks up to N GET operations and compiles
 * each alone (per-operation outcome) and then all together (collisions), posting one result message.
 * @module
 */
import { parseDocument, SchemaLoadError } from "../transports/openapi/loader.ts";
import { compileDocument, CompileError } from "../transports/openapi/compiler.ts";
import { indexOperations } from "../transports/openapi/operations.ts";
import { RefResolver } from "../transports/openapi/refs.ts";

/** What the worker posts back. */
export interface SweepDocResult {
  file: string;
  loadError?: string;
  ops: number;
  compiled: number;
  /** Failed operations outside the transport's scope by design (non-JSON responses, GET bodies). */
  outOfScope: number;
  /** Failed operations an operator fixes in config (a required header to put in static_headers). */
  needsConfig: number;
  failures: string[];
  /** Problems only seen when the chosen operations compile together (name collisions). */
  together: string[];
  /** Unexpected exceptions (bugs): message plus whether a stack trace would have leaked. */
  crashes: string[];
}

const OUT_OF_SCOPE = /has no JSON 2xx response|has a requestBody/;
const NEEDS_CONFIG = /is not supplied by the config/;

function baseUrlOf(doc: Record<string, unknown>): string {
  const servers = doc.servers as { url?: string; variables?: Record<string, { default?: string }> }[] | undefined;
  const first = Array.isArray(servers) ? servers.find((s) => typeof s?.url === "string") : undefined;
  if (!first?.url) return "https://api.example.invalid";
  const expanded = first.url.replace(/\{([^}]+)\}/g, (_, v) => String(first.variables?.[v]?.default ?? "x"));
  try {
    const u = new URL(expanded, "https://api.example.invalid");
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : "https://api.example.invalid";
  } catch {
    return "https://api.example.invalid";
  }
}

function sweep(file: string, text: string, perDoc: number): SweepDocResult {
  const out: SweepDocResult = {
    file,
    ops: 0,
    compiled: 0,
    outOfScope: 0,
    needsConfig: 0,
    failures: [],
    together: [],
    crashes: [],
  };
  let loaded;
  try {
    loaded = parseDocument(text, file, file.endsWith(".json") ? "json" : "auto");
  } catch (e) {
    if (e instanceof SchemaLoadError) out.loadError = e.message;
    else out.crashes.push(`load: ${e instanceof Error ? e.message : String(e)}`);
    return out;
  }
  const index = indexOperations(loaded.doc, new RefResolver(loaded.doc));
  const ids = [...index.byId.entries()].filter(([, refs]) => refs.length === 1 && refs[0].method === "GET")
    .map(([id]) => id).slice(0, perDoc);
  out.ops = ids.length;
  const base = {
    upstreamName: "sweep",
    path: "upstreams.sweep",
    baseUrl: baseUrlOf(loaded.doc).replace(/\/+$/, ""),
    operationOverrides: {},
    maxResponseBytes: 2 * 1024 * 1024,
    readOnly: false,
  };
  for (const id of ids) {
    try {
      compileDocument(loaded.doc, loaded.version, { ...base, includeOperations: [id] });
      out.compiled++;
    } catch (e) {
      if (e instanceof CompileError) {
        out.failures.push(...e.problems);
        if (e.problems.some((p) => OUT_OF_SCOPE.test(p))) out.outOfScope++;
        else if (e.problems.every((p) => NEEDS_CONFIG.test(p))) out.needsConfig++;
      } else out.crashes.push(`${id}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    }
  }
  if (ids.length > 1) {
    try {
      compileDocument(loaded.doc, loaded.version, { ...base, includeOperations: ids });
    } catch (e) {
      if (e instanceof CompileError) out.together.push(...e.problems.filter((p) => /tool name/.test(p)));
      else out.crashes.push(`together: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/** The worker scope (typed locally: this file is checked with the window lib). */
const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ file: string; perDoc: number }>) => void;
  postMessage(message: SweepDocResult): void;
};

scope.onmessage = async (event) => {
  const { file, perDoc } = event.data;
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    const failed = { ops: 0, compiled: 0, outOfScope: 0, needsConfig: 0, failures: [], together: [], crashes: [] };
    scope.postMessage({ file, ...failed, loadError: String(e) });
    return;
  }
  scope.postMessage(sweep(file, text, perDoc));
};
