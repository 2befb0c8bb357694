/**
 * `ptc eval` with a fake tool provider, as the upstream runtime will plug in: `tool/call` answers
 * `{:echo <args>}`; every evaluation gets its own host (counted in `(:n (:value …))`).
 */
import type { ToolOutcome, ToolRequest } from "../../src/lisp/api.ts";
import { type HostProvider, runEval } from "../../src/cli/eval.ts";

let hosts = 0;
let closed = false;
const provider: HostProvider = {
  withHost(fn) {
    const n = ++hosts;
    return fn({
      toolNames: ["call"],
      callTool: (request: ToolRequest): Promise<ToolOutcome> =>
        Promise.resolve({ kind: "tagged", ok: true, value: { echo: request.args, n }, valueKind: "json" }),
    });
  },
  close() {
    closed = true;
    return Promise.resolve();
  },
};

const code = await runEval(Deno.args, provider);
if (!closed) {
  console.error("provider was not closed");
  Deno.exit(3);
}
Deno.exit(code);
