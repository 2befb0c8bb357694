import assert from "node:assert/strict";
import {
  ApprovalQueue,
  approvalRequest,
  approvalSummary,
  askBounded,
  MAX_APPROVAL_ARGS_CHARS,
} from "../../src/upstream/approval.ts";

const request = approvalRequest({ server: "obs", tool: "annotate", effect: "write" }, { id: "t1" }, "because");

Deno.test("approval: the summary names the call, effect, arguments and reason; long arguments are bounded", () => {
  const text = approvalSummary(request);
  for (const fact of ["obs/annotate", "effect: write", '{"id":"t1"}', "because", "Nothing has been sent yet"]) {
    assert.ok(text.includes(fact), fact);
  }
  const big = approvalRequest({ server: "s", tool: "t", effect: "write" }, { x: "y".repeat(10_000) }, undefined);
  assert.ok(big.argsText.length <= MAX_APPROVAL_ARGS_CHARS + 20);
  assert.match(approvalSummary(big), /Reason given by the program: \(none\)/);
});

Deno.test("approval: no answer in time, a throwing approver, a junk answer and an ended run are unavailable", async () => {
  const live = new AbortController().signal;
  const never = await askBounded(() => new Promise(() => {}), request, live, 20);
  assert.deepEqual(never, { outcome: "unavailable", detail: "no answer within 20 ms" });
  const thrown = await askBounded(() => Promise.reject(new Error("no capability")), request, live, 1000);
  assert.deepEqual(thrown, { outcome: "unavailable", detail: "no capability" });
  const junk = await askBounded(() => Promise.resolve({ outcome: "yes" } as never), request, live, 1000);
  assert.equal(junk.outcome, "unavailable");
  const ended = new AbortController();
  const pending = askBounded(
    (_r, signal) => new Promise((r) => signal.addEventListener("abort", () => r({ outcome: "accepted" }))),
    request,
    ended.signal,
    1000,
  );
  ended.abort();
  assert.equal((await pending).outcome, "unavailable", "an approval that arrives as the run ends is not an approval");
  const ok = await askBounded(() => Promise.resolve({ outcome: "accepted" }), request, live, 1000);
  assert.equal(ok.outcome, "accepted");
});

Deno.test("approval: a run's queue asks one at a time, in order, and survives a failed ask", async () => {
  const queue = new ApprovalQueue();
  const log: string[] = [];
  let open = 0;
  const ask = (name: string, fail = false) => () =>
    new Promise<string>((resolve, reject) => {
      open++;
      assert.equal(open, 1, "never two at once");
      log.push(name);
      setTimeout(() => {
        open--;
        fail ? reject(new Error(name)) : resolve(name);
      }, 5);
    });
  const results = await Promise.allSettled([queue.run(ask("a")), queue.run(ask("b", true)), queue.run(ask("c"))]);
  assert.deepEqual(log, ["a", "b", "c"]);
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
});
