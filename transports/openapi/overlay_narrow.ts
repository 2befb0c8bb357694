/**
 * Overlays only ever narrow what the document says about safety. Before the overlays run, the safety settings of
 * every operation are taken from the document (`x-ptc-read-only: false`, `x-ptc-max-response-bytes`,
 * `x-mcp-enabled: false`); afterwards each operation at the same method and path, or with the same operationId,
 * gets back any of them an overlay dropped or widened — with a warning naming the operation. An overlay can add
 * these settings, lower a cap or disable an operation; it can never turn a write into a read, raise a cap or
 * re-enable an operation. The operator's config stays above both (the compiler applies it).
 * @module
 */
import { describeOperation, indexOperations, type OperationRef } from "./operations.ts";
import { RefResolver } from "./refs.ts";
import { openapi30Transform } from "./schema.ts";

/** The document's safety settings of one operation. */
export interface SafetyFloor {
  /** `x-ptc-read-only: false`: the GET has side effects. */
  write: boolean;
  /** A valid `x-ptc-max-response-bytes`. */
  maxResponseBytes?: number;
  /** `x-mcp-enabled: false`. */
  disabled: boolean;
}

/** Floors by `METHOD path` and by operationId. */
export interface SafetyFloors {
  byLocation: Map<string, SafetyFloor>;
  byId: Map<string, SafetyFloor>;
}

/** The safety settings the document gives its operations (only operations that set one are listed). */
export function safetyFloors(doc: Record<string, unknown>, version: "3.0" | "3.1"): SafetyFloors {
  const floors: SafetyFloors = { byLocation: new Map(), byId: new Map() };
  for (const ref of operations(doc, version)) {
    const op = ref.operation;
    const cap = op["x-ptc-max-response-bytes"];
    const floor: SafetyFloor = {
      write: op["x-ptc-read-only"] === false,
      ...(validCap(cap) ? { maxResponseBytes: cap } : {}),
      disabled: op["x-mcp-enabled"] === false,
    };
    if (!floor.write && floor.maxResponseBytes === undefined && !floor.disabled) continue;
    floors.byLocation.set(describeOperation(ref), floor);
    if (!ref.derived) floors.byId.set(ref.id, floor);
  }
  return floors;
}

/** Put back every safety setting the overlays dropped or widened; one warning per restored setting. */
export function enforceFloors(doc: Record<string, unknown>, version: "3.0" | "3.1", floors: SafetyFloors): string[] {
  if (floors.byLocation.size === 0) return [];
  const warnings: string[] = [];
  for (const ref of operations(doc, version)) {
    const found = [floors.byLocation.get(describeOperation(ref)), ref.derived ? undefined : floors.byId.get(ref.id)]
      .filter((f): f is SafetyFloor => f !== undefined);
    const op = ref.operation;
    const where = `${describeOperation(ref)} (${ref.id})`;
    const restore = (key: string, value: unknown, what: string) => {
      op[key] = value;
      warnings.push(`${where}: the document ${what}; an overlay cannot widen it, so ${key}: ${value} is kept`);
    };
    for (const floor of found) {
      if (floor.write && op["x-ptc-read-only"] !== false) {
        restore("x-ptc-read-only", false, "marks it as having side effects (x-ptc-read-only: false)");
      }
      const cap = op["x-ptc-max-response-bytes"];
      if (floor.maxResponseBytes !== undefined && !(validCap(cap) && cap <= floor.maxResponseBytes)) {
        restore(
          "x-ptc-max-response-bytes",
          floor.maxResponseBytes,
          `caps its responses at ${floor.maxResponseBytes} bytes`,
        );
      }
      if (floor.disabled && op["x-mcp-enabled"] !== false) {
        restore("x-mcp-enabled", false, "disables it (x-mcp-enabled: false)");
      }
    }
  }
  return warnings;
}

function validCap(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

function operations(doc: Record<string, unknown>, version: "3.0" | "3.1"): OperationRef[] {
  const resolver = new RefResolver(doc, { transform: version === "3.0" ? openapi30Transform : undefined });
  return [...indexOperations(doc, resolver).byId.values()].flat();
}
