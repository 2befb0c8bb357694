/** Shared helpers for sandbox tests. */
import type { ToolOutcome, ToolRequest } from "../../src/core/tool_seam.ts";
import type { JsonValue } from "../../src/core/json.ts";
import type { SandboxHost } from "../../src/sandbox/bridge.ts";

/** Sandbox process entry serving the fake language. */
export const FAKE_CHILD = new URL("./fake_child.ts", import.meta.url);

/** A recorded tool call: when it started and ended (performance.now ms). */
export interface CallRecord {
  request: ToolRequest;
  start: number;
  end: number;
}

/** A fake host: `sleep` waits `ms` (default 50) then echoes its args; `blob` returns `bytes` characters of data. */
export function fakeHost(opts: { sleepMs?: number; blobBytes?: number } = {}): SandboxHost & { calls: CallRecord[] } {
  const calls: CallRecord[] = [];
  return {
    calls,
    toolNames: ["call", "sleep", "blob", "echo"],
    async callTool(request): Promise<ToolOutcome> {
      const start = performance.now();
      let value: JsonValue;
      if (request.name === "sleep") {
        await new Promise((r) => setTimeout(r, opts.sleepMs ?? 50));
        value = request.args;
      } else if (request.name === "blob") {
        const n = opts.blobBytes ?? 5 * 1024 * 1024;
        // rows of ~100 chars so the value is a realistic JSON array, not one string
        const rows: JsonValue[] = [];
        for (let i = 0, size = 0; size < n; i++) {
          const row = { id: i, name: `row-${i}`, payload: "p".repeat(64) };
          rows.push(row);
          size += JSON.stringify(row).length + 1;
        }
        value = rows;
      } else {
        value = request.args;
      }
      calls.push({ request, start, end: performance.now() });
      return request.name === "call"
        ? { kind: "tagged", ok: true, value, valueKind: "json" }
        : { kind: "value", value };
    },
  };
}
