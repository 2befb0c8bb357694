/**
 * An OpenAPI document named on the command line (`ptc init openapi DOC`, `ptc catalog --operations DOC`): a file
 * path or an http(s) URL, loaded with the transport's own loader and caps, the `--overlay` files applied in order as
 * an upstream start applies its `overlays`, then surveyed operation by operation.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import {
  type LoadedDocument,
  loadSchemaFile,
  loadSchemaUrl,
  SchemaLoadError,
} from "../../transports/openapi/loader.ts";
import { SCHEMA_MAX_BYTES } from "../../transports/openapi/config.ts";
import { loadOverlays, OverlayError } from "../../transports/openapi/overlay.ts";
import { applyOverlays } from "../../transports/openapi/overlay_apply.ts";
import { surveyDocument, type SurveyedOperation } from "../../transports/openapi/survey.ts";
import { isReservedHeader } from "../upstream/headers.ts";

/** A loaded document and where it came from. */
export interface CliDocument {
  loaded: LoadedDocument;
  /** `file` with an absolute path, or `url`. */
  kind: "file" | "url";
  location: string;
  /** The overlay files applied (absolute paths, in order). */
  overlays: string[];
  /** What applying them warned about (a target matching nothing, a safety setting kept). */
  warnings: string[];
}

/**
 * Load DOC (file or URL) and apply the `overlays` files (relative to the working directory). `maxBytes` raises (or
 * lowers) the size cap (`--schema-max-bytes`). Throws an Error.
 */
export async function loadCliDocument(
  doc: string,
  overlays: readonly string[] = [],
  maxBytes?: number,
): Promise<CliDocument> {
  const cli = await loadCliDocumentOnly(doc, maxBytes);
  cli.overlays = overlays.map((o) => (isAbsolute(o) ? o : resolve(Deno.cwd(), o)));
  try {
    cli.warnings = applyOverlays(cli.loaded.doc, await loadOverlays(cli.overlays), cli.loaded.version);
  } catch (e) {
    if (e instanceof OverlayError) throw new Error(e.message);
    throw e;
  }
  return cli;
}

async function loadCliDocumentOnly(doc: string, maxBytes?: number): Promise<CliDocument> {
  try {
    if (/^https?:\/\//i.test(doc)) {
      const loaded = await loadSchemaUrl(doc, {
        maxBytes: maxBytes ?? SCHEMA_MAX_BYTES.url,
        timeoutMs: 30_000,
        connectTimeoutMs: 10_000,
        headers: {},
        fetch: globalThis.fetch,
      });
      return { loaded, kind: "url", location: new URL(doc).href, overlays: [], warnings: [] };
    }
    const path = isAbsolute(doc) ? doc : resolve(Deno.cwd(), doc);
    const loaded = await loadSchemaFile(path, maxBytes ?? SCHEMA_MAX_BYTES.file);
    return { loaded, kind: "file", location: path, overlays: [], warnings: [] };
  } catch (e) {
    // From the command line the cap is a flag, not a config key.
    if (e instanceof SchemaLoadError) {
      throw new Error(e.message.replace("raise schema_max_bytes", "pass --schema-max-bytes N"));
    }
    throw e;
  }
}

/**
 * The document's first absolute server URL (variables filled with their defaults; relative ones resolved against a
 * URL source, skipped for a file) and its index in `servers`.
 */
export function documentBaseUrl(cli: CliDocument): { url: string; index: number; note?: string } | undefined {
  const servers = cli.loaded.doc.servers;
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const note = servers.length > 1 ? `the document lists ${servers.length} servers` : undefined;
  for (
    const [index, s] of (servers as { url?: unknown; variables?: Record<string, { default?: unknown }> }[])
      .entries()
  ) {
    if (!s || typeof s.url !== "string") continue;
    const vars = s.variables ?? {};
    const filled = s.url.replace(/\{([^}]+)\}/g, (_, v) => String(vars[v]?.default ?? `{${v}}`));
    if (/[{}]/.test(filled)) continue;
    let url: URL;
    try {
      url = cli.kind === "url" ? new URL(filled, cli.location) : new URL(filled);
    } catch {
      continue; // relative to a file: no base to resolve against
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") continue;
    url.search = "";
    url.hash = "";
    return { url: url.href.replace(/\/+$/, ""), index, note };
  }
  return undefined;
}

/** Header names that a config built from the document's required security schemes would send. */
/** What `ptc init`'s auth plan would send for the required schemes: headers, query parameters, cookies. */
export interface SuppliedByAuth {
  suppliedHeaders: Set<string>;
  suppliedQuery: Set<string>;
  suppliedCookies: Set<string>;
}

/** The headers, query parameters and cookies the required schemes' emitters send (as `ptc init` writes them). */
export function schemeSupplied(doc: Record<string, unknown>, required: string[]): SuppliedByAuth {
  const schemes = securitySchemes(doc);
  const out: SuppliedByAuth = { suppliedHeaders: new Set(), suppliedQuery: new Set(), suppliedCookies: new Set() };
  for (const name of required) {
    const s = schemes[name] as Record<string, unknown> | undefined;
    if (!s) continue;
    if (s.type === "apiKey" && s.in === "header" && typeof s.name === "string") {
      // ptc init writes no emitter for a protocol header (the config refuses one), so it is not supplied.
      if (!isReservedHeader(s.name)) out.suppliedHeaders.add(s.name.toLowerCase());
    } else if (s.type === "apiKey" && s.in === "query" && typeof s.name === "string") out.suppliedQuery.add(s.name);
    else if (s.type === "apiKey" && s.in === "cookie" && typeof s.name === "string") out.suppliedCookies.add(s.name);
    else if (s.type === "http" || s.type === "oauth2" || s.type === "openIdConnect") {
      out.suppliedHeaders.add("authorization");
    }
  }
  return out;
}

/** `components.securitySchemes` (an empty object when absent). */
export function securitySchemes(doc: Record<string, unknown>): Record<string, unknown> {
  const c = doc.components as { securitySchemes?: unknown } | undefined;
  const s = c?.securitySchemes;
  return s && typeof s === "object" && !Array.isArray(s) ? s as Record<string, unknown> : {};
}

/**
 * The schemes the document requires: the first top-level `security` requirement, else the first non-empty one of
 * any operation.
 */
export function requiredSchemes(doc: Record<string, unknown>): string[] {
  const first = (security: unknown): string[] => {
    if (!Array.isArray(security)) return [];
    const req = security.find((r) => r && typeof r === "object" && Object.keys(r).length > 0);
    return req ? Object.keys(req) : [];
  };
  const top = first(doc.security);
  if (top.length || Array.isArray(doc.security)) return top;
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (!item || typeof item !== "object") continue;
    for (const op of Object.values(item)) {
      const names = op && typeof op === "object" ? first((op as { security?: unknown }).security) : [];
      if (names.length) return names;
    }
  }
  return [];
}

/** Survey the document as an upstream named `name` at `baseUrl` sending what `supplied` says would compile it. */
export function surveyCliDocument(
  cli: CliDocument,
  name: string,
  baseUrl: string,
  supplied: SuppliedByAuth,
): SurveyedOperation[] {
  return surveyDocument(cli.loaded.doc, cli.loaded.version, {
    upstreamName: name,
    path: `upstreams.${name}`,
    baseUrl,
    maxResponseBytes: 2 * 1024 * 1024,
    ...supplied,
  });
}
