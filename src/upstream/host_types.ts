/**
 * The JSON-shaped types of the language <-> host seam, duplicated structurally from `src/lisp/api.ts` (src/upstream
 * must not import src/lisp). Keep them assignable both ways; `tests/upstream/host_types_test.ts` checks it.
 * @module
 */
import type { JsonObject, JsonValue } from "./types.ts";

/** What a host tool call produced (same shape as `ToolOutcome` in src/lisp/api.ts). */
export type ToolOutcome =
  | { kind: "value"; value: JsonValue }
  | { kind: "tagged"; ok: true; value: JsonValue; valueKind: "json" | "text" | "none" }
  | { kind: "tagged"; ok: false; reason: string; message: string }
  | { kind: "raise"; reason: string; message: string };

/** One tool request from the language (same shape as `ToolRequest`). */
export interface ToolRequest {
  name: string;
  args: JsonObject;
}

/** Discovery operations that reach the host (same as `DiscoveryOp`). */
export type DiscoveryOp = "servers" | "apropos" | "dir" | "doc" | "meta";

/** Discovery outcome (same shape as `DiscoveryOutcome`). */
export type DiscoveryOutcome =
  | { kind: "ok"; result: JsonValue; keywordKeys?: boolean }
  | { kind: "world_fault"; reason: string; message: string }
  | { kind: "programmer_fault"; message: string };

/** The per-evaluation callbacks the sandbox bridge's host side takes. */
export interface HostCallbacks {
  callTool(request: ToolRequest): Promise<ToolOutcome>;
  discovery(op: DiscoveryOp, args: JsonObject): Promise<DiscoveryOutcome>;
}
