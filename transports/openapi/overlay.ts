/**
 * OpenAPI Overlay 1.0 documents (`overlays: [...]` of an `openapi` upstream): reading a file (size checked before
 * reading), parsing it (YAML or JSON, duplicate keys refused) and validating it — `overlay: "1.0.x"`, `info.title` /
 * `info.version`, a non-empty `actions` list whose targets are RFC 9535 JSONPath queries. Every problem is one line
 * naming the file, the action index and the target. Applying them is `overlay_apply.ts`.
 * @module
 */
import { parse as parseYaml } from "yaml";
import parseJsonPath from "jsonpath-rfc9535/parser";
import { duplicateKeys } from "../../src/upstream/duplicate_keys.ts";
import { unknownKeyHint } from "../../src/upstream/messages.ts";
import { fileProblem, YAML_ENV, YAML_MAX_ALIAS_COUNT, yamlProblem } from "./loader.ts";

/** Bounds on overlays: the files, their actions and the work applying them may do (documented in docs/openapi.md). */
export const OVERLAY_LIMITS = {
  /** Overlay files per upstream. */
  maxOverlays: 16,
  /** Bytes of one overlay file. */
  maxBytes: 4 * 1024 * 1024,
  /** Actions of one overlay. */
  maxActions: 1000,
  /** Characters of one `target`. */
  maxTargetChars: 4096,
  /** Nesting depth of one `update` value. */
  maxUpdateDepth: 64,
  /** Nodes one target may select. */
  maxMatches: 100_000,
  /** JSONPath work (property reads and key listings of the document) of one target. */
  maxStepsPerAction: 2_000_000,
  /** JSONPath work of all the overlays of one upstream. */
  maxSteps: 10_000_000,
  /** Document nodes all the updates of one upstream may add (an update's size times the nodes it is merged into). */
  maxAddedNodes: 2_000_000,
} as const;

/** An overlay problem: `code` is a closed diagnostic code, `message` one line naming file, action and target. */
export class OverlayError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "OverlayError";
  }
}

/** One validated action. */
export interface OverlayAction {
  /** Index in the file's `actions` list. */
  index: number;
  target: string;
  /** Absent when the action only removes. */
  update?: unknown;
  remove: boolean;
  /** Nodes of `update` (what one merge adds at most). */
  updateWeight: number;
}

/** A validated overlay document. */
export interface Overlay {
  /** Where it came from, for messages: `overlays[0] /abs/curation.overlay.yaml`. */
  source: string;
  title: string;
  version: string;
  actions: OverlayAction[];
  /** Non-fatal remarks found while validating (e.g. an action with both update and remove). */
  warnings: string[];
}

const TOP_KEYS = ["overlay", "info", "extends", "actions"];
const ACTION_KEYS = ["target", "description", "update", "remove"];

/** Read, parse and validate the overlay at `path` (the `index`th of the upstream's `overlays`). */
export async function loadOverlayFile(path: string, index: number): Promise<Overlay> {
  const source = `overlays[${index}] ${path}`;
  let size: number;
  try {
    size = (await Deno.stat(path)).size;
  } catch (error) {
    throw new OverlayError("overlay_unreadable", `${source}: ${fileProblem(error)}`);
  }
  if (size > OVERLAY_LIMITS.maxBytes) {
    throw new OverlayError(
      "overlay_too_large",
      `${source}: ${size} bytes exceeds the overlay limit (${OVERLAY_LIMITS.maxBytes} bytes)`,
    );
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new OverlayError("overlay_unreadable", `${source}: ${fileProblem(error)}`);
  }
  return parseOverlay(text, source, isJsonFile(path) ? "json" : "yaml");
}

/**
 * True for a `.json` file, read with JSON.parse; anything else is read as YAML, and the YAML library reads the
 * environment variables `YAML_ENV` names (so those are part of the upstream's permissions).
 */
export function isJsonFile(path: string): boolean {
  return path.toLowerCase().endsWith(".json");
}

export { YAML_ENV };

/** Parse and validate overlay text. Throws OverlayError listing every problem. */
export function parseOverlay(text: string, source: string, format: "json" | "yaml" = "yaml"): Overlay {
  let raw: unknown;
  if (format === "json") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new OverlayError("overlay_parse_failed", `${source}: invalid JSON`);
    }
    // JSON.parse keeps the last of two equal keys: a repeated `update` or `target` would drop an action's first half
    const repeated = duplicateKeys(text);
    if (repeated.length > 0) {
      const lines = repeated.map((e) => `${source}: ${e.path ? `${e.path}: ` : ""}${e.message}`);
      throw new OverlayError("overlay_invalid", lines.join("\n"));
    }
  } else {
    try {
      raw = parseYaml(text, { maxAliasCount: YAML_MAX_ALIAS_COUNT, uniqueKeys: true });
    } catch (error) {
      const why = error instanceof Deno.errors.NotCapable
        ? `reading YAML needs --allow-env=${YAML_ENV.join(",")}`
        : yamlProblem(error);
      throw new OverlayError("overlay_parse_failed", `${source}: invalid YAML (${why})`);
    }
  }
  const problems: string[] = [];
  const warnings: string[] = [];
  const fail = (message: string) => problems.push(`${source}: ${message}`);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new OverlayError("overlay_invalid", `${source}: an overlay must be an object with overlay, info and actions`);
  }
  const doc = raw as Record<string, unknown>;
  if (doc.overlay === undefined) {
    fail('not an OpenAPI Overlay document (no "overlay" version field; expected overlay: 1.0.0)');
  } else if (typeof doc.overlay !== "string" || !/^1\.0\.\d+$/.test(doc.overlay)) {
    fail(`overlay: ${quote(doc.overlay)} is not supported; ptc reads Overlay 1.0 documents (overlay: 1.0.0)`);
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.includes(key) && !key.startsWith("x-")) {
      fail(`unknown key "${clip(key)}"${unknownKeyHint(key, TOP_KEYS)}`);
    }
  }
  const info = doc.info;
  let title = "";
  let version = "";
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    fail("info: is required: an object with title and version");
  } else {
    const i = info as Record<string, unknown>;
    if (typeof i.title !== "string" || i.title.trim() === "") fail("info.title: is required (a string)");
    else title = i.title;
    if (typeof i.version !== "string" || i.version.trim() === "") fail("info.version: is required (a string)");
    else version = i.version;
  }
  if (doc.extends !== undefined && typeof doc.extends !== "string") fail("extends: must be a URI string");
  const actions: OverlayAction[] = [];
  if (!Array.isArray(doc.actions) || doc.actions.length === 0) {
    fail("actions: is required: a non-empty list of {target, update | remove}");
  } else if (doc.actions.length > OVERLAY_LIMITS.maxActions) {
    fail(`actions: ${doc.actions.length} actions exceed the limit of ${OVERLAY_LIMITS.maxActions}`);
  } else {
    doc.actions.forEach((a, i) => {
      const action = validateAction(
        a,
        i,
        (m) => fail(`actions[${i}]${m}`),
        (m) => warnings.push(`${source}: actions[${i}]${m}`),
      );
      if (action) actions.push(action);
    });
  }
  if (problems.length) throw new OverlayError("overlay_invalid", problems.join("\n"));
  return { source, title, version, actions, warnings };
}

function validateAction(
  raw: unknown,
  index: number,
  fail: (message: string) => void,
  warn: (message: string) => void,
): OverlayAction | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    fail(": must be an object with target and update or remove");
    return undefined;
  }
  const a = raw as Record<string, unknown>;
  if (typeof a.target !== "string" || a.target.trim() === "") {
    fail(": target is required (a JSONPath query such as $.paths['/pets'].get)");
    return undefined;
  }
  const at = ` (target ${quote(a.target)})`;
  let ok = true;
  const bad = (message: string) => {
    ok = false;
    fail(`${at}: ${message}`);
  };
  for (const key of Object.keys(a)) {
    if (key === "copy") bad("copy is an Overlay 1.1 action; ptc reads Overlay 1.0 (use update)");
    else if (!ACTION_KEYS.includes(key) && !key.startsWith("x-")) {
      bad(`unknown key "${clip(key)}"${unknownKeyHint(key, ACTION_KEYS)}`);
    }
  }
  const targetProblem = checkTarget(a.target);
  if (targetProblem) bad(targetProblem);
  if (a.description !== undefined && typeof a.description !== "string") bad("description: must be a string");
  if (a.remove !== undefined && typeof a.remove !== "boolean") bad("remove: must be true or false");
  const remove = a.remove === true;
  const hasUpdate = Object.hasOwn(a, "update");
  if (!remove && !hasUpdate) bad("has neither update nor remove: true, so it would do nothing");
  if (remove && hasUpdate) warn(`${at}: has both update and remove: true; as Overlay 1.0 says, it only removes`);
  if (remove && a.target.trim() === "$") bad("cannot remove the whole document");
  let updateWeight = 0;
  if (hasUpdate && !remove) {
    const weight = measure(a.update, OVERLAY_LIMITS.maxUpdateDepth);
    if (weight === undefined) bad(`update: nested deeper than ${OVERLAY_LIMITS.maxUpdateDepth} levels`);
    else updateWeight = weight;
  }
  if (!ok) return undefined;
  return { index, target: a.target, ...(hasUpdate && !remove ? { update: a.update } : {}), remove, updateWeight };
}

/** Why a target is refused (syntax, length, unbounded functions), or undefined when it is a usable query. */
function checkTarget(target: string): string | undefined {
  if (target.length > OVERLAY_LIMITS.maxTargetChars) {
    return `is ${target.length} characters long; the limit is ${OVERLAY_LIMITS.maxTargetChars}`;
  }
  let ast: unknown;
  try {
    ast = parseJsonPath(target);
  } catch (error) {
    const why = error instanceof RangeError
      ? "nested too deeply"
      : error instanceof Error
      ? error.message.split("\n")[0]
      : "syntax error";
    return `is not an RFC 9535 JSONPath query (${clip(why, 160)})`;
  }
  const regex = findFunction(ast, ["match", "search"], 0);
  if (regex) {
    return `uses ${regex}(), which ptc does not run in overlay targets (a regular expression's running time ` +
      "cannot be bounded); select with == comparisons instead";
  }
  return undefined;
}

/** The first function named in `names` anywhere in the parsed query (depth-bounded walk). */
function findFunction(node: unknown, names: string[], depth: number): string | undefined {
  if (depth > 200 || node === null || typeof node !== "object") return undefined;
  const n = node as Record<string, unknown>;
  if (n.type === "FunctionExpr" && typeof n.name === "string" && names.includes(n.name)) return n.name;
  for (const value of Object.values(n)) {
    const found = Array.isArray(value)
      ? value.map((v) => findFunction(v, names, depth + 1)).find((f) => f !== undefined)
      : findFunction(value, names, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Node count of a JSON value, or undefined when it nests deeper than `maxDepth`. */
function measure(value: unknown, maxDepth: number): number | undefined {
  if (value === null || typeof value !== "object") return 1;
  if (maxDepth === 0) return undefined;
  let n = 1;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const m = measure(v, maxDepth - 1);
    if (m === undefined) return undefined;
    n += m;
  }
  return n;
}

/** A value for a message: JSON, control characters escaped, clipped. */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return clip(text, 160);
}

function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Read and validate the overlay files of an upstream, in order. */
export async function loadOverlays(paths: readonly string[]): Promise<Overlay[]> {
  const out: Overlay[] = [];
  for (const [i, path] of paths.entries()) out.push(await loadOverlayFile(path, i));
  return out;
}
