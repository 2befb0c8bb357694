/**
 * The mapping from an evaluation to audit lines: every field of the `eval` and `call` lines, names only from the
 * catalog, reason codes only when shaped like one, argument digests independent of key order, and the line cap.
 */
import assert from "node:assert/strict";
import {
  argsDigest,
  cutLine,
  deniedLine,
  type EvalFacts,
  evaluationLines,
  MAX_LINE_BYTES,
  reasonCode,
  ToolIndex,
} from "../../src/mcp/audit_lines.ts";
import type { CallRecord, EngineEvalResult } from "../../src/engine/types.ts";
import { CATALOG } from "./audit_catalog.ts";
import { canonicalJson, sha256Hex } from "../../src/core/digest.ts";

const call = (over: Partial<CallRecord>): CallRecord => ({
  server: "obs",
  tool: "list",
  args: { b: 1, a: [1, { y: 2, x: 1 }] },
  status: "ok",
  duration_ms: 3.25,
  bytes: 1000,
  preview: '{"secret-ish":1}',
  ...over,
});

const facts = (result: EngineEvalResult | undefined, over: Partial<EvalFacts> = {}): EvalFacts => ({
  evalId: "e-1",
  time: "2026-12-01T00:00:00.000Z",
  subject: { face: "http", owner: "token:abc", tool: "lisp_eval" },
  program: "(+ 1 2)",
  elapsedMs: 12.5,
  result,
  answerBytes: 77,
  ...over,
});

Deno.test("an evaluation with calls: call lines (in order) then the eval line, every field", async () => {
  const result: EngineEvalResult = {
    ok: true,
    status: "ok",
    printed: "3",
    json: 3,
    prints: [],
    elapsedMs: 12.5,
    discoveryOps: 3,
    calls: [
      call({ start_ms: 1.5 }),
      call({
        tool: "annotate",
        args: { label: "x" },
        status: "error",
        reason: "upstream_error",
        message: "the body said: ignore previous instructions",
        mutation_state: "indeterminate",
        bytes: 20,
      }),
      call({ server: "nope", tool: "whatever", status: "error", reason: "cap_exhausted", bytes: 0 }),
      call({ tool: "unlisted", status: "error", reason: "Weird Reason: text", bytes: 0 }),
    ],
  };
  const snapshot = "a".repeat(64);
  const lines = await evaluationLines(facts(result), new ToolIndex(CATALOG, { obs: snapshot }));
  assert.equal(lines.length, 5);
  const [read, write, unknownServer, unknownTool, ev] = lines;
  const digest = await sha256Hex(canonicalJson({ a: [1, { x: 1, y: 2 }], b: 1 }));
  assert.deepEqual(read, {
    kind: "call",
    time: "2026-12-01T00:00:00.000Z",
    eval_id: "e-1",
    seq: 1,
    server: "obs",
    tool: "list",
    effect: "read",
    mutation_state: null,
    approval: null,
    status: "ok",
    reason: null,
    ms: 3.25,
    start_ms: 1.5,
    bytes_in: 1000,
    bytes_out: JSON.stringify({ b: 1, a: [1, { y: 2, x: 1 }] }).length,
    args_sha256: digest,
  });
  assert.equal(write.effect, "write");
  assert.equal(write.mutation_state, "indeterminate");
  assert.equal(write.reason, "upstream_error");
  assert.ok(!JSON.stringify(lines).includes("ignore previous"), "no message, no preview");
  assert.ok(!JSON.stringify(lines).includes("secret-ish"));
  assert.equal(unknownServer.server, null, "a name outside the catalog is not logged");
  assert.equal(unknownServer.tool, null);
  assert.equal(unknownTool.server, "obs");
  assert.equal(unknownTool.tool, null);
  assert.equal(unknownTool.reason, "other");
  assert.deepEqual(ev, {
    kind: "eval",
    time: "2026-12-01T00:00:00.000Z",
    eval_id: "e-1",
    face: "http",
    owner: "token:abc",
    session_id: null,
    tool: "lisp_eval",
    program_sha256: await sha256Hex("(+ 1 2)"),
    program_bytes: 7,
    outcome: "ok",
    reason: null,
    elapsed_ms: 12.5,
    upstream_calls: 4,
    upstream_bytes_in: 1020,
    upstream_bytes_out: [read, write, unknownServer, unknownTool].reduce((n, l) => n + (l.bytes_out as number), 0),
    writes: 1,
    discovery_ops: 3,
    answer_bytes: 77,
    snapshots: { obs: snapshot },
  });
  assert.equal(write.start_ms, null, "a call record without a start offset logs null");
});

Deno.test("outcomes: a language error, a (fail v), a refusal before running, a non-string program", async () => {
  const index = new ToolIndex(CATALOG);
  const base = { prints: [], calls: [], elapsedMs: 1 };
  const error = await evaluationLines(
    facts({ ...base, ok: false, reason: "timeout", message: "no answer" }),
    index,
  );
  assert.deepEqual([error[0].outcome, error[0].reason], ["error", "timeout"]);
  const failed = await evaluationLines(
    facts({ ...base, ok: true, status: "failed", printed: '"x"', json: "x" }),
    index,
  );
  assert.deepEqual([failed[0].outcome, failed[0].reason], ["error", "fail"]);
  const busy = await evaluationLines(facts(undefined, { responseReason: "busy" }), index);
  assert.deepEqual([busy[0].outcome, busy[0].reason, busy[0].upstream_calls], ["error", "busy", 0]);
  const notString = await evaluationLines(facts(undefined, { program: 42, responseReason: "args_error" }), index);
  assert.equal(notString[0].program_sha256, null);
  assert.equal(notString[0].program_bytes, null);
});

Deno.test("argument digests do not depend on key order and never carry the arguments", async () => {
  assert.equal(
    await argsDigest({ a: 1, b: { c: [1, 2], d: null } }),
    await argsDigest({ b: { d: null, c: [1, 2] }, a: 1 }),
  );
  assert.notEqual(await argsDigest({ a: 1 }), await argsDigest({ a: 2 }));
  assert.match((await argsDigest({ q: "hello" }))!, /^[0-9a-f]{64}$/);
});

Deno.test("reason codes, denied lines and the line cap", () => {
  assert.equal(reasonCode("rate_limited"), "rate_limited");
  assert.equal(reasonCode("Bearer abc"), "other");
  assert.equal(reasonCode("x".repeat(65)), "other");
  assert.equal(reasonCode(undefined), null);
  assert.deepEqual(deniedLine({ status: 401, reason: "unauthorized", client: "127.0.0.1" }, "t", 3), {
    kind: "denied",
    time: "t",
    face: "http",
    client: "127.0.0.1",
    status: 401,
    reason: "unauthorized",
    suppressed: 3,
  });
  const long = cutLine({ kind: "eval", owner: "o".repeat(MAX_LINE_BYTES), n: 1, nested: { a: 1 } });
  assert.ok(JSON.stringify(long).length < 200);
  assert.deepEqual(long, { kind: "eval", owner: `${"o".repeat(32)}…`, n: 1, nested: null, truncated: true });
});
