/**
 * Parameters of one OpenAPI operation: path-item and operation parameters merged, refs followed, and each one
 * either compiled (path; query scalars and lists; query objects in `style: form` or `deepObject`) or refused. A refused *required* parameter makes the operation unusable
 * (an error); a refused *optional* one is left out with a warning, since the operation works without it.
 *
 * Header parameters of a read are never program arguments (headers are config-owned). A required one is fine when
 * the config supplies it (static_headers or an auth emitter), when ptc sets it itself (Accept, …), or when it names
 * a credential (Authorization, X-Api-Key, …: like a security scheme, the operator configures auth; a warning
 * says so). Any other required header is an error that says how to supply it. A write (any method but GET) takes
 * its other header parameters — request-scoped ones such as `Idempotency-Key` or `If-Match` — as ordinary scalar
 * arguments named by the lowercase header name; config-supplied, protocol and credential headers stay config-owned.
 * A query or cookie parameter the config's auth supplies (an API key `in: query` / `in: cookie`) is never an
 * argument either.
 * @module
 */
import type { JsonSchema } from "../../src/upstream/types.ts";
import { isReservedHeader, secretNamePart } from "../../src/upstream/headers.ts";
import type { RefResolver } from "./refs.ts";
import { type CompiledParam, MAX_PARAM_DESCRIPTION, paramShape } from "./schema.ts";
import { HEADER_VALUE_PATTERN, MAX_HEADER_VALUE } from "./request.ts";

/** The parameters of an operation, or why not. */
export interface ParamsResult {
  params: CompiledParam[];
  errors: string[];
  warnings: string[];
}

const QUERY_STYLES = new Set(["form", "spaceDelimited", "pipeDelimited"]);
/** Headers ptc sets itself (or that mean nothing on a bodiless GET). */
const TRANSPORT_HEADERS = new Set(["accept", "accept-encoding", "content-type", "user-agent", "content-length"]);
/** Request-scoped headers whose names look secret-bearing but carry no secret: program arguments of a write. */
const NOT_SECRET_HEADERS = new Set(["idempotency-key", "x-idempotency-key"]);

/** How parameters are compiled. */
export interface ParamOptions {
  /** Lowercase names of the headers the config sends (they are never arguments). */
  suppliedHeaders?: ReadonlySet<string>;
  /** Parameters the path template's query part names (`?lat={lat}`). */
  queryTemplate?: readonly string[];
  /** Header parameters become arguments (writes). */
  headerArgs?: boolean;
  /** Query parameters the config's auth sends (API keys in the query); never arguments. */
  suppliedQuery?: ReadonlySet<string>;
  /** Cookies the config's auth sends; never arguments. */
  suppliedCookies?: ReadonlySet<string>;
}

/** Compile the parameters of an operation. `where` prefixes messages (`GET /pets`). */
export function compileParams(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  path: string,
  resolver: RefResolver,
  where: string,
  options: ParamOptions = {},
): ParamsResult {
  const { queryTemplate = [] } = options;
  const out: ParamsResult = { params: [], errors: [], warnings: [] };
  const merged = new Map<string, Record<string, unknown>>();
  for (const [source, list] of [["path item", pathItem.parameters], ["operation", operation.parameters]] as const) {
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      out.errors.push(`${where}: ${source} "parameters" is not a list`);
      continue;
    }
    list.forEach((raw, i) => {
      const p = resolver.deref(raw, `${where} parameters[${i}]`);
      if (p === null || typeof p !== "object" || Array.isArray(p)) {
        out.errors.push(`${where}: parameter ${i} is not an object`);
        return;
      }
      const param = p as Record<string, unknown>;
      merged.set(`${param.in}:${param.name}`, param);
    });
  }
  for (const param of merged.values()) compileOne(param, where, resolver, out, options);
  moveToQuery(out, queryTemplate, where);
  const declared = new Set(out.params.filter((p) => p.in === "path").map((p) => p.name));
  const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const missing = templateNames.filter((n) => !declared.has(n));
  if (missing.length) {
    out.errors.push(`${where}: the path template uses undeclared path parameter(s): ${missing.join(", ")}`);
  }
  for (const name of declared) {
    if (!templateNames.includes(name)) {
      out.warnings.push(`${where}: path parameter "${name}" is not in the path template; ignored`);
      out.params = out.params.filter((p) => !(p.in === "path" && p.name === name));
    }
  }
  return out;
}

/** Parameters the template's query part names (`?lat={lat}`) are query arguments, whatever `in` they declare. */
function moveToQuery(out: ParamsResult, names: readonly string[], where: string): void {
  const undeclared: string[] = [];
  for (const name of names) {
    const i = out.params.findIndex((p) => p.name === name);
    if (i < 0) {
      undeclared.push(name);
      continue;
    }
    const p = out.params[i];
    if (p.in === "path") out.params[i] = { ...p, in: "query", style: "form", explode: true, required: true };
  }
  if (undeclared.length) {
    out.errors.push(
      `${where}: the query part of the path template uses undeclared parameter(s): ${undeclared.join(", ")}`,
    );
  }
}

function compileOne(
  param: Record<string, unknown>,
  where: string,
  resolver: RefResolver,
  out: ParamsResult,
  options: ParamOptions,
): void {
  const { suppliedHeaders = new Set<string>(), headerArgs = false } = options;
  const name = param.name;
  const location = param.in;
  if (typeof name !== "string" || name === "") {
    out.errors.push(`${where}: a parameter has no name`);
    return;
  }
  const required = param.required === true || location === "path";
  const refuse = (why: string) => {
    if (required) out.errors.push(`${where}: required ${location} parameter "${name}" ${why}`);
    else out.warnings.push(`${where}: optional ${location} parameter "${name}" ${why}; it is not exposed`);
  };
  if (location === "header") {
    const lower = name.toLowerCase();
    if (suppliedHeaders.has(lower) || TRANSPORT_HEADERS.has(lower)) return;
    const secret = lower === "authorization" || (secretNamePart(name) !== undefined && !NOT_SECRET_HEADERS.has(lower));
    if (headerArgs && !secret && !isReservedHeader(lower)) {
      headerArgument(param, lower, required, where, resolver, out, refuse);
      return;
    }
    if (required && secret) {
      out.warnings.push(`${where}: expects credential header "${name}"; configure it as an auth emitter`);
      return;
    }
    refuse(
      required
        ? "is not supplied by the config; headers are config-owned: add it to static_headers (or as a " +
          "custom_header auth emitter if it is secret)"
        : "is a header parameter; headers are config-owned (static_headers / auth), never program arguments",
    );
    return;
  }
  if (location === "cookie") {
    if (options.suppliedCookies?.has(name)) return;
    refuse(
      "is a cookie parameter; cookies are config-owned: an API key in a cookie is an auth emitter " +
        '{"scheme": "cookie", "cookie": "<name>", "binding": "<credential>"}',
    );
    return;
  }
  if (location === "query" && options.suppliedQuery?.has(name)) return;
  if (location !== "path" && location !== "query") {
    refuse(`has unsupported location "${String(location)}"`);
    return;
  }
  if (param.schema === undefined) {
    if (param.content !== undefined) {
      refuse("uses `content` (serialized media); only `schema` parameters are supported");
    } else {
      out.params.push(base(name, location, required, { type: "string" }, param));
    }
    return;
  }
  const schema = resolver.inlineSchema(param.schema, `${where} parameter "${name}"`) as JsonSchema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    refuse("has a schema that is not an object");
    return;
  }
  const shape = paramShape(schema);
  const style = typeof param.style === "string" ? param.style : location === "path" ? "simple" : "form";
  if (location === "query" && (style === "deepObject" || (shape === "object" && isObjectSchema(schema)))) {
    if (style !== "form" && style !== "deepObject") {
      refuse(`is an object in style "${style}"; query objects must use style form or deepObject`);
      return;
    }
    if (style === "deepObject" && param.explode === false) {
      refuse("uses deepObject with explode: false, which OpenAPI leaves undefined");
      return;
    }
    out.params.push(base(name, location, required, schema, param, style));
    return;
  }
  if (shape === "object") {
    refuse(
      location === "path"
        ? "is an object; path parameters must be scalars"
        : "is a list of objects or lists; query lists must hold scalars",
    );
    return;
  }
  if (location === "path") {
    if (shape === "array") {
      refuse("is a list; path parameters must be scalars");
      return;
    }
    if (style !== "simple") {
      refuse(`uses style "${style}"; path parameters must use the simple style`);
      return;
    }
  } else if (!QUERY_STYLES.has(style)) {
    refuse(`uses style "${style}"; query parameters must use form, spaceDelimited or pipeDelimited`);
    return;
  }
  out.params.push(base(name, location, required, schema, param, style));
}

/** A header parameter of a write as an argument: a scalar, named by its lowercase header name. */
function headerArgument(
  param: Record<string, unknown>,
  lower: string,
  required: boolean,
  where: string,
  resolver: RefResolver,
  out: ParamsResult,
  refuse: (why: string) => void,
): void {
  if (param.schema === undefined && param.content !== undefined) {
    refuse("uses `content` (serialized media); only `schema` parameters are supported");
    return;
  }
  const schema = param.schema === undefined
    ? { type: "string" }
    : resolver.inlineSchema(param.schema, `${where} parameter "${String(param.name)}"`) as JsonSchema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || paramShape(schema) === "object") {
    refuse("is not a scalar; header arguments must be strings, numbers or booleans");
    return;
  }
  if (paramShape(schema) === "array") {
    refuse("is a list; header arguments must be scalars");
    return;
  }
  const bounded = headerBounds(schema);
  out.params.push({ ...base(lower, "query", required, bounded, param), in: "header", style: "simple", explode: false });
}

/**
 * A header argument's schema with the bounds every header value obeys (at most {@link MAX_HEADER_VALUE}
 * characters, no control character but tab), so argument validation refuses a violation before anything is sent.
 * A tighter `maxLength` the document declares is kept; a `pattern` of its own joins ours through `allOf`. Both
 * keywords apply to strings only: a number or boolean argument is sent as its short text.
 */
export function headerBounds(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  const declared = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  out.maxLength = Math.min(declared, MAX_HEADER_VALUE);
  if (typeof schema.pattern === "string" && schema.pattern !== HEADER_VALUE_PATTERN) {
    const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
    out.allOf = [...allOf, { pattern: HEADER_VALUE_PATTERN }];
  } else out.pattern = HEADER_VALUE_PATTERN;
  return out;
}

function base(
  name: string,
  location: "path" | "query",
  required: boolean,
  schema: JsonSchema,
  param: Record<string, unknown>,
  style = location === "path" ? "simple" : "form",
): CompiledParam {
  const description = typeof param.description === "string" && param.description.trim() !== ""
    ? clip(param.description.trim(), MAX_PARAM_DESCRIPTION)
    : undefined;
  const explode = typeof param.explode === "boolean" ? param.explode : style === "form" || style === "deepObject";
  return { name, in: location, required, schema, description, style, explode };
}

/** An object schema (not a list of objects): `type: object`, or untyped with `properties`. */
function isObjectSchema(schema: JsonSchema): boolean {
  const t = schema.type;
  const types = Array.isArray(t) ? t : typeof t === "string" ? [t] : [];
  return types.includes("object") || (types.length === 0 && schema.properties !== undefined);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
