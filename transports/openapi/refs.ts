/**
 * Internal `$ref` resolution for an OpenAPI document already in memory. Only `#/…` JSON pointers are followed;
 * external references are refused with a clear error. No network or file access ever happens here.
 *
 * Two kinds of resolution:
 * - {@link RefResolver.deref}: follow a chain of refs for a component object (parameter, response, path item,
 *   request body) and return the target;
 * - {@link RefResolver.inlineSchema}: return a self-contained copy of a schema with every ref inlined. A ref that is
 *   already being inlined higher up (a recursive schema) is cut to a finite stub, and nesting deeper than
 *   `maxDepth` refs is cut the same way, so the result is always finite. Acyclic results are memoized and shared.
 * @module
 */
import type { JsonValue } from "../../src/core/json.ts";
import { nestingDepth } from "../../src/core/json_depth.ts";

/** A problem resolving a reference; `message` names the ref and where it was met. */
export class RefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefError";
  }
}

type Json = unknown;

const MAX_CHAIN = 32;

/** Schema keywords whose value maps names to schemas (the names are data, not keywords). */
const MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Schema keywords whose value is data (never searched for refs). */
const DATA_KEYWORDS = new Set(["enum", "const", "default"]);

/** Rewrites one schema object (children already inlined). Must not mutate its input. */
export type SchemaTransform = (node: Record<string, unknown>) => Record<string, unknown>;

/** Resolves internal references of one document. Create one per document (it memoizes). */
export class RefResolver {
  readonly #doc: Json;
  readonly #maxDepth: number;
  /** Inlined acyclic targets and the levels of nesting they hold. */
  readonly #memo = new Map<string, { value: Json; height: number }>();
  readonly #transform: SchemaTransform;
  readonly #budget: number;
  #spent = 0;

  /**
   * `maxDepth` bounds nested refs while inlining; `transform` rewrites each schema object after its children are
   * inlined (e.g. OpenAPI 3.0 `nullable` → JSON Schema); it must return a new object, never mutate its input.
   */
  constructor(doc: Json, options: { maxDepth?: number; budget?: number; transform?: SchemaTransform } = {}) {
    this.#doc = doc;
    this.#maxDepth = options.maxDepth ?? 16;
    this.#budget = options.budget ?? 20_000;
    this.#transform = options.transform ?? ((node) => node);
  }

  /** Look up a `#/…` pointer. Throws RefError for external, malformed or dangling refs. */
  lookup(ref: string, where: string): Json {
    if (typeof ref !== "string") throw new RefError(`${where}: $ref must be a string`);
    if (!ref.startsWith("#")) {
      throw new RefError(
        `${where}: external $ref "${clip(ref)}" is not supported (only refs inside the document, "#/…"); ` +
          "bundle the document into one file first",
      );
    }
    const pointer = ref.slice(1);
    if (pointer !== "" && !pointer.startsWith("/")) {
      throw new RefError(`${where}: $ref "${clip(ref)}" is not a JSON pointer ("#/components/…")`);
    }
    let node: Json = this.#doc;
    if (pointer === "") return node;
    for (const raw of pointer.slice(1).split("/")) {
      let token: string;
      try {
        token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      } catch {
        throw new RefError(`${where}: $ref "${clip(ref)}" has a malformed escape`);
      }
      if (node === null || typeof node !== "object" || !Object.hasOwn(node as object, token)) {
        throw new RefError(`${where}: $ref "${clip(ref)}" points to nothing in the document`);
      }
      node = (node as Record<string, Json>)[token];
    }
    return node;
  }

  /** Follow a chain of `$ref`s (component objects). Returns the first non-ref object. */
  deref(node: Json, where: string): Json {
    const seen = new Set<string>();
    while (isRef(node)) {
      const ref = (node as { $ref: string }).$ref;
      if (seen.has(ref) || seen.size >= MAX_CHAIN) throw new RefError(`${where}: $ref "${clip(ref)}" is circular`);
      seen.add(ref);
      node = this.lookup(ref, where);
    }
    return node;
  }

  /**
   * A self-contained copy of `schema` with every ref inlined. Recursion, nesting deeper than `maxDepth` refs and
   * expansions past `budget` new objects (per call) are cut to finite stubs, so even documents whose schemas refer
   * to each other densely (cycles through anyOf everywhere) inline in bounded time and size.
   */
  inlineSchema(schema: Json, where: string): Json {
    this.#spent = 0;
    const value = this.#inline(schema, where, [], 0, false, 0).value;
    // Memoized targets are shared, so the result is small in memory; but everything downstream (redaction,
    // JSON serialisation, signatures) walks it as a tree. Refuse one whose tree would be huge.
    if (expandedSize(value, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES) {
      const named = isRef(schema) ? ` ($ref "${clip((schema as { $ref: string }).$ref)}")` : "";
      throw new RefError(
        `${where}${named}: schema_too_complex: written out in full the schema has more than ` +
          `${MAX_EXPANDED_NODES} nodes (its $refs share subtrees that multiply at every level); simplify the ` +
          "schema or leave the operation out of include_operations",
      );
    }
    return value;
  }

  #inline(node: Json, where: string, stack: string[], depth: number, isMap: boolean, level: number): Inlined {
    if (node === null || typeof node !== "object") return { value: node, cut: false, height: 0 };
    // Every walker after this one (schema checks, signatures, validation) recurses too: bound the nesting here, where
    // a document nested thousands of levels deep would otherwise overflow the stack.
    if (level >= MAX_SCHEMA_LEVELS) throw tooDeep(where);
    let height = 0;
    if (Array.isArray(node)) {
      let cut = false;
      const out = node.map((item) => {
        const r = this.#inline(item, where, stack, depth, false, level + 1);
        cut ||= r.cut;
        height = Math.max(height, r.height + 1);
        return r.value;
      });
      return { value: out, cut, height };
    }
    const obj = node as Record<string, Json>;
    if (!isMap && typeof obj.$ref === "string") return this.#inlineRef(obj, where, stack, depth, level);
    let cut = false;
    const out: Record<string, Json> = {};
    this.#spent++;
    for (const [k, v] of Object.entries(obj)) {
      // In a schema (not a name → schema map), `example(s)` and vendor extensions can be huge and say nothing
      // about types: drop them from tool schemas.
      if (
        !isMap && (k === "example" || k === "examples" || k === "xml" || k === "externalDocs" || k.startsWith("x-"))
      ) {
        continue;
      }
      if (!isMap && DATA_KEYWORDS.has(k)) {
        // data is copied as it is: its nesting counts too
        const h = nestingDepth(v as JsonValue, MAX_SCHEMA_LEVELS - level);
        if (h === undefined) throw tooDeep(where);
        height = Math.max(height, h + 1);
        out[k] = v;
        continue;
      }
      const r = this.#inline(v, where, stack, depth, !isMap && MAP_KEYWORDS.has(k), level + 1);
      cut ||= r.cut;
      height = Math.max(height, r.height + 1);
      out[k] = r.value;
    }
    return { value: isMap ? out : this.#transform(out), cut, height };
  }

  #inlineRef(obj: Record<string, Json>, where: string, stack: string[], depth: number, level: number): Inlined {
    const ref = obj.$ref as string;
    const siblings = Object.keys(obj).filter((k) => k !== "$ref" && !k.startsWith("x-"));
    if (stack.includes(ref) || depth >= this.#maxDepth || this.#spent >= this.#budget) {
      const why = stack.includes(ref) ? "recursive" : depth >= this.#maxDepth ? "nested too deep" : "schema too large";
      return { value: stub(ref, why), cut: true, height: 1 };
    }
    let resolved: Inlined;
    const memo = this.#memo.get(ref);
    if (memo !== undefined) {
      // a shared target placed deeper than where it was first inlined nests deeper too
      if (level + memo.height >= MAX_SCHEMA_LEVELS) throw tooDeep(where);
      resolved = { value: memo.value, cut: false, height: memo.height };
    } else {
      const target = this.lookup(ref, where);
      resolved = this.#inline(target, where, [...stack, ref], depth + 1, false, level);
      if (!resolved.cut) this.#memo.set(ref, { value: resolved.value, height: resolved.height });
    }
    if (siblings.length === 0) return resolved;
    // OpenAPI 3.1 allows keywords beside $ref (e.g. a description): merge them over a copy of the target.
    const rest: Record<string, Json> = {};
    for (const k of siblings) rest[k] = obj[k];
    const inlinedRest = this.#inline(rest, where, stack, depth, false, level);
    const base = resolved.value !== null && typeof resolved.value === "object" && !Array.isArray(resolved.value)
      ? resolved.value as Record<string, Json>
      : {};
    return {
      value: { ...base, ...(inlinedRest.value as Record<string, Json>) },
      cut: resolved.cut || inlinedRest.cut,
      height: Math.max(resolved.height, inlinedRest.height),
    };
  }
}

/** What inlining one node gave: the copy, whether a stub cut it, and how many levels of objects/arrays it nests. */
interface Inlined {
  value: Json;
  cut: boolean;
  height: number;
}

/** Deepest nesting of objects and arrays an inlined schema may have (counted through its refs). */
export const MAX_SCHEMA_LEVELS = 1000;

function tooDeep(where: string): RefError {
  return new RefError(
    `${where}: schema_too_complex: the schema nests objects and arrays more than ${MAX_SCHEMA_LEVELS} levels deep ` +
      "(counted through its $refs); simplify the schema or leave the operation out of include_operations",
  );
}

/** Largest inlined schema accepted, counted as the nodes of its fully written-out tree. */
export const MAX_EXPANDED_NODES = 100_000;

/**
 * Nodes (objects, arrays and scalars) of `value` written out as a tree, counting each shared subtree once per
 * occurrence; stops counting once past `limit`. Linear in the distinct objects (memoized by identity).
 */
export function expandedSize(value: Json, limit: number): number {
  const memo = new Map<object, number>();
  const size = (node: Json): number => {
    if (node === null || typeof node !== "object") return 1;
    const known = memo.get(node);
    if (known !== undefined) return known;
    let n = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      n += size(child);
      if (n > limit) break;
    }
    memo.set(node, n);
    return n;
  };
  return size(value);
}

/** True for a JSON object whose own `$ref` is a string. */
export function isRef(node: Json): boolean {
  return node !== null && typeof node === "object" && !Array.isArray(node) &&
    typeof (node as { $ref?: unknown }).$ref === "string";
}

function stub(ref: string, why: string): Json {
  const name = ref.split("/").at(-1) ?? ref;
  return { description: `(${why}: ${name})` };
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
