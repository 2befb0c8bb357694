/**
 * Builds the request URL of one call with `openapi-fetch`'s serializers: path parameters percent-encoded inside
 * their segment (`org/42` → `org%2F42`, `../admin` → `..%2Fadmin`), query parameters form-encoded with their
 * declared style (arrays exploded by default, booleans as `true`/`false`; objects in `style: form` as their
 * properties, `k=v&…` or `name=k,v,…`, and in `style: deepObject` with brackets, `name[k]=v`, nested levels too —
 * `form_encoding.ts`), keys in sorted order. API keys the config sends in the query are appended last
 * ({@link appendQuery}). A value that
 * would let URL normalization escape its segment (`.`, `..`, empty) is refused, and the built URL is re-parsed to
 * prove its path was not rewritten and stays under base_url. Query items the path template fixes come first. The
 * header arguments and JSON body of a write are built by {@link buildPayload}.
 * @module
 */
import { createFinalURL, defaultPathSerializer, serializeArrayParam, serializePrimitiveParam } from "openapi-fetch";
import type { JsonValue } from "../../src/core/json.ts";
import type { CompiledParam } from "./schema.ts";
import { type FixedQuery, fixedQueryString } from "./path_template.ts";
import { bracketPairs, formBody, joinPairs, type Pair } from "./form_encoding.ts";

/** The URL, or the argument problems that prevent building it. */
export type BuiltUrl = { ok: true; url: string } | { ok: false; problems: string[] };

type Scalar = string | number | boolean;

/** Build the URL for `path` under `baseUrl` (no trailing slash) from argument values keyed by parameter name. */
export function buildUrl(
  baseUrl: string,
  path: string,
  params: readonly CompiledParam[],
  values: Record<string, JsonValue>,
  fixedQuery: readonly FixedQuery[] = [],
): BuiltUrl {
  const problems: string[] = [];
  const pathValues: Record<string, Scalar> = {};
  const queryValues: [string, CompiledParam, Scalar | Scalar[] | Record<string, JsonValue>][] = [];
  for (const p of params) {
    if (p.in !== "path" && p.in !== "query") continue;
    const v = values[p.name];
    if (v === undefined || v === null) {
      if (p.in === "path") problems.push(`missing path argument "${p.name}"`);
      continue;
    }
    if (p.in === "path") {
      if (!isScalar(v)) {
        problems.push(`path argument "${p.name}" must be a string, number or boolean`);
        continue;
      }
      const text = String(v);
      if (text === "" || text === "." || text === "..") {
        problems.push(`path argument "${p.name}" must not be empty, "." or ".."`);
        continue;
      }
      pathValues[p.name] = text;
    } else if (p.style === "deepObject" && !isObject(v)) {
      problems.push(`query argument "${p.name}" must be a map`);
    } else if (Array.isArray(v)) {
      if (!v.every(isScalar)) {
        problems.push(`query argument "${p.name}" must be a list of strings, numbers or booleans`);
        continue;
      }
      if (v.length > 0) queryValues.push([p.name, p, v as Scalar[]]);
    } else if (isScalar(v)) {
      queryValues.push([p.name, p, v]);
    } else if (p.style === "deepObject" || (p.style === "form" && isFlatObject(v))) {
      queryValues.push([p.name, p, v as Record<string, JsonValue>]);
    } else {
      problems.push(
        `query argument "${p.name}" must be a string, number, boolean or a list of them` +
          (p.style === "form" && isObject(v) ? " (or a map of such values)" : ""),
      );
    }
  }
  if (problems.length) return { ok: false, problems };
  queryValues.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const fixed = fixedQueryString(fixedQuery);
  const querySerializer = () =>
    [
      ...(fixed ? [fixed] : []),
      ...queryValues.map(([name, p, v]) => {
        const key = encodeURIComponent(name);
        if (isObject(v)) return objectQuery(key, v, p);
        if (!Array.isArray(v)) return serializePrimitiveParam(key, String(v));
        return serializeArrayParam(key, v.map(String), { style: p.style as never, explode: p.explode });
      }),
    ].join("&");
  const url = createFinalURL(path.startsWith("/") ? path : `/${path}`, {
    baseUrl,
    params: { path: pathValues, query: {} },
    querySerializer,
    pathSerializer: defaultPathSerializer,
  } as never);
  return checkUrl(url, baseUrl);
}

/** A query object: `deepObject` → `name[k]=v` (brackets, any depth); `form` → `k=v&…`, or `name=k,v,…` unexploded. */
function objectQuery(key: string, value: Record<string, JsonValue>, p: CompiledParam): string {
  if (p.style === "deepObject") return joinPairs(bracketPairs(key, value, []));
  const entries = Object.entries(value).filter(([, v]) => v !== null);
  const enc = (x: JsonValue) => encodeURIComponent(String(x));
  if (!p.explode) return `${key}=${entries.map(([k, v]) => `${encodeURIComponent(k)},${enc(v)}`).join(",")}`;
  return joinPairs(entries.map(([k, v]): Pair => [encodeURIComponent(k), enc(v)]));
}

/**
 * `url` with the config's query credentials appended (`name=value`, percent-encoded). The result holds a secret:
 * it goes to the request and nowhere else (messages name the path template; the values are registered with the
 * redactor before they are used).
 */
export function appendQuery(url: string, pairs: readonly [string, string][]): string {
  if (pairs.length === 0) return url;
  const u = new URL(url);
  const extra = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  u.search = u.search ? `${u.search}&${extra}` : `?${extra}`;
  return u.href;
}

/** Longest header argument value sent. */
export const MAX_HEADER_VALUE = 4096;

/**
 * A header argument value holds no control character but tab (no line break can split the header). It is the
 * `pattern` of every header argument in the tool's input schema (written with `\u` escapes, so the schema and
 * its messages stay printable), and the send-time backstop below runs the same expression.
 */
export const HEADER_VALUE_PATTERN = "^[^\\u0000-\\u0008\\u000a-\\u001f\\u007f]*$";
const HEADER_VALUE = new RegExp(HEADER_VALUE_PATTERN, "u");

/** Header arguments and the JSON body of one call, or the argument problems that prevent sending them. */
export type BuiltPayload = { ok: true; headers: Record<string, string>; body?: string } | {
  ok: false;
  problems: string[];
};

/**
 * Header arguments (scalars as text, no control characters, at most {@link MAX_HEADER_VALUE} characters) and the
 * body — JSON, or `application/x-www-form-urlencoded` with bracket encoding for nested values (`form_encoding.ts`): the body arguments given, keyed by the document's property names. A required body is sent (`{}` at
 * least); an optional one only when some body argument is given.
 */
export function buildPayload(
  params: readonly CompiledParam[],
  values: Record<string, JsonValue>,
  body?: { required: boolean; mediaType?: string },
): BuiltPayload {
  const problems: string[] = [];
  const headers: Record<string, string> = {};
  const fields: Record<string, JsonValue> = {};
  let given = false;
  for (const p of params) {
    const v = values[p.name];
    if (v === undefined || v === null) continue;
    if (p.in === "body") {
      fields[p.name] = v;
      given = true;
    } else if (p.in === "header") {
      if (!isScalar(v)) {
        problems.push(`header argument "${p.name}" must be a string, number or boolean`);
        continue;
      }
      const text = String(v);
      // The input schema bounds header arguments already; this backstop keeps a value that slipped past it unsent.
      if (text.length > MAX_HEADER_VALUE || !HEADER_VALUE.test(text)) {
        problems.push(
          `header argument "${p.name}" must be at most ${MAX_HEADER_VALUE} characters without control characters`,
        );
        continue;
      }
      headers[p.name] = text;
    }
  }
  if (problems.length) return { ok: false, problems };
  const send = body !== undefined && (given || body.required);
  if (!send) return { ok: true, headers };
  if (body.mediaType !== undefined && isFormMediaType(body.mediaType)) {
    const encodings = Object.fromEntries(
      params.filter((p) => p.in === "body").map((p) => [p.name, { style: p.style, explode: p.explode }]),
    );
    return { ok: true, headers, body: formBody(fields, encodings) };
  }
  return { ok: true, headers, body: JSON.stringify(fields) };
}

function checkUrl(url: string, baseUrl: string): BuiltUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problems: ["the arguments produce a malformed URL"] };
  }
  const base = new URL(baseUrl);
  const rawPath = url.slice(base.origin.length).split("?")[0];
  const basePath = base.pathname.replace(/\/+$/, "");
  if (parsed.origin !== base.origin || parsed.pathname !== rawPath || !parsed.pathname.startsWith(`${basePath}/`)) {
    return { ok: false, problems: ["the arguments would change the request path outside its segment; refused"] };
  }
  return { ok: true, url: parsed.href };
}

/** True for `application/x-www-form-urlencoded` (parameters ignored). */
export function isFormMediaType(mediaType: string): boolean {
  return mediaType.split(";")[0].trim().toLowerCase() === "application/x-www-form-urlencoded";
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A map whose values are scalars (or nil): what `style: form` can write. */
function isFlatObject(v: unknown): v is Record<string, JsonValue> {
  return isObject(v) && Object.values(v).every((x) => x === null || isScalar(x));
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}
