/**
 * The tool seam: how a PTC-Lisp program reaches the outside world. The language (src/lisp) asks through these
 * shapes; the host (src/sandbox bridging to the upstream runtime in src/upstream) answers through them. Both sides
 * import this one definition.
 *
 * Inside an evaluation the language side is synchronous ({@link HostTools}, {@link DiscoveryBackend}); the sandbox
 * bridge turns each request into a call of the asynchronous {@link HostCallbacks} on the host thread.
 * @module
 */
import type { JsonObject, JsonValue } from "./json.ts";

/**
 * What a call to a write tool did: `applied` (a complete success), `not_applied` (a complete refusal, or never sent),
 * `indeterminate` (it may have been sent but no complete answer arrived). Only write calls carry it.
 */
export type MutationState = "applied" | "not_applied" | "indeterminate";

/**
 * What a host tool call produced. `tool/call` (the aggregator) answers with `tagged` outcomes; a plain host tool may
 * answer with `value`. `raise` is a programmer fault that ends the program with `reason`.
 */
export type ToolOutcome =
  | { kind: "value"; value: JsonValue }
  | { kind: "tagged"; ok: true; value: JsonValue; valueKind: "json" | "text" | "none"; mutationState?: MutationState }
  | { kind: "tagged"; ok: false; reason: string; message: string; mutationState?: MutationState }
  | { kind: "raise"; reason: string; message: string };

/** One tool request as the language hands it to the host (arguments already converted to JSON at the boundary). */
export interface ToolRequest {
  /** The host tool name after `tool/`, e.g. `"call"`. */
  name: string;
  /**
   * Arguments. For `tool/call` the program's forms `(tool/call 'srv/t {...})` and `(tool/call {:server … :tool …
   * :args …})` are both normalized by the language into `{server, tool, args}`.
   */
  args: JsonObject;
}

/**
 * The host tools an evaluation with upstreams offers: `tool/call`, `tool/pages`, and the MCP resource tools
 * `tool/resources` and `tool/read-resource`.
 */
export const HOST_TOOL_NAMES: readonly string[] = ["call", "pages", "resources", "read-resource"];

/** Host tools callable as `tool/<name>`, as the language sees them (synchronous). */
export interface HostTools {
  /** Names of tools callable as `tool/<name>` (used by the static unknown-tool check). */
  names(): string[];
  /** Perform one call, synchronously. */
  call(request: ToolRequest): ToolOutcome;
  /** Perform several calls concurrently (used by `pmap`/`pcalls`); results in request order. */
  callBatch(requests: ToolRequest[]): ToolOutcome[];
}

/** Discovery operations that go to the host backend. */
export type DiscoveryOp = "servers" | "apropos" | "dir" | "doc" | "meta";

/**
 * Discovery outcome. `ok.result` is JSON; for `doc` it is the text to print; for `meta`/`servers` maps whose keys the
 * language turns into keywords when `keywordKeys` is true.
 */
export type DiscoveryOutcome =
  | { kind: "ok"; result: JsonValue; keywordKeys?: boolean }
  | { kind: "world_fault"; reason: string; message: string }
  | { kind: "programmer_fault"; message: string };

/** The host's discovery backend as the language sees it: upstream catalog lookups (local builtins resolve first). */
export interface DiscoveryBackend {
  exec(op: DiscoveryOp, args: JsonObject): DiscoveryOutcome;
}

/** The host side of the seam for one evaluation: what the sandbox bridge calls on the host thread. */
export interface HostCallbacks {
  callTool(request: ToolRequest): Promise<ToolOutcome>;
  discovery(op: DiscoveryOp, args: JsonObject): Promise<DiscoveryOutcome>;
  /** The sandbox hands the run its program clock (so a person deciding about a write does not use up the deadline). */
  attachClock?(clock: RunClock): void;
}

/**
 * The program's clock as the sandbox runs it: `hold()` stops the deadline from advancing until the returned release
 * is called (the program's deadline and the host's timers move by the time held).
 */
export interface RunClock {
  hold(): () => void;
}
