/**
 * Loads an OpenAPI 3.0 / 3.1 document (JSON or YAML) from a file or an HTTPS URL, once, at upstream start.
 * The byte cap is checked before parsing (file size; streamed for URLs). Errors are single clear lines.
 * @module
 */
import { parse as parseYaml } from "yaml";
import { guardedFetch } from "../../src/upstream/http_client.ts";

/** A loading failure: `code` is a closed diagnostic code, `message` one non-secret line. */
export class SchemaLoadError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "SchemaLoadError";
  }
}

/** A parsed document and the facts about it. */
export interface LoadedDocument {
  doc: Record<string, unknown>;
  /** `3.0` or `3.1` (3.2 documents are read as 3.1). */
  version: "3.0" | "3.1";
  /** Where it came from, for messages (`schema_file /abs/x.yaml` or `schema_url https://…`). */
  source: string;
  bytes: number;
}

/** Options of a URL load. */
export interface UrlLoadOptions {
  maxBytes: number;
  timeoutMs: number;
  connectTimeoutMs?: number;
  headers: Record<string, string>;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

/** Read and parse a schema file (size checked before reading). */
export async function loadSchemaFile(path: string, maxBytes: number): Promise<LoadedDocument> {
  const source = `schema_file ${path}`;
  let size: number;
  try {
    size = (await Deno.stat(path)).size;
  } catch (error) {
    throw new SchemaLoadError("schema_unreadable", `${source}: ${fileProblem(error)}`);
  }
  if (size > maxBytes) {
    throw new SchemaLoadError(
      "schema_too_large",
      `${source}: ${size} bytes exceeds schema_max_bytes (${maxBytes}); raise schema_max_bytes`,
    );
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new SchemaLoadError("schema_unreadable", `${source}: ${fileProblem(error)}`);
  }
  return parseDocument(text, source, path.toLowerCase().endsWith(".json") ? "json" : "auto");
}

/** Fetch and parse a schema over HTTPS through the guarded client (no cross-origin redirects, streamed cap). */
export async function loadSchemaUrl(url: string, options: UrlLoadOptions): Promise<LoadedDocument> {
  const source = `schema_url ${safeUrl(url)}`;
  const result = await guardedFetch(url, {
    method: "GET",
    headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.5", ...options.headers },
    timeoutMs: options.timeoutMs,
    connectTimeoutMs: options.connectTimeoutMs,
    maxResponseBytes: options.maxBytes,
    fetch: options.fetch,
    signal: options.signal,
  });
  if (!result.ok) {
    const hint = result.kind === "response_too_large" ? "; raise schema_max_bytes" : "";
    throw new SchemaLoadError(`schema_${result.kind}`, `${source}: ${result.message}${hint}`);
  }
  if (result.status < 200 || result.status > 299) {
    throw new SchemaLoadError("schema_http_status", `${source}: the server answered HTTP ${result.status}`);
  }
  const text = new TextDecoder().decode(result.bodyBytes);
  const type = result.headers.get("content-type") ?? "";
  return parseDocument(text, source, /json/i.test(type) ? "json" : "auto");
}

/**
 * Parse document text. `auto` picks JSON when the first non-blank character is `{`, YAML otherwise. Checks that the
 * result is an OpenAPI 3.0/3.1 object with a `paths` object.
 */
export function parseDocument(text: string, source: string, format: "json" | "yaml" | "auto"): LoadedDocument {
  const bytes = new TextEncoder().encode(text).byteLength;
  const kind = format === "auto" ? (/^\s*\{/.test(text) ? "json" : "yaml") : format;
  let doc: unknown;
  if (kind === "json") {
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new SchemaLoadError("schema_parse_failed", `${source}: invalid JSON (${jsonProblem(error, text)})`);
    }
  } else {
    try {
      doc = parseYaml(text, { maxAliasCount: YAML_MAX_ALIAS_COUNT, uniqueKeys: false });
    } catch (error) {
      // The yaml package reads two debug variables while parsing: without that grant the text is not at fault.
      if (error instanceof Deno.errors.NotCapable) {
        throw new SchemaLoadError(
          "schema_parse_failed",
          `${source}: reading YAML needs --allow-env=${
            YAML_ENV.join(",")
          } (run with the flags \`ptc permissions\` prints)`,
        );
      }
      throw new SchemaLoadError("schema_parse_failed", `${source}: invalid YAML (${yamlProblem(error)})`);
    }
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new SchemaLoadError("schema_not_openapi", `${source}: the document is not an object`);
  }
  const obj = doc as Record<string, unknown>;
  if (typeof obj.swagger === "string" || typeof obj.swagger === "number") {
    throw new SchemaLoadError(
      "schema_unsupported_version",
      `${source}: Swagger ${obj.swagger} documents are not supported; convert it to OpenAPI 3 (e.g. swagger2openapi)`,
    );
  }
  const v = typeof obj.openapi === "string" ? obj.openapi : undefined;
  if (v === undefined) {
    throw new SchemaLoadError("schema_not_openapi", `${source}: not an OpenAPI document (no "openapi" version field)`);
  }
  let version: "3.0" | "3.1";
  if (/^3\.0(\.|$)/.test(v)) version = "3.0";
  else if (/^3\.[1-9](\.|$)/.test(v)) version = "3.1";
  else {
    throw new SchemaLoadError(
      "schema_unsupported_version",
      `${source}: OpenAPI version "${v.slice(0, 20)}" is not supported (3.0 and 3.1 are)`,
    );
  }
  if (obj.paths !== undefined && (obj.paths === null || typeof obj.paths !== "object" || Array.isArray(obj.paths))) {
    throw new SchemaLoadError("schema_not_openapi", `${source}: "paths" must be an object`);
  }
  return { doc: obj, version, source, bytes };
}

/** A URL without userinfo, query or fragment (for messages). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(malformed URL)";
  }
}

/** A file-reading failure in a few words (no platform text). */
export function fileProblem(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "no such file";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied (check --allow-read)";
  if (error instanceof Deno.errors.IsADirectory) return "is a directory";
  if (error instanceof TypeError) return "the file is not valid UTF-8 text";
  return error instanceof Error ? error.name : "cannot be read";
}

function jsonProblem(error: unknown, text: string): string {
  const msg = error instanceof Error ? error.message : "";
  const m = /position (\d+)/.exec(msg);
  if (m) {
    const pos = Number(m[1]);
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const column = pos - before.lastIndexOf("\n");
    return `line ${line}, column ${column}`;
  }
  return "unexpected end or token";
}

/** The environment variables the `yaml` package reads while parsing (its debug switches). */
export const YAML_ENV = ["LOG_STREAM", "LOG_TOKENS"];

/** The most alias expansions a YAML text may make (the `yaml` package's `maxAliasCount`): alias bombs stop here. */
export const YAML_MAX_ALIAS_COUNT = 1000;

/** A YAML parse failure as `<code> at line L, column C`. */
export function yamlProblem(error: unknown): string {
  // The package's alias checks throw a ReferenceError with no code or position: the text is valid YAML syntax.
  if (error instanceof ReferenceError) {
    if (/^Excessive alias count/.test(error.message)) {
      return `its aliases expand too much: more than the ${YAML_MAX_ALIAS_COUNT} alias expansions ptc allows`;
    }
    const unresolved = /^Unresolved alias .*: (\S{1,64})$/.exec(error.message);
    if (unresolved) return `alias *${unresolved[1]} names no anchor set before it`;
  }
  const e = error as { linePos?: { line: number; col: number }[]; code?: string; message?: string };
  const pos = e.linePos?.[0];
  const code = typeof e.code === "string" ? e.code.toLowerCase().replace(/_/g, " ") : "syntax error";
  return pos ? `${code} at line ${pos.line}, column ${pos.col}` : code;
}
