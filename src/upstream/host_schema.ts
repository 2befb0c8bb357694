/**
 * JSON Schemas written by someone else (an MCP server's input and output schemas, an OpenAPI document, a recording's
 * manifest), prepared for checking on ptc's own thread with `@cfworker/json-schema`, whose `pattern` and
 * `patternProperties` would run on V8's backtracking engine (`^(a+)+$` against forty a's and a `!` freezes the host
 * for minutes). {@link hostSchema} returns a copy in which:
 *
 * - each `pattern` becomes a `format` the validator looks up among its formats, registered here and matched by RE2
 *   in linear time (`linear_pattern.ts`); a pattern RE2 cannot express is left out and reported in `skipped`, for a
 *   start warning — the upstream still judges it;
 * - each `patternProperties` is left out and its node accepts the keys it matched (`additionalProperties` and
 *   `unevaluatedProperties` relaxed): the validator has no hook for matching property names, and the upstream
 *   judges those values. `tool_args.ts` still matches top-level argument names against these patterns with RE2;
 * - a `format` that names one of ptc's formats is removed (an upstream cannot call them by name);
 * - `format: "url"` is checked by ptc's own linear test: the validator's `url` regex backtracks exponentially
 *   (`http://` and thirty letters then `!` takes seconds, forty hours). ptc's test is looser (an `http`, `https` or
 *   `ftp` URL the WHATWG parser accepts); the upstream judges the rest.
 *
 * Only schema positions are walked (`properties`, `items`, `allOf`, `$defs` …): a `default`, `const`, `enum` or
 * `examples` value that happens to hold a `pattern` key is data and left alone.
 * @module
 */
import { format } from "@cfworker/json-schema";
import { linearPattern } from "./linear_pattern.ts";

/** A pattern left out of a host schema. */
export interface SkippedPattern {
  /** JSON Pointer of the keyword in the original schema (`/properties/s/pattern`). */
  pointer: string;
  pattern: string;
  reason: string;
}

/** A schema ready for the host's validator and what was left out of it. */
export interface HostSchema<T> {
  schema: T;
  skipped: SkippedPattern[];
}

const FORMAT_PREFIX = "ptc-linear-pattern:";
/** Pattern formats registered at most; past it the registry starts over (a stale lookup then passes). */
const MAX_FORMATS = 10_000;
const registered = new Set<string>();
const formats = format as Record<string, (value: string) => boolean>;

/** The original pattern behind one of ptc's pattern formats, or undefined for any other format. */
export function patternOfFormat(name: unknown): string | undefined {
  return typeof name === "string" && name.startsWith(FORMAT_PREFIX) ? name.slice(FORMAT_PREFIX.length) : undefined;
}

/** ptc's stand-in for the validator's `url` format (see the module doc). */
const URL_FORMAT = "ptc-linear-url";
formats[URL_FORMAT] = (value: string) => /^(?:https?|ftp):\/\/\S+$/i.test(value) && URL.canParse(value);

/** How a format is named in messages: the validator's name for ptc's `url` stand-in, else the name itself. */
export function displayFormat(name: string): string {
  return name === URL_FORMAT ? "url" : name;
}

function register(pattern: string, test: (input: string) => boolean): string {
  const name = FORMAT_PREFIX + pattern;
  if (registered.has(name)) return name;
  if (registered.size >= MAX_FORMATS) {
    for (const n of registered) delete formats[n];
    registered.clear();
  }
  formats[name] = test;
  registered.add(name);
  return name;
}

type Node = Record<string, unknown>;

function isObject(v: unknown): v is Node {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Keywords whose value is one schema / a list of schemas / a map of names to schemas. */
const ONE = ["additionalProperties", "unevaluatedProperties", "propertyNames", "contains", "not", "if", "then", "else"]
  .concat(["additionalItems", "unevaluatedItems", "items"]);
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

const escapePointer = (k: string) => k.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every schema node under `root` with its JSON Pointer (iterative: a deep schema never overflows the stack). */
function* schemaNodes(root: unknown): Generator<[Node, string]> {
  const stack: [unknown, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (!isObject(node)) continue;
    yield [node, at];
    for (const k of ONE) if (isObject(node[k])) stack.push([node[k], `${at}/${k}`]);
    for (const k of LIST) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((s, i) => stack.push([s, `${at}/${k}/${i}`]));
    }
    for (const k of MAP) {
      const map = node[k];
      if (!isObject(map)) continue;
      for (const [name, s] of Object.entries(map)) stack.push([s, `${at}/${k}/${escapePointer(name)}`]);
    }
  }
}

function needsRewrite(node: Node): boolean {
  return typeof node.pattern === "string" || isObject(node.patternProperties) || node.format === "url" ||
    patternOfFormat(node.format) !== undefined || node.format === URL_FORMAT;
}

/** A deep copy of JSON data (iterative, unlike structuredClone: any depth). */
function cloneJson<T>(root: T): T {
  const out = (Array.isArray(root) ? [] : {}) as Node;
  const stack: [Node, Node][] = [[root as Node, out]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      if (v !== null && typeof v === "object") {
        const c = (Array.isArray(v) ? [] : {}) as Node;
        to[k] = c;
        stack.push([v as Node, c]);
      } else to[k] = v;
    }
  }
  return out as T;
}

function rewrite(node: Node, at: string, skipped: SkippedPattern[]): void {
  if (patternOfFormat(node.format) !== undefined || node.format === URL_FORMAT) delete node.format;
  if (node.format === "url") node.format = URL_FORMAT;
  if (typeof node.pattern === "string") {
    const pattern = node.pattern;
    delete node.pattern;
    const linear = linearPattern(pattern);
    if (!linear.ok) skipped.push({ pointer: `${at}/pattern`, pattern, reason: linear.reason });
    else {
      const name = register(pattern, linear.test);
      if (node.format === undefined) node.format = name;
      else node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { format: name }];
    }
  }
  if (isObject(node.patternProperties)) {
    for (const p of Object.keys(node.patternProperties)) {
      const linear = linearPattern(p);
      if (!linear.ok) {
        skipped.push({ pointer: `${at}/patternProperties/${escapePointer(p)}`, pattern: p, reason: linear.reason });
      }
    }
    delete node.patternProperties;
    if (node.additionalProperties !== undefined) node.additionalProperties = true;
    delete node.unevaluatedProperties;
  }
}

const memo = new WeakMap<object, HostSchema<unknown>>();

/**
 * `schema` as the host may check it (see the module doc): the schema itself when it has no pattern, else a rewritten
 * copy. Memoized per schema object.
 */
export function hostSchema<T>(schema: T): HostSchema<T> {
  if (!isObject(schema)) return { schema, skipped: [] };
  const hit = memo.get(schema);
  if (hit) return hit as HostSchema<T>;
  let result: HostSchema<T> = { schema, skipped: [] };
  let found = false;
  for (const [node] of schemaNodes(schema)) {
    if (needsRewrite(node)) {
      found = true;
      break;
    }
  }
  if (found) {
    const copy = cloneJson(schema);
    const skipped: SkippedPattern[] = [];
    const nodes = [...schemaNodes(copy)];
    for (const [node, at] of nodes) rewrite(node, at, skipped);
    result = { schema: copy, skipped };
  }
  memo.set(schema, result);
  return result;
}

/**
 * One warning (without a `warning:` prefix) per pattern of a tool's schemas the host will not check, naming the tool and the field, e.g.
 * `tool status: outputSchema /properties/s/pattern "(?=x)" is not checked by ptc (it uses a lookahead …); the server
 * still judges it`. Callers prefix the upstream.
 */
export function skippedPatternWarnings(tool: string, schemas: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [field, schema] of Object.entries(schemas)) {
    if (schema === undefined) continue;
    for (const s of hostSchema(schema).skipped) {
      const shown = s.pattern.length > 80 ? `${s.pattern.slice(0, 80)}…` : s.pattern;
      lines.push(
        `tool ${tool}: ${field} ${s.pointer} ${JSON.stringify(shown)} is not checked by ptc ` +
          `(${s.reason}); the server still judges it`,
      );
    }
  }
  return lines;
}

const FORMAT_ERROR = `String does not match format "${FORMAT_PREFIX}`;

/**
 * A `@cfworker/json-schema` error text with ptc's formats put back as what they stand for (`String does not match
 * pattern "^a+$".`, `… format "url".`); any other text unchanged.
 */
export function plainValidatorError(text: string): string {
  if (text === `String does not match format "${URL_FORMAT}".`) return 'String does not match format "url".';
  if (!text.startsWith(FORMAT_ERROR) || !text.endsWith('".')) return text;
  return `String does not match pattern "${text.slice(FORMAT_ERROR.length, -2)}".`;
}
