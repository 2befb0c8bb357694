/**
 * Applying OpenAPI Overlay 1.0 actions to a parsed document, in order, before compilation. Each `target` is an RFC
 * 9535 JSONPath query run by `jsonpath-rfc9535` over a read-counting view of the document, so the work one query can
 * do is bounded (`OVERLAY_LIMITS`) whatever its shape and the document's size; the selected nodes are then changed
 * in the real document: `update` merged into objects (objects merged key by key, arrays appended, anything else
 * replaced) or appended to arrays, `remove: true` taking them out of their parent. A target that selects nothing is
 * not an error (Overlay 1.0 says so) but a warning naming the file, the action and the target.
 * @module
 */
import { exec } from "jsonpath-rfc9535";
import { type Overlay, OVERLAY_LIMITS, type OverlayAction, OverlayError, quote } from "./overlay.ts";
import { enforceFloors, safetyFloors } from "./overlay_narrow.ts";

/** The work limits of applying overlays (`OVERLAY_LIMITS`; tests pass smaller ones). */
export type ApplyLimits = Record<"maxMatches" | "maxStepsPerAction" | "maxSteps" | "maxAddedNodes", number>;

/** What applying the overlays of one upstream may still spend. */
interface Budget {
  steps: number;
  addedNodes: number;
  limits: ApplyLimits;
}

type Key = string | number;

/** Levels of the document a query reads at one step a read; deeper reads also pay for the levels below this. */
const FREE_DEPTH = 64;

/**
 * Apply `overlays` to `doc` in order (changing it in place), then hold the document's safety settings against them
 * (`overlay_narrow.ts`). Returns the warnings; throws OverlayError on the first action that cannot be applied.
 */
export function applyOverlays(
  doc: Record<string, unknown>,
  overlays: Overlay[],
  version: "3.0" | "3.1",
  limits: ApplyLimits = OVERLAY_LIMITS,
): string[] {
  if (overlays.length === 0) return [];
  const warnings: string[] = [];
  const floors = safetyFloors(doc, version);
  const budget: Budget = { steps: 0, addedNodes: 0, limits };
  for (const overlay of overlays) {
    warnings.push(...overlay.warnings);
    for (const action of overlay.actions) applyAction(doc, overlay, action, budget, warnings);
  }
  warnings.push(...enforceFloors(doc, version, floors));
  return warnings;
}

function applyAction(
  doc: Record<string, unknown>,
  overlay: Overlay,
  action: OverlayAction,
  budget: Budget,
  warnings: string[],
): void {
  const where = `${overlay.source}: actions[${action.index}] (target ${quote(action.target)})`;
  const paths = select(doc, action.target, budget, where);
  if (paths.length === 0) {
    warnings.push(`${where}: matches nothing in the document; the action changed nothing`);
    return;
  }
  if (action.remove) {
    // deepest and last first, so removing one node never moves another that is still to be removed
    for (const path of paths.sort(comparePaths).reverse()) removeAt(doc, path, where);
    return;
  }
  for (const path of paths) {
    const node = valueAt(doc, path);
    if (node === undefined) continue; // under a node an earlier match replaced
    budget.addedNodes += action.updateWeight;
    if (budget.addedNodes > budget.limits.maxAddedNodes) {
      throw new OverlayError(
        "overlay_too_complex",
        `${where}: the updates of this upstream's overlays would add more than ${budget.limits.maxAddedNodes} ` +
          "nodes to the document; select fewer nodes",
      );
    }
    if (isObject(node)) {
      if (!isObject(action.update)) {
        throw new OverlayError(
          "overlay_action_failed",
          `${where}: selects an object at ${formatPath(path)}, so update must be an object (found ${
            kind(action.update)
          })`,
        );
      }
      merge(node, action.update);
    } else if (Array.isArray(node)) {
      if (Array.isArray(action.update)) node.push(...structuredClone(action.update));
      else node.push(structuredClone(action.update));
    } else {
      throw new OverlayError(
        "overlay_action_failed",
        `${where}: selects ${kind(node)} at ${formatPath(path)}; Overlay 1.0 updates only objects and arrays ` +
          "(target the object holding it instead)",
      );
    }
  }
}

/** Why a query was stopped. */
class Stop extends Error {
  constructor(readonly why: "steps" | "matches") {
    super(why);
  }
}

/**
 * The normalized paths the target selects (distinct, at most `maxMatches`), the query reading the document through
 * a proxy that counts every property read and key listing against the budget.
 */
function select(doc: Record<string, unknown>, target: string, budget: Budget, where: string): Key[][] {
  const limit = Math.min(budget.limits.maxStepsPerAction, budget.limits.maxSteps - budget.steps);
  let steps = 0;
  const tick = (cost = 1) => {
    steps += cost;
    if (steps > limit) throw new Stop("steps");
  };
  const views = new WeakMap<object, object>();
  // The query library copies a node's path for every node it visits: past FREE_DEPTH levels a read is charged the
  // extra levels too, so a descendant search down a chain nested 100,000 deep stops instead of running for minutes.
  const depths = new WeakMap<object, number>([[doc, 0]]);
  const read = (t: object, k: string | symbol, r: unknown) => {
    const depth = depths.get(t) ?? 0;
    tick(1 + Math.max(0, depth - FREE_DEPTH));
    const value = Reflect.get(t, k, r);
    if (value !== null && typeof value === "object" && !depths.has(value)) depths.set(value, depth + 1);
    return view(value);
  };
  const handler: ProxyHandler<object> = {
    get: read,
    ownKeys: (t) => (tick(), Reflect.ownKeys(t)),
    has: (t, k) => (tick(), Reflect.has(t, k)),
    getOwnPropertyDescriptor: (t, k) => (tick(), Reflect.getOwnPropertyDescriptor(t, k)),
  };
  function view(value: unknown): unknown {
    if (value === null || typeof value !== "object") return value;
    let p = views.get(value);
    if (!p) views.set(value, p = new Proxy(value, handler));
    return p;
  }
  const seen = new Set<string>();
  const out: Key[][] = [];
  try {
    exec(view(doc) as never, target, (_value, path) => {
      const key = JSON.stringify(path);
      if (seen.has(key)) return;
      if (out.length >= budget.limits.maxMatches) throw new Stop("matches");
      seen.add(key);
      out.push([...path]);
    });
  } catch (error) {
    budget.steps += steps;
    if (error instanceof Stop && error.why === "matches") {
      throw new OverlayError(
        "overlay_too_complex",
        `${where}: selects more than ${budget.limits.maxMatches} nodes; use a more specific target`,
      );
    }
    if (error instanceof Stop || error instanceof RangeError) {
      const cap = limit === budget.limits.maxStepsPerAction
        ? `${budget.limits.maxStepsPerAction} steps for one target`
        : `${budget.limits.maxSteps} steps for all the overlays of an upstream`;
      throw new OverlayError(
        "overlay_too_complex",
        `${where}: the query needs more work than allowed (${
          error instanceof RangeError ? "nested too deeply" : cap
        }); ` +
          "use a more specific target such as $.paths['/pets'].get instead of descendant (..) searches",
      );
    }
    throw new OverlayError("overlay_action_failed", `${where}: the query failed (${(error as Error).message})`);
  }
  budget.steps += steps;
  return out;
}

/** Merge `update` into `target`: objects key by key, arrays appended, anything else replaced by a copy. */
function merge(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const key of Object.keys(update)) {
    const from = update[key];
    const into = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(into) && isObject(from)) merge(into, from);
    else if (Array.isArray(into) && Array.isArray(from)) into.push(...structuredClone(from));
    // defineProperty: a key named __proto__ stays a plain key instead of replacing the prototype
    else {Object.defineProperty(target, key, {
        value: structuredClone(from),
        writable: true,
        enumerable: true,
        configurable: true,
      });}
  }
}

function removeAt(doc: Record<string, unknown>, path: Key[], where: string): void {
  if (path.length === 0) throw new OverlayError("overlay_action_failed", `${where}: cannot remove the whole document`);
  const parent = valueAt(doc, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
  else if (isObject(parent) && typeof key === "string") delete parent[key];
}

function valueAt(doc: unknown, path: Key[]): unknown {
  let node = doc;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === "number") node = node[key];
    else if (isObject(node) && typeof key === "string" && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Document order of normalized paths (indexes numerically; a path before its extensions). */
function comparePaths(a: Key[], b: Key[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** A normalized path for messages: `$['paths']['/pets']['get']`, clipped. */
export function formatPath(path: Key[]): string {
  const name = (k: string) =>
    // deno-lint-ignore no-control-regex -- control characters are escaped, as in RFC 9535 normalized paths
    k.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f]/g, (c) =>
      `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const text = "$" + path.map((k) => (typeof k === "number" ? `[${k}]` : `['${name(k)}']`)).join("");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}
