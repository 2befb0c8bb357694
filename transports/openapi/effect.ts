/**
 * What an included OpenAPI operation does — its effect — from its method, the operator's override and the document.
 * A GET is a read unless the operator or the document says it has side effects; any other method is included only
 * when the operator declares its effect (`operation_overrides.<id>.effect`): `write` for POST/PUT/PATCH/DELETE, or
 * `read` for a POST that is a safe query. The document can make a tool narrower (a write), never wider: its
 * `x-ptc-read-only: true` alone never makes a POST a read. Whether a write is installed is the runtime's decision.
 * @module
 */
import type { ToolAnnotations, ToolEffect } from "../../src/upstream/types.ts";
import type { OperationOverride } from "./config.ts";

/** Methods that may become tools. */
export const TOOL_METHODS: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The effect of one operation, or why it cannot be included; a warning when the document narrowed the operator. */
export type EffectDecision =
  | { ok: true; effect: ToolEffect; warning?: string }
  | { ok: false; error: string };

/**
 * Decide the effect. `where` names the operation (`POST /x (create-x)`), `overridePath` its override's key path
 * (`upstreams.obs.operation_overrides.create-x`).
 */
export function operationEffect(
  method: string,
  op: Record<string, unknown>,
  override: OperationOverride,
  where: string,
  overridePath: string,
): EffectDecision {
  if (!TOOL_METHODS.includes(method)) {
    return { ok: false, error: `${where}: ${method} operations are not supported (only ${TOOL_METHODS.join(", ")})` };
  }
  const docWrite = op["x-ptc-read-only"] === false;
  const declared = override.effect ?? (override.read_only === false ? "write" : undefined);
  if (method === "GET") {
    if (declared === "read" && docWrite) {
      return {
        ok: true,
        effect: "write",
        warning: `${where}: ${overridePath}.effect is "read" but the document marks it x-ptc-read-only: false; ` +
          "the narrower effect (write) is in force",
      };
    }
    return { ok: true, effect: docWrite || declared === "write" ? "write" : "read" };
  }
  const effectKey = `${overridePath}.effect`;
  if (override.effect === undefined) {
    const query = method === "POST" ? ' (or "read" if it is a safe query)' : "";
    const docSays = op["x-ptc-read-only"] === true
      ? "; the document's x-ptc-read-only: true alone does not make it a read"
      : "";
    return {
      ok: false,
      error: `${where}: a ${method} may change the service, so it is included only when the operator declares it: ` +
        `set ${effectKey} to "write"${query}${docSays}; a write tool also needs allow_writes: true and ` +
        "ptc started with --allow-writes",
    };
  }
  if (override.effect === "read" && method !== "POST") {
    return {
      ok: false,
      error: `${effectKey}: "read" is not allowed on a ${method} (${where}); only a POST can be declared a safe ` +
        'query — declare it "write"',
    };
  }
  if (override.effect === "read" && docWrite) {
    return {
      ok: true,
      effect: "write",
      warning: `${where}: ${effectKey} is "read" but the document marks it x-ptc-read-only: false; ` +
        "the narrower effect (write) is in force",
    };
  }
  return { ok: true, effect: override.effect };
}

/**
 * MCP-style annotations of an operation with this effect: reads are read-only and non-destructive; a POST write
 * adds (not destructive), PUT/PATCH/DELETE may overwrite or remove (destructive), PUT and DELETE are idempotent.
 */
export function effectAnnotations(method: string, effect: ToolEffect): ToolAnnotations {
  if (effect === "read") return { readOnlyHint: true, destructiveHint: false, openWorldHint: true };
  if (method === "GET") return { readOnlyHint: false, openWorldHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: method !== "POST",
    idempotentHint: method === "PUT" || method === "DELETE",
    openWorldHint: true,
  };
}
