import assert from "node:assert/strict";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { ApprovalRequest, Approver } from "../../src/upstream/approval.ts";
import { seenCalls } from "./fake_transport.ts";
import { start, twoUpstreams } from "./helpers.ts";

const write = (args: Record<string, unknown>, reason?: string) => ({
  name: "call",
  args: { server: "files", tool: "delete-file", args, ...(reason !== undefined ? { reason } : {}) } as never,
});

Deno.test("approve step: only writes ask; the approver sees redacted arguments and reason; nothing is sent before", async () => {
  const rt = await start(twoUpstreams(), { approveWrites: true }, { OBS_TOKEN: "tok-secret-123" });
  const asked: ApprovalRequest[] = [];
  let sentWhenAsked = -1;
  const approver: Approver = (request) => {
    asked.push(request);
    sentWhenAsked = seenCalls.filter((c) => c.tool === "delete-file").length;
    return Promise.resolve({ outcome: "accepted" });
  };
  try {
    const before = seenCalls.filter((c) => c.tool === "delete-file").length;
    const report = await withRunContext(rt, async (ctx) => [
      await ctx.callTool({ name: "call", args: { server: "files", tool: "read-file", args: {} } as never }),
      await ctx.callTool(write({}, "the token tok-secret-123 leaked")),
    ], { approver });
    assert.equal(asked.length, 1, "the read did not ask");
    assert.equal(sentWhenAsked, before, "asked before anything was sent");
    assert.ok(asked[0].reason!.includes("leaked") && !asked[0].reason!.includes("tok-secret-123"), asked[0].reason);
    assert.equal(asked[0].argsText, "{}");
    assert.equal(seenCalls.filter((c) => c.tool === "delete-file").length, before + 1);
    assert.equal(report.calls[1].approval, "accepted");
    assert.equal(report.calls[0].approval, undefined);
    assert.deepEqual(Object.keys(report.value[1]).includes("approval"), false, "the program never sees the key");
  } finally {
    await rt.stop();
  }
});

Deno.test("approve step: declined, cancelled, unavailable and no approver are :not_applied and never sent", async () => {
  const rt = await start(twoUpstreams(), { approveWrites: true });
  try {
    const before = seenCalls.filter((c) => c.tool === "delete-file").length;
    const cases: [Approver | undefined, string, string][] = [
      [() => Promise.resolve({ outcome: "declined" }), "declined", "declined"],
      [() => Promise.resolve({ outcome: "cancelled" }), "declined", "cancelled"],
      [
        () => Promise.resolve({ outcome: "unavailable", detail: "no capability" }),
        "approval_unavailable",
        "unavailable",
      ],
      [undefined, "approval_unavailable", "unavailable"],
    ];
    for (const [approver, reason, approval] of cases) {
      const report = await withRunContext(rt, (ctx) => ctx.callTool(write({})), { approver });
      assert.deepEqual(
        [
          report.value.kind,
          (report.value as { reason: string }).reason,
          (report.value as { mutationState?: string }).mutationState,
        ],
        ["tagged", reason, "not_applied"],
      );
      assert.equal(report.calls[0].approval, approval);
    }
    assert.equal(seenCalls.filter((c) => c.tool === "delete-file").length, before, "nothing sent");
    // Without approval on, no approver is consulted at all.
    const off = await start(twoUpstreams());
    try {
      const report = await withRunContext(off, (ctx) => ctx.callTool(write({})), {
        approver: () => Promise.reject(new Error("must not be asked")),
      });
      assert.equal((report.value as { mutationState?: string }).mutationState, "applied");
      assert.equal(report.calls[0].approval, undefined);
    } finally {
      await off.stop();
    }
  } finally {
    await rt.stop();
  }
});
