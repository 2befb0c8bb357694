/**
 * The snapshot identity of an upstream's compiled catalog: a SHA-256 over its canonical JSON (name, transport,
 * description, every installed tool entry, the tools the write gate withheld and why), after redaction. Two runs
 * that carry the same identity for an upstream saw the same tools; `ptc catalog --format json`, every recording and
 * every audit `eval` line carry it, and `ptc view` shows it.
 * @module
 */
import { createHash } from "node:crypto";
import type { JsonObject } from "../core/json.ts";
import { canonicalJson } from "../core/digest.ts";
import type { Runtime } from "./runtime.ts";

/** One upstream's compiled catalog as recordings store it (redacted). */
export interface CompiledServer {
  name: string;
  transport: string;
  description: string;
  /** The transport's public endpoint (tool provenance). */
  endpoint?: JsonObject;
  /** Installed tools (`ToolEntry`, redacted). */
  tools: JsonObject[];
  /** Tools the write gate withheld: name → why. */
  withheld: Record<string, string>;
}

/** Hex SHA-256 of the canonical JSON of a compiled catalog (any `snapshot` key of it left out). */
export function snapshotId(server: CompiledServer): string {
  const { snapshot: _ignored, ...content } = server as CompiledServer & { snapshot?: string };
  return createHash("sha256").update(canonicalJson(content)).digest("hex");
}

/** The compiled catalog of each upstream of a started runtime (redacted), with its snapshot identity. */
export function compiledServers(runtime: Runtime | undefined): (CompiledServer & { snapshot: string })[] {
  if (!runtime) return [];
  return runtime.catalog().map((s) => {
    const state = runtime.upstreams.get(s.name)!;
    const endpoint = state.transport.endpoint?.(state.spec.config);
    const server = runtime.redactor.redactJson({
      name: s.name,
      transport: s.transport,
      description: s.description,
      ...(endpoint ? { endpoint } : {}),
      tools: s.tools as unknown as JsonObject[],
      withheld: Object.fromEntries(state.withheld),
    }) as unknown as CompiledServer;
    return { ...server, snapshot: snapshotId(server) };
  });
}

/** Server name → snapshot identity, for a run's record (empty without upstreams). */
export function snapshotsOf(runtime: Runtime | undefined): Record<string, string> {
  return Object.fromEntries(compiledServers(runtime).map((s) => [s.name, s.snapshot]));
}
