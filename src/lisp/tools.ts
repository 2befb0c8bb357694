/**
 * The tool seam at run time (docs/language.md §6): argument normalization, the host call (or the pmap replay cache),
 * and turning a `ToolOutcome` into a Lisp value (tagged maps for `tool/call`) or an error.
 * @module
 */
import { chargeExpansion } from "./values/expansion.ts";
import type { ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import { isLispErrorReason, LispError } from "./errors.ts";
import type { EvalContext } from "./runtime.ts";
import {
  describe,
  flexGet,
  fromJson,
  Keyword,
  kw,
  LispFn,
  mapFromKvs,
  PMap,
  prStr,
  SymbolRef,
  toToolArgs,
  type Value,
} from "./vals.ts";

/** Thrown inside a pmap/pcalls branch that needs a tool result not available yet (see pmap.ts). */
export const PENDING: unique symbol = Symbol("pending tool call");

/** A raise outcome remembered in a branch cache (re-thrown on replay). */
export class RaiseMarker {
  constructor(readonly error: LispError) {}
}

const K_OK = kw("ok");
const K_VALUE = kw("value");
const K_VALUE_KIND = kw("value_kind");
const K_REASON = kw("reason");
const K_MESSAGE = kw("message");
const K_MUTATION_STATE = kw("mutation_state");

/** Convert a host outcome to the program's value (or a RaiseMarker for `raise`). */
export function outcomeValue(o: ToolOutcome, name: string): Value | RaiseMarker {
  switch (o.kind) {
    case "value":
      return fromJson(o.value);
    case "tagged": {
      const m = o.mutationState ? [K_MUTATION_STATE, kw(o.mutationState)] : [];
      if (o.ok) return mapFromKvs([K_OK, true, K_VALUE, fromJson(o.value), K_VALUE_KIND, kw(o.valueKind), ...m]);
      return mapFromKvs([K_OK, false, K_REASON, kw(o.reason), K_MESSAGE, o.message, ...m]);
    }
    case "raise":
      return new RaiseMarker(
        new LispError(isLispErrorReason(o.reason) ? o.reason : "tool_error", o.message || `tool/${name} failed`),
      );
    default:
      return new RaiseMarker(new LispError("tool_error", `tool/${name} returned an unrecognized outcome`));
  }
}

/** Perform one host tool request (directly, or through the pmap replay cache inside a branch). */
export function performTool(run: EvalContext, req: ToolRequest): Value {
  const tools = run.tools;
  if (tools === undefined) {
    throw new LispError("unknown_tool", `Unknown tool: ${req.name}. No tools are available in this evaluation`);
  }
  const br = run.branch;
  let r: Value | RaiseMarker;
  if (br !== null) {
    if (br.cursor < br.results.length) r = br.results[br.cursor++] as Value | RaiseMarker;
    else {
      br.pending = req;
      throw PENDING;
    }
  } else {
    r = outcomeValue(tools.call(req), req.name);
  }
  if (r instanceof RaiseMarker) throw r.error;
  return r;
}

function argsMap(v: Value, name: string): JsonObject {
  if (v === null) return {};
  if (!(v instanceof PMap)) {
    throw new LispError(
      "invalid_tool_args",
      `Tool calls require named arguments: (tool/${name} {:key value}) or (tool/${name} :key value), got ${
        describe(v)
      }`,
    );
  }
  return toToolArgs(v) as JsonObject;
}

/** Arguments of a plain host tool `(tool/name …)` → JSON object (docs/language.md §6). */
export function plainToolArgs(name: string, args: Value[]): JsonObject {
  if (args.length === 0) return {};
  if (args.length === 1) return argsMap(args[0], name);
  if (args.length % 2 === 0 && args.every((x, i) => i % 2 === 1 || x instanceof Keyword)) {
    return argsMap(mapFromKvs(args), name);
  }
  throw new LispError(
    "invalid_tool_args",
    `Tool calls require named arguments: (tool/${name} {:key value}) or (tool/${name} :key value ...), got ${args.length} positional arguments`,
  );
}

function runtimeError(message: string): never {
  throw new LispError("runtime_error", message);
}

function nonEmptyString(v: Value, key: string): string {
  if (typeof v === "string" && v.length > 0) return v;
  if (v instanceof Keyword) return v.name;
  return runtimeError(`tool/call: :${key} must be a non-empty string, got ${v === null ? "nil" : prStr(v)}`);
}

/** Normalize the forms of `tool/call` into `{server, tool, args}` (docs/language.md §6). */
export function callToolArgs(args: Value[]): JsonObject {
  const first = args[0];
  if (args.length === 0 || args.length > 3) {
    runtimeError(
      `tool/call takes 'server/tool, an optional argument map and an optional option map {:reason "…"}, or one map ` +
        `{:server .. :tool .. :args .. :reason ..}; got ${args.length} arguments`,
    );
  }
  if (first instanceof SymbolRef) {
    if (first.ns === null) {
      runtimeError(`tool/call needs a qualified symbol 'server/tool, got '${first.name}`);
    }
    return {
      server: first.ns,
      tool: first.name,
      args: argsMap(args[1] ?? null, "call") as JsonValue,
      ...callOptions(args[2] ?? null),
    };
  }
  if (first instanceof PMap && args.length === 1) {
    const allowed = new Set(["server", "tool", "args", "reason"]);
    first.forEach((k) => {
      const name = k instanceof Keyword ? k.name : typeof k === "string" ? k : prStr(k);
      if (!allowed.has(name)) runtimeError(`tool/call: unknown key ${prStr(k)} (allowed: :server :tool :args :reason)`);
    });
    const server = nonEmptyString(flexGet(first, K_SERVER, null), "server");
    const tool = nonEmptyString(flexGet(first, K_TOOL, null), "tool");
    const a = flexGet(first, K_ARGS, null);
    if (a !== null && !(a instanceof PMap)) runtimeError(`tool/call: :args must be a map, got ${describe(a)}`);
    return { server, tool, args: argsMap(a, "call") as JsonValue, ...reasonOf(flexGet(first, K_REASON, null)) };
  }
  return runtimeError(
    `tool/call expects 'server/tool (quoted) or a map {:server .. :tool .. :args ..}, got ${describe(first)}`,
  );
}

/** `(tool/call 'srv/op {…} {:reason "…"})`: the option map; `:reason` is the only option (shown to an approver). */
function callOptions(options: Value): { reason?: string } {
  if (options === null) return {};
  if (!(options instanceof PMap)) {
    runtimeError(`tool/call: options must be a map like {:reason "…"}, got ${describe(options)}`);
  }
  options.forEach((k) => {
    const name = k instanceof Keyword ? k.name : typeof k === "string" ? k : prStr(k);
    if (name !== "reason") runtimeError(`tool/call: unknown option ${prStr(k)} (allowed: :reason)`);
  });
  return reasonOf(flexGet(options, K_REASON, null));
}

function reasonOf(v: Value): { reason?: string } {
  if (v === null) return {};
  if (typeof v !== "string") return runtimeError(`tool/call: :reason must be a string, got ${describe(v)}`);
  return { reason: v };
}

const K_SERVER = kw("server");
const K_TOOL = kw("tool");
const K_ARGS = kw("args");

/** Normalize `(tool/pages 'server/tool {args} {opts})` into `{server, tool, args, options}`. */
export function pagesArgs(args: Value[]): JsonObject {
  const first = args[0];
  if (args.length === 0 || args.length > 3 || !(first instanceof SymbolRef) || first.ns === null) {
    runtimeError(
      `tool/pages takes a quoted 'server/tool, an argument map and an optional option map, e.g. ` +
        `(tool/pages 'observatory/list-traces {:org-id "acme"} {:max-pages 20}); got ${
          args.length === 0 ? "no arguments" : describe(first)
        }`,
    );
  }
  const options = args[2] ?? null;
  if (options !== null && !(options instanceof PMap)) {
    runtimeError(`tool/pages: options must be a map like {:max-pages 20}, got ${describe(options)}`);
  }
  return {
    server: first.ns,
    tool: first.name,
    args: argsMap(args[1] ?? null, "pages") as JsonValue,
    options: options === null ? {} : toToolArgs(options),
  };
}

/** A server named by a quoted symbol `'srv`, a keyword `:srv` or a string `"srv"`. */
function serverName(v: Value): string | undefined {
  if (v instanceof SymbolRef && v.ns === null) return v.name;
  if (v instanceof Keyword) return v.name;
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * Normalize `(tool/resources 'srv)` into `{server}` and `(tool/read-resource 'srv "uri")` into `{server, uri}`
 * (docs/language.md §6); the host reads the upstream's MCP resources.
 */
export function resourceArgs(name: "resources" | "read-resource", args: Value[]): JsonObject {
  const want = name === "resources" ? 1 : 2;
  const server = args.length === want ? serverName(args[0]) : undefined;
  if (server === undefined) {
    runtimeError(
      name === "resources"
        ? `tool/resources takes one quoted server name, e.g. (tool/resources 'everything); got ${
          args.length === 1 ? describe(args[0]) : `${args.length} arguments`
        }`
        : `tool/read-resource takes a quoted server name and a resource URI string, e.g. ` +
          `(tool/read-resource 'everything "demo://resource/static/document/architecture.md"); got ${
            args.length === 2 ? describe(args[0]) : `${args.length} arguments`
          }`,
    );
  }
  if (name === "resources") return { server };
  const uri = args[1];
  if (typeof uri !== "string" || uri === "") {
    runtimeError(`tool/read-resource: the resource URI must be a non-empty string, got ${describe(uri)}`);
  }
  return { server, uri };
}

const K_STOPPED = kw("stopped");

/** The paging answer as a map with keyword keys (`:items :complete :pages :stopped :message :next`). */
function pagesValue(v: Value): Value {
  if (!(v instanceof PMap)) return v;
  const kvs: Value[] = [];
  v.forEach((k, x) => {
    const key = kw(k instanceof Keyword ? k.name : String(k));
    kvs.push(key, key === K_STOPPED && typeof x === "string" ? kw(x) : x);
  });
  return mapFromKvs(kvs);
}

/**
 * `(budget/remaining)`: the host's remaining budgets (`:tool_calls :write_calls :discovery_ops`, and the per-call limits
 * `:call_timeout_ms :max_response_bytes`) plus the program's own `:time_ms` left before its deadline.
 */
export function budgetRemaining(run: EvalContext): Value {
  const kvs: Value[] = [];
  if (run.tools !== undefined) {
    const host = performTool(run, { name: "budget", args: {} });
    if (host instanceof PMap) host.forEach((k, v) => kvs.push(kw(k instanceof Keyword ? k.name : String(k)), v));
  }
  if (Number.isFinite(run.deadline)) kvs.push(kw("time_ms"), Math.max(0, run.deadlineNow() - Date.now()));
  return mapFromKvs(kvs);
}

/** Call host tool `name` with evaluated Lisp arguments. */
export function callTool(run: EvalContext, name: string, args: Value[]): Value {
  // Arguments are written out in full as JSON: charge what shared structure expands to first.
  for (const x of args) chargeExpansion(x, run);
  if (name === "pages") return pagesValue(performTool(run, { name, args: pagesArgs(args) }));
  if (name === "resources" || name === "read-resource") {
    return performTool(run, { name, args: resourceArgs(name, args) });
  }
  const a = name === "call" ? callToolArgs(args) : plainToolArgs(name, args);
  return performTool(run, { name, args: a });
}

/** `tool/x` as a first-class function value. */
export class ToolFn extends LispFn {
  readonly name: string;
  constructor(readonly tool: string, readonly run: EvalContext) {
    super();
    this.name = `tool/${tool}`;
  }
  call(args: Value[]): Value {
    this.run.step();
    return callTool(this.run, this.tool, args);
  }
  printed(): string {
    return `#fn[tool/${this.tool}]`;
  }
}
