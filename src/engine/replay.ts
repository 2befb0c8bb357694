/**
 * Recording and replaying tool answers: a host wrapper that notes every call with its answer, a host that answers
 * from such a recording without any upstream (the REPL re-creates its definitions this way after its worker had to
 * be replaced, so no tool call is ever repeated behind the user's back), and the matching both this host and the
 * on-disk replay (`replayer.ts`) use: recorded answers keyed by canonical JSON, each handed out once.
 * @module
 */
import type { ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { SandboxHost } from "../sandbox/mod.ts";
import type { JsonObject } from "../core/json.ts";
import type { RecordedCall } from "./types.ts";

import { canonicalJson } from "../core/digest.ts";

/**
 * Recorded answers by request key. Each answer is handed out once; identical requests get their answers in recorded
 * order, different requests in any order (`pmap` branches finish in any order).
 */
export class AnswerPool<T> {
  #byKey = new Map<string, T[]>();

  constructor(entries: Iterable<readonly [key: string, answer: T]>) {
    for (const [key, answer] of entries) {
      const list = this.#byKey.get(key);
      if (list) list.push(answer);
      else this.#byKey.set(key, [answer]);
    }
  }

  /** The next unused answer for `key`, now used; undefined when none is left. */
  take(key: string): T | undefined {
    return this.#byKey.get(key)?.shift();
  }

  /** The unused answers left, in key order then recorded order. */
  unused(): T[] {
    return [...this.#byKey.values()].flat();
  }
}

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
  const pool = new AnswerPool(calls.map((c) => [canonicalJson(c.request), c.outcome] as const));
  return {
    toolNames: ["call"],
    callTool: (request: ToolRequest): Promise<ToolOutcome> => {
      const hit = pool.take(canonicalJson(request));
      if (hit) return Promise.resolve(hit as unknown as ToolOutcome);
      return Promise.resolve({
        kind: "raise",
        reason: "replay_mismatch",
        message: "this tool call was not made when the program first ran, and a replay never contacts upstreams",
      });
    },
  };
}
