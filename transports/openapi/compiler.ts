/**
 * Compiles the included operations of an OpenAPI document into tool entries plus what the executor needs.
 * Every problem of every included operation is collected (one line each) so an operator fixes them in one pass.
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import type { Pagination, ToolEntry } from "../../src/upstream/types.ts";
import { parsePagination } from "../../src/upstream/pagination.ts";
import { didYouMean, editDistance, MAX_SUGGEST_CANDIDATES } from "../../src/core/suggest.ts";
import type { OpenApiConfig, OperationOverride } from "./config.ts";
import { describeOperation, indexOperations, type OperationRef } from "./operations.ts";
import { compileParams } from "./params.ts";
import { compileBody, type CompiledBody, isEmptyOptionalBody } from "./body.ts";
import { effectAnnotations, operationEffect } from "./effect.ts";
import { RefError, RefResolver } from "./refs.ts";
import { buildInputSchema, chooseOutput, type CompiledParam, openapi30Transform } from "./schema.ts";
import { derivedOperationId, hasLetters, kebabCase, toolName } from "./names.ts";
import { argumentClashes, findParam, sentOutsideTheUrl } from "./args.ts";
import { parseResultPath, type ResultPath } from "./result_path.ts";
import { type FixedQuery, splitPathTemplate } from "./path_template.ts";
import { hostSchema, plainValidatorError, skippedPatternWarnings } from "../../src/upstream/host_schema.ts";

/** Longest tool description kept. */
export const MAX_DESCRIPTION = 800;

/** A compiled operation: the tool entry and what execution needs. */
export interface CompiledOperation {
  entry: ToolEntry;
  id: string;
  method: string;
  /** The document's path template (names the operation in messages). */
  path: string;
  /** The path part sent: the template without its `#fragment` and query string. */
  requestPath: string;
  /** Query items the template fixes (`/?Action=List`), sent on every call. */
  fixedQuery: FixedQuery[];
  /** The Accept header: the media type the response schema was compiled from. */
  accept: string;
  /** Every argument: path, query and header parameters, then the JSON body's properties. */
  params: CompiledParam[];
  /** The JSON request body, when the operation takes one (its properties are `params` with `in: "body"`). */
  body?: { mediaType: string; required: boolean };
  defaultArgs: JsonObject;
  /** The operation's own byte cap (min of config, override and x-ptc-max-response-bytes). */
  maxResponseBytes: number;
  resultPath?: ResultPath;
  /** True when the response has no body by contract (only empty 2xx). */
  emptyResponse: boolean;
  /** The operation answers `text/*`: the body is the value, as a string. */
  textResponse: boolean;
}

/** The result of compiling a document. */
export interface CompileResult {
  operations: CompiledOperation[];
  warnings: string[];
}

/** Compilation failed: one line per problem. */
export class CompileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "CompileError";
  }
}

/** What the compiler needs from the config. */
export type CompileConfig =
  & Pick<
    OpenApiConfig,
    "upstreamName" | "path" | "baseUrl" | "includeOperations" | "operationOverrides" | "maxResponseBytes"
  >
  & Partial<Pick<OpenApiConfig, "conflicts" | "maxDescriptionChars">>
  & {
    /** Lowercase names of the headers the config sends (static headers, auth emitters). */
    suppliedHeaders?: ReadonlySet<string>;
    /** Query parameters the config's auth sends (API keys in the query). */
    suppliedQuery?: ReadonlySet<string>;
    /** Cookies the config's auth sends. */
    suppliedCookies?: ReadonlySet<string>;
  };

/** Compile `config.includeOperations` of `doc` (in include order). Throws CompileError listing every problem. */
export function compileDocument(doc: Record<string, unknown>, version: "3.0" | "3.1", config: CompileConfig) {
  const resolver = new RefResolver(doc, { transform: version === "3.0" ? openapi30Transform : undefined });
  const index = indexOperations(doc, resolver);
  const problems: string[] = [];
  const warnings: string[] = [];
  const operations: CompiledOperation[] = [];
  const includePath = `${config.path}.include_operations`;
  config.includeOperations.forEach((id, i) => {
    const refs = index.byId.get(id);
    if (!refs) {
      const candidates = [...index.byId.entries()].filter(([, r]) => r.some((op) => !op.deprecated)).map(([k]) => k);
      const near = didYouMean(id, candidates);
      const closest = near ? [] : closestIds(id, candidates, 3);
      const hint = near ||
        (closest.length
          ? `; closest: ${closest.join(", ")} (the document has ${candidates.length}` +
            " operations; `ptc catalog --operations DOC` lists them)"
          : "; the document has no operations");
      problems.push(`${includePath}[${i}]: operation "${id}" is not in the document${hint}`);
      return;
    }
    if (refs.length > 1) {
      problems.push(
        `${includePath}[${i}]: operationId "${id}" is used by ${refs.length} operations (` +
          `${refs.map(describeOperation).join(", ")}); the document is ambiguous`,
      );
      return;
    }
    const override = config.operationOverrides[id] ?? {};
    try {
      const result = compileOperation(refs[0], override, resolver, config);
      warnings.push(...result.warnings);
      if (result.disabled) warnings.push(`${describeOperation(refs[0])} (${id}): ${result.disabled}; not exposed`);
      else if (result.errors.length) problems.push(...result.errors);
      else if (result.compiled) operations.push(result.compiled);
    } catch (error) {
      if (error instanceof RefError) problems.push(`${describeOperation(refs[0])} (${id}): ${error.message}`);
      else throw error;
    }
  });
  const resolved = resolveCollisions(operations, config.path, config.conflicts ?? "error");
  problems.push(...resolved.problems);
  warnings.push(...resolved.warnings);
  if (problems.length) throw new CompileError(problems);
  return { operations: resolved.kept, warnings } satisfies CompileResult;
}

/** What compiling one operation gave: the compiled operation, or the errors; warnings either way. */
export interface OperationOutcome {
  compiled?: CompiledOperation;
  errors: string[];
  warnings: string[];
  /** Why the document disables the operation (`x-mcp-enabled: false`); nothing else is then reported. */
  disabled?: string;
}

/** Compile one operation (no collision check: that needs the whole set). Ref problems throw RefError. */
export function compileOperation(
  ref: OperationRef,
  override: OperationOverride,
  resolver: RefResolver,
  config: CompileConfig,
): OperationOutcome {
  const where = `${describeOperation(ref)} (${ref.id})`;
  const errors: string[] = [];
  const op = ref.operation;
  // A safety extension of the wrong type would otherwise read as "not set": the operation enabled, a read, uncapped.
  const mistyped = mistypedSafetyExtensions(op).map((p) => `${where}: ${p}`);
  if (mistyped.length) return { errors: mistyped, warnings: [] };
  if (op["x-mcp-enabled"] === false) {
    return { errors: [], warnings: [], disabled: "disabled by x-mcp-enabled: false (in the document or an overlay)" };
  }
  const overridePath = `${config.path}.operation_overrides.${ref.id}`;
  const decided = operationEffect(ref.method, op, override, where, overridePath);
  if (!decided.ok) return { errors: [decided.error], warnings: [] };
  const warnings: string[] = decided.warning ? [decided.warning] : [];
  const isGet = ref.method === "GET";
  let body: CompiledBody | undefined;
  if (op.requestBody !== undefined) {
    if (!isGet) {
      const compiled = compileBody(op.requestBody, resolver, where);
      errors.push(...compiled.errors);
      warnings.push(...compiled.warnings);
      body = compiled.body;
    } else if (isEmptyOptionalBody(op.requestBody, resolver, where)) {
      warnings.push(`${where}: declares an optional request body without properties; ignored (GETs send no body)`);
    } else errors.push(`${where}: has a requestBody; GET operations with a body are not supported`);
  }
  const serversProblem = checkServers(op.servers ?? ref.pathItem.servers, config.baseUrl);
  if (serversProblem) errors.push(`${where}: ${serversProblem}`);
  const template = splitPathTemplate(ref.path);
  if ("error" in template) return { errors: [`${where}: ${template.error}`], warnings: [] };
  const params = compileParams(ref.pathItem, op, template.path, resolver, where, {
    suppliedHeaders: config.suppliedHeaders,
    suppliedQuery: config.suppliedQuery,
    suppliedCookies: config.suppliedCookies,
    queryTemplate: template.queryParams,
    headerArgs: !isGet,
  });
  errors.push(...params.errors);
  const names = new Set<string>();
  for (const p of params.params.filter((p) => p.in === "path" || p.in === "query")) {
    if (names.has(p.name)) errors.push(`${where}: parameter "${p.name}" is declared both in path and query`);
    names.add(p.name);
  }
  for (const [key] of template.fixedQuery) {
    if (names.has(key)) {
      errors.push(`${where}: the path template fixes query item "${key}", which is also a declared parameter`);
    }
  }
  const allParams = [...params.params, ...(body?.params ?? [])];
  errors.push(...argumentClashes(allParams, where));
  const output = chooseOutput(op.responses, resolver, where);
  if (output.kind === "unsupported") errors.push(`${where}: ${output.reason}`);
  const textWithPath = output.kind === "text" && (override.result_path ?? op["x-ptc-result-path"]) !== undefined;
  if (textWithPath) {
    errors.push(`${where}: a result path selects inside JSON, but the operation answers ${output.mediaType}`);
  }

  const defaultArgs = compileDefaults(override, op, allParams, where, overridePath, errors);
  const maxResponseBytes = narrowest(
    config.maxResponseBytes,
    override.max_response_bytes,
    op["x-ptc-max-response-bytes"],
  );
  let resultPath: ResultPath | undefined;
  const rawResultPath = override.result_path ?? op["x-ptc-result-path"];
  if (rawResultPath !== undefined) {
    const parsed = parseResultPath(rawResultPath);
    if (typeof parsed === "string") {
      const src = override.result_path !== undefined ? `${overridePath}.result_path` : `${where}: x-ptc-result-path`;
      errors.push(`${src}: ${parsed}`);
    } else resultPath = parsed;
  }
  const docName = [op["x-ptc-name"], op["x-mcp-tool-name"]].find((n) => typeof n === "string" && n.trim() !== "");
  const rawName = override.name ?? (docName as string | undefined) ?? ref.id;
  let name = toolName(rawName);
  if (name === "" && override.name === undefined && hasLetters(rawName)) {
    // an operationId in a non-Latin script (`获取用户`): name the tool after its method and path instead
    name = toolName(derivedOperationId(ref.method, ref.path));
    params.warnings.push(
      `${where}: "${rawName}" has no Latin letters; exposed as ${name} (set operation_overrides.${ref.id}.name to choose)`,
    );
  } else if (name === "" || kebabCase(rawName) === "") {
    const src = override.name !== undefined ? `${overridePath}.name` : where;
    errors.push(`${src}: name "${rawName}" has no letters or digits to build a tool name from`);
  }
  warnings.push(...params.warnings);
  if (errors.length) return { errors, warnings };

  const inputSchema = buildInputSchema(allParams, defaultArgs);
  const notes = override.notes ?? (typeof op["x-ptc-notes"] === "string" ? op["x-ptc-notes"] : undefined);
  const rawPagination = override.pagination ?? op["x-ptc-pagination"];
  let pagination: Pagination | false | undefined;
  if (rawPagination !== undefined) {
    const src = override.pagination !== undefined ? `${overridePath}.pagination` : `${where}: x-ptc-pagination`;
    const parsed = parsePagination(rawPagination, src, Object.keys(inputSchema.properties ?? {}));
    if (Array.isArray(parsed)) return { errors: parsed, warnings: params.warnings };
    pagination = parsed;
  }
  const entry: ToolEntry = {
    name,
    description: describe(override, op, config.maxDescriptionChars ?? MAX_DESCRIPTION),
    inputSchema,
    annotations: effectAnnotations(ref.method, decided.effect),
    // What the tool is (effect.ts); whether it is installed is the runtime's decision (src/upstream/install.ts).
    effect: decided.effect,
    _ptc: {
      transport: "openapi",
      upstreamName: ref.id,
      ...(ref.derived ? {} : { operationId: ref.id }),
      method: ref.method,
      path: ref.path,
      ...(notes ? { notes } : {}),
      defaultArgs,
      ...(rawPagination !== undefined ? { pagination: rawPagination as JsonValue } : {}),
      ...(resultPath ? { resultPath: resultPath.source } : {}),
      ...sentOutsideTheUrl(allParams, body?.mediaType),
    },
    ...(pagination !== undefined ? { pagination } : {}),
  };
  if (output.kind === "json" && output.schema !== undefined) entry.outputSchema = output.schema;
  if (output.kind === "text") entry.outputSchema = { type: "string", contentMediaType: output.mediaType };
  if (output.kind === "none") entry.outputSchema = { type: "null" };
  // arguments are checked on the host before the request; a pattern it cannot match in linear time is the service's
  warnings.push(...skippedPatternWarnings(name, { inputSchema }));
  return {
    compiled: {
      entry,
      id: ref.id,
      method: ref.method,
      path: ref.path,
      requestPath: template.path,
      fixedQuery: template.fixedQuery,
      accept: output.kind === "json" || output.kind === "text" ? acceptFor(output.mediaType) : "application/json",
      params: allParams,
      ...(body ? { body: { mediaType: body.mediaType, required: body.required } } : {}),
      defaultArgs,
      maxResponseBytes,
      resultPath,
      emptyResponse: output.kind === "none",
      textResponse: output.kind === "text",
    },
    errors: [],
    warnings,
  };
}

/** Default arguments: operator `default_args` replace `x-ptc-default-args`; keys must name parameters. */
function compileDefaults(
  override: OperationOverride,
  op: Record<string, unknown>,
  params: CompiledParam[],
  where: string,
  overridePath: string,
  errors: string[],
): JsonObject {
  const fromOverride = override.default_args !== undefined;
  const raw = override.default_args ?? op["x-ptc-default-args"];
  if (raw === undefined || raw === null) return {};
  const src = fromOverride ? `${overridePath}.default_args` : `${where}: x-ptc-default-args`;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push(`${src}: must be an object of argument → value`);
    return {};
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const param = findParam(params, key);
    if (!param) {
      errors.push(
        `${src}.${key}: not a parameter of this operation (parameters: ${
          params.map((p) => p.name).join(", ") || "none"
        })`,
      );
      continue;
    }
    const check = new Validator(hostSchema(param.schema).schema as never, "2020-12", false).validate(value);
    if (!check.valid) {
      const error = check.errors.at(-1)?.error;
      errors.push(`${src}.${key}: ${error ? plainValidatorError(error) : "does not match the parameter's schema"}`);
      continue;
    }
    out[param.name] = value as JsonValue;
  }
  return out;
}

function describe(override: OperationOverride, op: Record<string, unknown>, max: number): string {
  if (override.description !== undefined) return clip(override.description.trim(), max);
  const summary = typeof op.summary === "string" ? op.summary.trim() : "";
  const description = typeof op.description === "string" ? op.description.trim() : "";
  const text = summary && description && !description.startsWith(summary)
    ? `${summary}\n\n${description}`
    : description || summary;
  return clip(text, max);
}

/** Operation-level servers must all be same-origin with base_url (relative URLs are). Undefined = fine. */
function checkServers(servers: unknown, baseUrl: string): string | undefined {
  if (servers === undefined || servers === null) return undefined;
  if (!Array.isArray(servers)) return '"servers" is not a list';
  const base = new URL(baseUrl);
  for (const s of servers) {
    const rawUrl = s && typeof s === "object" ? (s as { url?: unknown }).url : undefined;
    if (typeof rawUrl !== "string") return "has a server without a url";
    const vars = ((s as { variables?: Record<string, { default?: unknown }> }).variables) ?? {};
    const expanded = rawUrl.replace(/\{([^}]+)\}/g, (_, v) => String(vars[v]?.default ?? `{${v}}`));
    let url: URL;
    try {
      url = new URL(expanded, base);
    } catch {
      return `has a malformed server url "${rawUrl}"`;
    }
    if (url.origin !== base.origin) {
      return `declares servers on another origin (${url.origin}); requests only go to base_url (${base.origin})`;
    }
  }
  return undefined;
}

/**
 * Tool names produced twice. `error` (default) fails the start naming both sides; `first_wins` keeps the operation
 * listed first in include_operations; `skip` drops every operation of the name. Either way each dropped operation is
 * a warning naming both sides.
 */
function resolveCollisions(
  operations: CompiledOperation[],
  path: string,
  mode: "error" | "first_wins" | "skip",
): { kept: CompiledOperation[]; problems: string[]; warnings: string[] } {
  const byName = new Map<string, CompiledOperation[]>();
  for (const op of operations) byName.set(op.entry.name, [...(byName.get(op.entry.name) ?? []), op]);
  const problems: string[] = [];
  const warnings: string[] = [];
  const dropped = new Set<CompiledOperation>();
  const who = (o: CompiledOperation) => `${o.id} (${describeOperation(o)})`;
  for (const [name, ops] of byName) {
    if (ops.length < 2) continue;
    const all = ops.map(who).join(" and ");
    if (mode === "error") {
      problems.push(
        `${path}: tool name "${name}" is produced by both ${all}; set operation_overrides.<id>.name on one of them ` +
          'or conflicts: "first_wins" | "skip"',
      );
    } else if (mode === "first_wins") {
      for (const o of ops.slice(1)) dropped.add(o);
      warnings.push(`tool name "${name}" is produced by both ${all}; kept ${ops[0].id} (conflicts: first_wins)`);
    } else {
      for (const o of ops) dropped.add(o);
      warnings.push(`tool name "${name}" is produced by both ${all}; exposed neither (conflicts: skip)`);
    }
  }
  return { kept: operations.filter((o) => !dropped.has(o)), problems, warnings };
}

/** What to ask for: the compiled media type itself (`application/vnd.github+json`), JSON for a wildcard. */
function acceptFor(mediaType: string): string {
  const type = mediaType.trim();
  return type === "*/*" || type === "" ? "application/json" : type;
}

/** The `max` ids with the smallest edit distance to `id` (bounded: ids are clipped to 64 characters). */
function closestIds(id: string, candidates: string[], max: number): string[] {
  const w = id.toLowerCase().slice(0, 64);
  return candidates.slice(0, MAX_SUGGEST_CANDIDATES).map((c) =>
    [c, editDistance(w, c.toLowerCase().slice(0, 64))] as const
  )
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).slice(0, max).map(([c]) => c);
}

/** Problems with `x-mcp-enabled`, `x-ptc-read-only` and `x-ptc-max-response-bytes` values of the wrong type. */
function mistypedSafetyExtensions(op: Record<string, unknown>): string[] {
  const out: string[] = [];
  const shown = (v: unknown) => clip(JSON.stringify(v) ?? String(v), 60);
  for (const key of ["x-mcp-enabled", "x-ptc-read-only"]) {
    const v = op[key];
    if (v !== undefined && typeof v !== "boolean") out.push(`${key} must be true or false, got ${shown(v)}`);
  }
  const cap = op["x-ptc-max-response-bytes"];
  if (cap !== undefined && !(typeof cap === "number" && Number.isInteger(cap) && cap > 0)) {
    out.push(`x-ptc-max-response-bytes must be a positive integer, got ${shown(cap)}`);
  }
  return out;
}

function narrowest(base: number, ...caps: unknown[]): number {
  let out = base;
  for (const c of caps) if (typeof c === "number" && Number.isInteger(c) && c > 0) out = Math.min(out, c);
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
