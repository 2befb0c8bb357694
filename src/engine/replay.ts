/**
 * Recording and replaying tool answers: a host wrapper that notes every call with its answer, and a host that
 * answers from such a recording without any upstream (the REPL re-creates its definitions this way after its worker
 * had to be replaced, so no tool call is ever repeated behind the user's back).
 * @module
 */
import type { ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { SandboxHost } from "../sandbox/mod.ts";
import type { JsonObject } from "../core/json.ts";
import type { RecordedCall } from "./types.ts";

/** Wrap `host` so that every tool call and its answer is appended to `into`. */
export function recordingHost(host: SandboxHost, into: RecordedCall[]): SandboxHost {
  return {
    ...host,
    callTool: async (request) => {
      const outcome = await host.callTool(request);
      into.push({ request: request as unknown as JsonObject, outcome: outcome as unknown as JsonObject });
      return outcome;
    },
  };
}

/** A host that answers each recorded request once, in any order; anything else fails with `replay_mismatch`. */
export function replayHost(calls: RecordedCall[]): SandboxHost {
  const pending = calls.map((c) => ({ key: JSON.stringify(c.request), outcome: c.outcome, used: false }));
  return {
    toolNames: ["call"],
    callTool: (request: ToolRequest): Promise<ToolOutcome> => {
      const key = JSON.stringify(request);
      const hit = pending.find((p) => !p.used && p.key === key);
      if (hit) {
        hit.used = true;
        return Promise.resolve(hit.outcome as unknown as ToolOutcome);
      }
      return Promise.resolve({
        kind: "raise",
        reason: "replay_mismatch",
        message: "this tool call was not made when the program first ran, and a replay never contacts upstreams",
      });
    },
  };
}
