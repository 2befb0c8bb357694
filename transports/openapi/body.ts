/**
 * Request bodies of OpenAPI operations. A JSON body (`application/json` or any `+json` media type) whose schema is an
 * object (refs inlined with the document's bounded resolver, `allOf` members merged) gives one argument per
 * property, named exactly as the document names it; the executor sends the arguments given as the JSON body. An
 * `application/x-www-form-urlencoded` body (when the operation offers no JSON one) compiles the same way and is sent
 * form-encoded, nested objects and lists in the bracket encoding Stripe uses (`metadata[k]=v`, `items[0][price]=p`)
 * unless the document's `encoding` gives a field `style: form`. A property the document marks `readOnly` is
 * response-only and is not an argument. Anything else — multipart, octet-stream, a body that is an array or a
 * scalar, alternatives (`oneOf`/`anyOf`) — is refused, naming the operation and what it declares.
 * @module
 */
import type { JsonSchema } from "../../src/upstream/types.ts";
import type { RefResolver } from "./refs.ts";
import { type CompiledParam, MAX_PARAM_DESCRIPTION, typeList } from "./schema.ts";
import { isFormMediaType } from "./request.ts";

/** A compiled JSON request body. */
export interface CompiledBody {
  /** The media type sent as `content-type` (the document's JSON media type, without parameters). */
  mediaType: string;
  /** The document requires a body: it is sent (`{}` at least) even when no body argument is given. */
  required: boolean;
  /** One argument per property (`in: "body"`). */
  params: CompiledParam[];
}

/** What compiling a request body gave. `body` is absent when nothing is sent. */
export interface BodyOutcome {
  body?: CompiledBody;
  errors: string[];
  warnings: string[];
}

/**
 * True for a request body a GET can leave out: not required, and every media type's schema (if any) declares no
 * properties and no required keys (Stripe's GETs declare `{"type": "object", "properties": {}}` as a form body).
 */
export function isEmptyOptionalBody(raw: unknown, resolver: RefResolver, where: string): boolean {
  const body = resolver.deref(raw, `${where} requestBody`);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (b.required === true) return false;
  const content = b.content;
  if (content === undefined) return true;
  if (content === null || typeof content !== "object" || Array.isArray(content)) return false;
  return Object.values(content as Record<string, unknown>).every((media) => {
    if (media === null || typeof media !== "object") return false;
    const rawSchema = (media as { schema?: unknown }).schema;
    if (rawSchema === undefined) return true;
    const schema = resolver.deref(rawSchema, `${where} requestBody`);
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
    const s = schema as Record<string, unknown>;
    const props = s.properties;
    const noProps = props === undefined ||
      (props !== null && typeof props === "object" && Object.keys(props as object).length === 0);
    const noRequired = s.required === undefined || (Array.isArray(s.required) && s.required.length === 0);
    const noComposition = ["allOf", "anyOf", "oneOf", "$ref"].every((k) => s[k] === undefined);
    return noProps && noRequired && noComposition && (s.type === undefined || s.type === "object");
  });
}

/** `allOf` nesting followed while merging an object body. */
const MAX_ALLOF_DEPTH = 8;

/** True for `application/json`, `application/json; charset=utf-8` and any `…/…+json` media type. */
export function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^[a-z0-9.+-]+\/[a-z0-9.+-]*\+json$/.test(type);
}

/** Compile the `requestBody` of a non-GET operation. `where` prefixes messages (`POST /x (create-x)`). */
export function compileBody(raw: unknown, resolver: RefResolver, where: string): BodyOutcome {
  const out: BodyOutcome = { errors: [], warnings: [] };
  const body = resolver.deref(raw, `${where} requestBody`);
  if (!isObject(body)) {
    out.errors.push(`${where}: requestBody is not an object`);
    return out;
  }
  const required = body.required === true;
  const content = body.content;
  if (content === undefined || (isObject(content) && Object.keys(content).length === 0)) {
    out.warnings.push(`${where}: declares a request body without content; none is sent`);
    return out;
  }
  if (!isObject(content)) {
    out.errors.push(`${where}: requestBody.content is not an object`);
    return out;
  }
  const types = Object.keys(content);
  const json = types.find((t) => t.split(";")[0].trim().toLowerCase() === "application/json") ??
    types.find(isJsonMediaType) ?? types.find(isFormMediaType);
  if (json === undefined) {
    const list = types.slice(0, 4).map((t) => JSON.stringify(clip(t, 80))).join(", ");
    out.errors.push(
      `${where}: request body media type ${list} is not supported; ptc sends JSON bodies ` +
        "(application/json or a +json type) and application/x-www-form-urlencoded",
    );
    return out;
  }
  const form = isFormMediaType(json);
  const media = content[json];
  const rawSchema = isObject(media) ? media.schema : undefined;
  const mediaType = json.split(";")[0].trim();
  if (rawSchema === undefined) {
    if (required) {
      out.errors.push(`${where}: the required ${mediaType} request body has no schema; ptc cannot build its arguments`);
    } else out.warnings.push(`${where}: the optional ${mediaType} request body has no schema; none is sent`);
    return out;
  }
  const schema = resolver.inlineSchema(rawSchema, `${where} requestBody`);
  const flat = flatten(schema, 0);
  if ("error" in flat) {
    out.errors.push(
      `${where}: the ${mediaType} request body ${flat.error}; only object bodies are supported ` +
        "(their properties become arguments)",
    );
    return out;
  }
  const params: CompiledParam[] = [];
  for (const [name, prop] of Object.entries(flat.properties)) {
    if (isObject(prop) && prop.readOnly === true) continue; // response-only: never sent
    const propSchema: JsonSchema = isObject(prop) ? { ...prop } : {};
    const description = typeof propSchema.description === "string" && propSchema.description.trim() !== ""
      ? clip(propSchema.description.trim(), MAX_PARAM_DESCRIPTION)
      : undefined;
    delete propSchema.description;
    params.push({
      name,
      in: "body",
      required: required && flat.required.has(name),
      schema: propSchema,
      description,
      ...(form ? fieldEncoding(media, name) : { style: "", explode: false }),
    });
  }
  if (params.length === 0) {
    out.warnings.push(
      `${where}: the ${mediaType} request body declares no properties; ` +
        (required ? "ptc sends {}" : "none is sent"),
    );
  }
  out.body = { mediaType, required, params };
  return out;
}

/** Properties and required names of an object schema, its `allOf` members merged; or why it is not an object. */
function flatten(
  schema: unknown,
  depth: number,
): { properties: Record<string, unknown>; required: Set<string> } | { error: string } {
  if (!isObject(schema)) return { error: "has a schema that is not a JSON Schema object" };
  for (const key of ["oneOf", "anyOf"]) {
    if (schema[key] !== undefined) return { error: `uses ${key} (alternatives cannot become arguments)` };
  }
  const types = typeList(schema).filter((t) => t !== "null");
  if (types.length > 0 && !types.includes("object")) {
    return { error: `is of type ${types.join(" | ")}, not an object` };
  }
  if (types.length === 0 && schema.properties === undefined && schema.items !== undefined) {
    return { error: "is of type array, not an object" };
  }
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const merge = (props: unknown, req: unknown) => {
    if (isObject(props)) {
      for (const [k, v] of Object.entries(props)) {
        // the same property in two allOf members: both constraints hold
        properties[k] = Object.hasOwn(properties, k) ? { allOf: [properties[k], v] } : v;
      }
    }
    if (Array.isArray(req)) { for (const r of req) if (typeof r === "string") required.add(r); }
  };
  merge(schema.properties, schema.required);
  if (schema.allOf !== undefined) {
    if (!Array.isArray(schema.allOf)) return { error: "has an allOf that is not a list" };
    if (depth >= MAX_ALLOF_DEPTH) return { error: `nests allOf deeper than ${MAX_ALLOF_DEPTH} levels` };
    for (const member of schema.allOf) {
      const inner = flatten(member, depth + 1);
      if ("error" in inner) return { error: `has an allOf member that ${inner.error}` };
      merge(inner.properties, [...inner.required]);
    }
  }
  return { properties, required };
}

/** A form field's `encoding` entry: `style: form` (explode defaults to true) or, by default, bracket encoding. */
function fieldEncoding(media: unknown, name: string): { style: string; explode: boolean } {
  const encoding = isObject(media) && isObject(media.encoding) ? media.encoding[name] : undefined;
  if (isObject(encoding) && encoding.style === "form") {
    return { style: "form", explode: encoding.explode !== false };
  }
  return { style: "deepObject", explode: true };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
