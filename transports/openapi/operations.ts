/**
 * Index of the operations of an OpenAPI document: every method of every path item, keyed by its operationId or,
 * without one, by a deterministic id derived from method and path (so it can still be included).
 * @module
 */
import { derivedOperationId } from "./names.ts";
import { RefError, type RefResolver } from "./refs.ts";

/** HTTP methods an OpenAPI path item may hold. */
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One operation of the document. */
export interface OperationRef {
  /** operationId, or the derived id when the document has none. */
  id: string;
  /** True when `id` was derived from method and path. */
  derived: boolean;
  method: string;
  path: string;
  /** The resolved path item (for path-level parameters and servers). */
  pathItem: Record<string, unknown>;
  operation: Record<string, unknown>;
  deprecated: boolean;
}

/** The index: id → operations carrying it (more than one = an ambiguous id). */
export interface OperationIndex {
  byId: Map<string, OperationRef[]>;
  /** Path items that could not be read (ref problems), one line each. Only reported when relevant. */
  problems: string[];
}

/** Walk `paths` and index every operation. Path-item `$ref`s are followed (internal only). */
export function indexOperations(doc: Record<string, unknown>, resolver: RefResolver): OperationIndex {
  const byId = new Map<string, OperationRef[]>();
  const problems: string[] = [];
  const pending: Omit<OperationRef, "id" | "derived">[] = [];
  const paths = (doc.paths ?? {}) as Record<string, unknown>;
  for (const [path, rawItem] of Object.entries(paths)) {
    let item: unknown;
    try {
      item = resolver.deref(rawItem, `paths.${path}`);
    } catch (error) {
      if (error instanceof RefError) {
        problems.push(error.message);
        continue;
      }
      throw error;
    }
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const pathItem = item as Record<string, unknown>;
    for (const method of METHODS) {
      const op = pathItem[method];
      if (op === null || typeof op !== "object" || Array.isArray(op)) continue;
      const operation = op as Record<string, unknown>;
      const entry = {
        method: method.toUpperCase(),
        path,
        pathItem,
        operation,
        deprecated: operation.deprecated === true,
      };
      const opId = typeof operation.operationId === "string" ? operation.operationId.trim() : "";
      if (opId !== "") add(byId, { ...entry, id: opId, derived: false });
      else pending.push(entry);
    }
  }
  // Derived ids come second so that a real operationId keeps its name; clashes get a numeric suffix.
  for (const entry of pending) {
    const base = derivedOperationId(entry.method, entry.path);
    let id = base;
    for (let n = 2; byId.has(id); n++) id = `${base}-${n}`;
    add(byId, { ...entry, id, derived: true });
  }
  return { byId, problems };
}

/** Where an operation lives, for messages: `GET /pets/{petId}`. */
export function describeOperation(op: Pick<OperationRef, "method" | "path">): string {
  return `${op.method} ${op.path}`;
}

function add(map: Map<string, OperationRef[]>, ref: OperationRef): void {
  const list = map.get(ref.id);
  if (list) list.push(ref);
  else map.set(ref.id, [ref]);
}
