/**
 * Screening regular expressions someone else wrote before ptc runs them on its own thread: the shape of the classic
 * catastrophic backtracking, a group that repeats (unboundedly) something that itself repeats unboundedly, like
 * `(a+)+` or `(x*)*`. The language refuses such a pattern when a program compiles it.
 *
 * Input schemas come from upstreams (an MCP server's `inputSchema`, an OpenAPI document) or from a recording's
 * manifest: their `pattern` and `patternProperties` regexes are someone else's code, and the host checks tool
 * arguments against them on its own thread, where a catastrophic backtracking would freeze every evaluation (the
 * deadline timers included). A pattern `backtrackingRisk` flags is left to the upstream to judge: the host checks
 * arguments against `withoutRiskyPatterns(schema)`.
 * @module
 */
import type { JsonObject } from "./json.ts";

function unboundedAt(src: string, i: number): boolean {
  const c = src[i];
  if (c === "*" || c === "+") return true;
  if (c === "{") return /^\{\d*,\}/.test(src.slice(i, i + 12));
  return false;
}

/**
 * True when the pattern repeats (unboundedly) a group holding something `marks` picks out at position `i` (escapes
 * and character classes skipped; nested groups count for the groups around them).
 */
function repeatsGroupWith(src: string, marks: (src: string, i: number) => boolean): boolean {
  const stack: boolean[] = [false];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      i++;
    } else if (c === "[") {
      i++;
      if (src[i] === "^") i++;
      if (src[i] === "]") i++;
      while (i < src.length && src[i] !== "]") {
        if (src[i] === "\\") i++;
        i++;
      }
    } else if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.length > 1 ? stack.pop()! : false;
      if (inner && unboundedAt(src, i + 1)) return true;
      if (inner) stack[stack.length - 1] = true;
    } else if (marks(src, i)) stack[stack.length - 1] = true;
  }
  return false;
}

/** True when the pattern repeats (unboundedly) a group that itself contains unbounded repetition. */
export function nestedRepetition(src: string): boolean {
  return repeatsGroupWith(src, unboundedAt);
}

/** True when the pattern repeats (unboundedly) a group holding an alternation, like `(a|a)+` or `(x|xy)*`. */
function repeatedAlternation(src: string): boolean {
  return repeatsGroupWith(src, (s, i) => s[i] === "|");
}

/**
 * Why ptc should not run `pattern` (an input schema's, written by an upstream or a recording) on its own thread, or
 * undefined when it may: the nested repetition the language refuses, or an unboundedly repeated alternation — the
 * shapes whose backtracking grows exponentially with the input.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  if (nestedRepetition(pattern)) return "it repeats a repeated group (like (a+)+)";
  if (repeatedAlternation(pattern)) return "it repeats an alternation (like (a|a)+)";
  return undefined;
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Every object inside `root`, root included (iterative: a deep schema never overflows the stack). */
function* objectsOf(root: unknown): Generator<JsonObject> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (!Array.isArray(node)) yield node as JsonObject;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
}

/** A deep copy of JSON data (iterative, unlike structuredClone: any depth). */
function cloneJson(root: object): object {
  const out: Record<string, unknown> = Array.isArray(root) ? [] as unknown as Record<string, unknown> : {};
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [[root as Record<string, unknown>, out]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      if (v !== null && typeof v === "object") {
        const c = (Array.isArray(v) ? [] : {}) as Record<string, unknown>;
        to[k] = c;
        stack.push([v as Record<string, unknown>, c]);
      } else to[k] = v;
    }
  }
  return out;
}

/** Whether `node` holds a risky `pattern` or `patternProperties` key. */
function risky(node: JsonObject): boolean {
  if (typeof node.pattern === "string" && backtrackingRisk(node.pattern)) return true;
  return isObject(node.patternProperties) && Object.keys(node.patternProperties).some((p) => backtrackingRisk(p));
}

/** True when `pattern` (a `patternProperties` key or a `pattern`) may be run by the host. */
export function hostMayRun(pattern: string): boolean {
  return backtrackingRisk(pattern) === undefined;
}

/**
 * `schema` itself when none of its patterns is risky, else a copy without them: a risky `pattern` is removed; a
 * risky `patternProperties` key is removed and the node accepts additional properties (the keys it matched
 * are then accepted, for the upstream to judge).
 */
export function withoutRiskyPatterns<T extends Record<string, unknown>>(schema: T): T {
  let found = false;
  for (const node of objectsOf(schema)) {
    if (risky(node)) {
      found = true;
      break;
    }
  }
  if (!found) return schema;
  const copy = cloneJson(schema) as JsonObject;
  for (const node of objectsOf(copy)) {
    if (typeof node.pattern === "string" && backtrackingRisk(node.pattern)) delete node.pattern;
    if (isObject(node.patternProperties)) {
      const props = node.patternProperties;
      const bad = Object.keys(props).filter((p) => backtrackingRisk(p));
      for (const p of bad) delete props[p];
      if (bad.length > 0) node.additionalProperties = true;
    }
  }
  return copy as unknown as T;
}
