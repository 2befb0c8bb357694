/**
 * A fake HostTools for tests: an aggregator `call` tool implementing the tagged contract of docs/language.md §6 plus plain host
 * tools, recording every request and every batch.
 * @module
 */
import type { HostTools, ToolOutcome, ToolRequest } from "../../src/core/tool_seam.ts";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";

/** Recording fake tool host. */
export class FakeTools implements HostTools {
  calls: ToolRequest[] = [];
  batches: ToolRequest[][] = [];

  names(): string[] {
    return ["call", "get-orders", "echo", "boom"];
  }

  call(request: ToolRequest): ToolOutcome {
    this.calls.push(request);
    return this.answer(request);
  }

  callBatch(requests: ToolRequest[]): ToolOutcome[] {
    this.batches.push(requests);
    return requests.map((r) => this.call(r));
  }

  answer(r: ToolRequest): ToolOutcome {
    if (r.name === "get-orders") {
      return { kind: "value", value: [{ id: 1, total: 50 }, { id: 2, total: 150 }] };
    }
    if (r.name === "echo") return { kind: "value", value: r.args };
    if (r.name === "boom") return { kind: "raise", reason: "tool_error", message: "Tool 'boom' failed: kaput" };
    const { server, tool, args } = r.args as { server: string; tool: string; args: JsonObject };
    if (server === "nope") {
      return {
        kind: "raise",
        reason: "runtime_error",
        message: "no upstream 'nope' configured. Configured upstreams: fs",
      };
    }
    if (server === "fs" && tool === "read") return { kind: "tagged", ok: true, value: "hello", valueKind: "text" };
    if (server === "fs" && tool === "flaky") {
      return { kind: "tagged", ok: false, reason: "rate_limited", message: "slow down" };
    }
    if (tool === "get") {
      return {
        kind: "tagged",
        ok: true,
        value: { id: args.id as JsonValue, name: `item-${args.id}` },
        valueKind: "json",
      };
    }
    return { kind: "tagged", ok: true, value: args, valueKind: "json" };
  }
}
