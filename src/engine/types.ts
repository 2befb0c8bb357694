/**
 * The engine: one sandbox pool plus (optionally) one upstream runtime, wired together. The faces (`ptc eval`,
 * `ptc repl`, `ptc mcp`, the demo) evaluate programs through it and never touch the bridge or run contexts.
 *
 * Layering: cli → mcp, repl → engine → sandbox, upstream. The engine is the only place that knows both.
 * @module
 */
import type { JsonObject, JsonValue } from "../upstream/types.ts";

/** One upstream call made by a program, as reported to faces (secrets already redacted). */
export interface EngineCallRecord {
  server: string;
  tool: string;
  status: "ok" | "error";
  reason?: string;
  message?: string;
  durationMs: number;
  /** Bytes of the upstream payload as received (0 when unknown). */
  bytes: number;
  /** A short, redacted preview of the value (for error feedback; untrusted upstream data). */
  preview?: string;
}

/** What a face asks for. */
export interface EngineEvalRequest {
  program: string;
  /** Keys become `data/<key>`. */
  context?: JsonObject;
  /** Extra global bindings (e.g. `data` for `ptc eval --data`). */
  globals?: Record<string, JsonValue>;
  /** Wall-clock limit for this program. */
  timeoutMs?: number;
  /** Cancels the evaluation (e.g. MCP `notifications/cancelled`, REPL Ctrl-C). */
  signal?: AbortSignal;
}

/** The outcome of one evaluation, with the upstream calls it made. */
export type EngineEvalResult =
  & {
    prints: string[];
    calls: EngineCallRecord[];
    elapsedMs: number;
  }
  & (
    | { ok: true; status: "ok" | "returned" | "failed"; printed: string; json: JsonValue }
    | { ok: false; reason: string; message: string }
  );

/** A stateful evaluation context that owns a worker (defs, closures and `*1 *2 *3` persist). */
export interface EngineSession {
  readonly id: string;
  eval(request: EngineEvalRequest): Promise<EngineEvalResult>;
  /** Drop the namespace (a fresh worker). */
  reset(): Promise<void>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/** A server of the catalog, as faces see it. */
export interface CatalogServer {
  name: string;
  description: string;
  transport: string;
  status: "ready" | "unavailable";
  tools: CatalogTool[];
}

/** A tool of the catalog (transport-neutral view). */
export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  readOnly: boolean;
  provenance: JsonObject;
}

/** The engine's interface. */
export interface Engine {
  evaluate(request: EngineEvalRequest): Promise<EngineEvalResult>;
  openSession(): Promise<EngineSession>;
  /** The catalog (empty when no upstreams are configured). */
  catalog(): CatalogServer[];
  /** Catalog text for prompts: inline (every tool with its signature), lazy (servers only), auto (by size). */
  renderCatalog(mode: "auto" | "inline" | "lazy"): string;
  /** Non-secret facts (upstreams, transports, limits). */
  diagnostics(): JsonObject;
  close(): Promise<void>;
}
