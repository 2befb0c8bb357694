/**
 * `ptc mcp --audit-log FILE`: opening the log at start, its SIGHUP listener (reopen for rotation) and the trail the
 * server factory and the HTTP face report to.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { AuditLog, AuditLogError } from "../mcp/audit_log.ts";
import { AuditTrail } from "../mcp/audit_trail.ts";
import type { CatalogServer } from "../engine/types.ts";
import type { Denial } from "../mcp/audit_lines.ts";

/** The open audit log of a `ptc mcp` run. */
export interface McpAudit {
  /**
   * The trail over the log, for one face and the frozen catalog with each upstream's snapshot identity (call once
   * the engine started).
   */
  trail(face: "stdio" | "http", catalog: CatalogServer[], snapshots?: Record<string, string>): AuditTrail;
  /** For the HTTP face's `onDenied` (a no-op until `trail` was called). */
  denied(denial: Denial): void;
  /** Remove the SIGHUP listener, wait for pending lines and close the file. */
  close(): Promise<void>;
}

/** Open FILE (relative to the working directory) and listen for SIGHUP; `{error}` when it cannot be opened. */
export async function openAuditLog(file: string): Promise<McpAudit | { error: string }> {
  const path = isAbsolute(file) ? file : resolve(file);
  let log: AuditLog;
  try {
    log = await AuditLog.open(path, { report: (m) => console.error(`ptc mcp: ${m}`) });
  } catch (e) {
    if (e instanceof AuditLogError) return { error: e.message };
    throw e;
  }
  const onHup = () => void log.reopen();
  Deno.addSignalListener("SIGHUP", onHup);
  let trail: AuditTrail | undefined;
  return {
    trail: (face, catalog, snapshots) => (trail = new AuditTrail(log, face, catalog, Date.now, snapshots)),
    denied: (d) => trail?.denied(d),
    close: async () => {
      Deno.removeSignalListener("SIGHUP", onHup);
      await log.close();
    },
  };
}
