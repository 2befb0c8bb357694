/**
 * Overlays only ever narrow what the document says about safety. Before the overlays run, the safety settings of
 * every operation are taken from the document (`x-ptc-read-only: false`, `x-ptc-max-response-bytes`,
 * `x-mcp-enabled: false`); afterwards each operation at the same method and path, or with the same operationId,
 * gets back any of them an overlay dropped or widened — with a warning naming the operation. An operation at a
 * location the document does not have gets the settings of every document operation whose request it repeats: the
 * same method and URL path once template names, a `#fragment`, a fixed `?query`, repeated and trailing slashes and
 * letter case are set aside (`/pets/{id}/feed/` is `/pets/{petId}/feed`), so moving an operation does not widen it.
 * An overlay can add
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
  /** Floors by the request an operation sends (`requestShape`), with the document location that set each one. */
  byShape: Map<string, { location: string; floor: SafetyFloor }[]>;
  /** Every `METHOD path` of the document, floored or not. */
  locations: Set<string>;
}

/** The safety settings the document gives its operations (only operations that set one are listed). */
export function safetyFloors(doc: Record<string, unknown>, version: "3.0" | "3.1"): SafetyFloors {
  const floors: SafetyFloors = { byLocation: new Map(), byId: new Map(), byShape: new Map(), locations: new Set() };
  for (const ref of operations(doc, version)) {
    floors.locations.add(describeOperation(ref));
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
    const shape = requestShape(ref);
    const same = floors.byShape.get(shape) ?? [];
    same.push({ location: describeOperation(ref), floor });
    floors.byShape.set(shape, same);
  }
  return floors;
}

/** Put back every safety setting the overlays dropped or widened; one warning per restored setting. */
export function enforceFloors(doc: Record<string, unknown>, version: "3.0" | "3.1", floors: SafetyFloors): string[] {
  if (floors.byLocation.size === 0) return [];
  const warnings: string[] = [];
  for (const ref of operations(doc, version)) {
    const location = describeOperation(ref);
    const found: { from?: string; floor: SafetyFloor }[] = [
      floors.byLocation.get(location),
      ref.derived ? undefined : floors.byId.get(ref.id),
    ].filter((f): f is SafetyFloor => f !== undefined).map((floor) => ({ floor }));
    // A location an overlay made: the document's operations sending the same request hold it down too.
    if (!floors.locations.has(location)) {
      for (const same of floors.byShape.get(requestShape(ref)) ?? []) {
        found.push({ from: same.location, floor: same.floor });
      }
    }
    const op = ref.operation;
    const where = `${location} (${ref.id})`;
    for (const { from, floor } of found) {
      // `it` is the operation itself, or the document operation at another location that sends the same request
      const it = from ? `${from} (which sends the same request)` : "it";
      const restore = (key: string, value: unknown, what: string) => {
        op[key] = value;
        warnings.push(`${where}: the document ${what}; an overlay cannot widen it, so ${key}: ${value} is kept`);
      };
      if (floor.write && op["x-ptc-read-only"] !== false) {
        restore("x-ptc-read-only", false, `marks ${it} as having side effects (x-ptc-read-only: false)`);
      }
      const cap = op["x-ptc-max-response-bytes"];
      if (floor.maxResponseBytes !== undefined && !(validCap(cap) && cap <= floor.maxResponseBytes)) {
        restore(
          "x-ptc-max-response-bytes",
          floor.maxResponseBytes,
          `caps ${from ? `the responses of ${it}` : "its responses"} at ${floor.maxResponseBytes} bytes`,
        );
      }
      if (floor.disabled && op["x-mcp-enabled"] !== false) {
        restore("x-mcp-enabled", false, `disables ${it} (x-mcp-enabled: false)`);
      }
    }
  }
  return warnings;
}

/**
 * The request an operation sends, for matching operations an overlay moved: the method and the URL path with
 * template names, the `#fragment`, a fixed `?query`, repeated and trailing slashes and letter case set aside.
 */
function requestShape(ref: Pick<OperationRef, "method" | "path">): string {
  const path = ref.path.replace(/[#?].*$/s, "").replace(/\{[^}]*\}/g, "{}").replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "").toLowerCase();
  return `${ref.method} ${path || "/"}`;
}

function validCap(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

function operations(doc: Record<string, unknown>, version: "3.0" | "3.1"): OperationRef[] {
  const resolver = new RefResolver(doc, { transform: version === "3.0" ? openapi30Transform : undefined });
  return [...indexOperations(doc, resolver).byId.values()].flat();
}
