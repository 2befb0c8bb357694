/**
 * A survey of a whole OpenAPI document: every operation with whether it compiles as a ptc tool and, if not, why —
 * what `ptc catalog --operations DOC` prints and what `ptc init openapi` turns into a config. Each operation is
 * compiled on its own exactly as an upstream start would compile it; tool-name collisions are then reported on the
 * later operation of each pair. An operation other than GET is compiled as if the operator had declared it (a write,
 * or a read for a POST the document marks `x-ptc-read-only: true`); when it compiles it is still listed as not
 * included, with the exact override to add — including a write is always the operator's decision.
 * @module
 */
import { type CompileConfig, compileOperation } from "./compiler.ts";
import { describeOperation, indexOperations, type OperationRef } from "./operations.ts";
import { TOOL_METHODS } from "./effect.ts";
import { RefError, RefResolver } from "./refs.ts";
import { openapi30Transform } from "./schema.ts";

/** One operation of the document. */
export interface SurveyedOperation {
  id: string;
  /** True when `id` was derived from method and path (the document has no operationId). */
  derived: boolean;
  method: string;
  path: string;
  summary: string;
  deprecated: boolean;
  /** The operation's `tags` (strings only), for `ptc init openapi --tag`. */
  tags: string[];
  /** The tool name when it compiles. */
  tool?: string;
  /** Why it does not compile (empty when it does). */
  problems: string[];
  /**
   * A non-GET operation that compiles once declared: the effect to declare in `operation_overrides.<id>.effect`
   * (`tool` is then absent: it is not included by default).
   */
  declare?: "read" | "write";
  warnings: string[];
}

/** Longest summary kept. */
const MAX_SUMMARY = 100;

/** Survey every operation of `doc` (document order; derived ids after real ones, as the index orders them). */
export function surveyDocument(
  doc: Record<string, unknown>,
  version: "3.0" | "3.1",
  config: Omit<CompileConfig, "includeOperations" | "operationOverrides">,
): SurveyedOperation[] {
  const resolver = new RefResolver(doc, { transform: version === "3.0" ? openapi30Transform : undefined });
  const index = indexOperations(doc, resolver);
  const full: CompileConfig = { ...config, includeOperations: [], operationOverrides: {} };
  const out: SurveyedOperation[] = [];
  const byTool = new Map<string, SurveyedOperation>();
  for (const refs of index.byId.values()) {
    for (const ref of refs) {
      const entry = survey(ref, refs.length, resolver, full);
      if (entry.tool !== undefined) {
        const first = byTool.get(entry.tool);
        if (first) {
          entry.problems.push(
            `its tool name "${entry.tool}" is already produced by ${first.id} (${describeOperation(first)}); ` +
              "set operation_overrides.<id>.name",
          );
          delete entry.tool;
        } else byTool.set(entry.tool, entry);
      }
      out.push(entry);
    }
  }
  return out;
}

function survey(ref: OperationRef, sharing: number, resolver: RefResolver, config: CompileConfig): SurveyedOperation {
  const op = ref.operation;
  const text = typeof op.summary === "string" && op.summary.trim() !== ""
    ? op.summary
    : typeof op.description === "string"
    ? op.description
    : "";
  const summary = oneLine(text, MAX_SUMMARY);
  const base = {
    id: ref.id,
    derived: ref.derived,
    method: ref.method,
    path: ref.path,
    summary,
    deprecated: ref.deprecated,
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [],
  };
  if (sharing > 1) {
    return { ...base, problems: [`operationId "${ref.id}" is used by ${sharing} operations`], warnings: [] };
  }
  const where = `${describeOperation(ref)} (${ref.id}): `;
  const strip = (line: string) => line.startsWith(where) ? line.slice(where.length) : line;
  const declare = ref.method === "GET" || !TOOL_METHODS.includes(ref.method)
    ? undefined
    : ref.method === "POST" && op["x-ptc-read-only"] === true
    ? "read"
    : "write";
  try {
    const outcome = compileOperation(ref, declare ? { effect: declare } : {}, resolver, config);
    if (outcome.disabled) return { ...base, problems: [outcome.disabled], warnings: [] };
    const problems = outcome.errors.map(strip);
    const warnings = outcome.warnings.map(strip);
    if (declare && outcome.compiled && problems.length === 0) {
      return { ...base, problems: [declareHint(ref, declare)], warnings, declare };
    }
    if (outcome.compiled && outcome.compiled.entry.annotations.readOnlyHint === false) {
      problems.push("is marked x-ptc-read-only: false (has side effects); include it deliberately if you want it");
    }
    if (outcome.compiled && problems.length === 0) {
      return { ...base, tool: outcome.compiled.entry.name, problems, warnings };
    }
    return { ...base, problems, warnings };
  } catch (error) {
    if (error instanceof RefError) return { ...base, problems: [error.message], warnings: [] };
    throw error;
  }
}

/** How to include a non-GET operation that compiles once declared: the exact override (and the write gate). */
function declareHint(ref: OperationRef, effect: "read" | "write"): string {
  const j = JSON.stringify;
  const override = `"operation_overrides": {${j(ref.id)}: {"effect": ${j(effect)}}}`;
  const what = effect === "read"
    ? `a ${ref.method} the document marks x-ptc-read-only: true; if it is a safe query, include it and add`
    : `a write (${ref.method}); to include it add`;
  const gate = effect === "write" ? ' and "allow_writes": true, and start ptc with --allow-writes' : "";
  // A POST may be a search the document does not mark: say how to include it as a read, which needs no write switch.
  const query = effect === "write" && ref.method === "POST"
    ? `; if it only reads (a search or query), declare {"effect": "read"} instead`
    : "";
  return `${what} ${override}${gate}${query}`;
}

function oneLine(text: string, max: number): string {
  // deno-lint-ignore no-control-regex -- document text goes into one comment line
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
