/** The catalog the audit-line tests (and the viewer's audit-log tests) log against: one read and one write tool. */
import type { CatalogServer } from "../../src/engine/types.ts";

/** `obs/list` (read) and `obs/annotate` (write). */
export const CATALOG: CatalogServer[] = [{
  name: "obs",
  description: "",
  transport: "openapi",
  status: "ready",
  tools: [
    { name: "list", description: "", inputSchema: {}, readOnly: true, effect: "read", provenance: {} },
    { name: "annotate", description: "", inputSchema: {}, readOnly: false, effect: "write", provenance: {} },
  ],
}];
