/**
 * The MCP face's write approver: asks the client that made the `lisp_eval` call through an `elicitation/create`
 * request (form mode) on that request's own channel, with the summary every face shows (server, tool, effect,
 * arguments, the program's reason) and one boolean field, `approve`. Only an `accept` whose `approve` is `true` is an
 * approval; `decline` is declined, `cancel` (or an accepted form left at `approve: false`) is declined as
 * `cancelled`/`declined`. A client that did not declare the `elicitation` capability, a protocol era or transport on
 * which the server cannot send requests (the 2026-07-28 era; ptc's stateless HTTP face), a failed request and no
 * answer within the wait are `unavailable`.
 * @module
 */
import type { ElicitRequestFormParams, ElicitResult, RequestOptions } from "@modelcontextprotocol/server";
import { approvalSummary, type Approver } from "../upstream/approval.ts";

/** The request handler's `ctx.mcpReq.elicitInput`, as the SDK hands it to a tool handler. */
export type ElicitInput = (params: ElicitRequestFormParams, options?: RequestOptions) => Promise<ElicitResult>;

/** The form ptc asks the client to fill: one confirmation box, off by default. */
const APPROVAL_FORM: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    approve: {
      type: "boolean",
      title: "Approve this write",
      description: "Check to let ptc send this one call; anything else leaves it unsent.",
      default: false,
    },
  },
  required: ["approve"],
};

/** An approver that asks through `elicit` (undefined: the request carries no way to ask → always unavailable). */
export function elicitationApprover(elicit: ElicitInput | undefined, timeoutMs: number): Approver {
  return async (request, signal) => {
    if (!elicit) return { outcome: "unavailable", detail: "this MCP request offers no way to ask the client" };
    let result: ElicitResult;
    try {
      result = await elicit(
        { mode: "form", message: approvalSummary(request), requestedSchema: APPROVAL_FORM },
        { signal, timeout: timeoutMs, maxTotalTimeout: timeoutMs },
      );
    } catch (e) {
      const text = e instanceof Error ? e.message.split("\n")[0] : String(e);
      return { outcome: "unavailable", detail: `the MCP client could not be asked (${text.slice(0, 300)})` };
    }
    if (result.action === "accept") {
      return { outcome: result.content?.approve === true ? "accepted" : "declined" };
    }
    return { outcome: result.action === "cancel" ? "cancelled" : "declined" };
  };
}
