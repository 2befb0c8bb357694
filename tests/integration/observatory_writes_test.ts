/**
 * End to end, writes: the example config with its write section applied → config loader → OpenAPI transport (non-GET
 * operations with declared effects, JSON bodies, the Idempotency-Key header) → runtime and its one write gate → the
 * live Observatory, whose write log is the evidence: a gated write never reaches it, an allowed one arrives exactly
 * once, a refusal is `:not_applied`, and a write whose answer never came is `:indeterminate` — received, applied,
 * and not retried.
 */
import assert from "node:assert/strict";
import { startSettled } from "../upstream/settled.ts";
import { applyEdits, modify } from "jsonc-parser";
import { join } from "node:path";
import {
  createTokenDir,
  type RunningObservatory,
  startObservatory,
  type TokenDir,
} from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";
import { loadConfigOrThrow } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { Runtime } from "../../src/upstream/runtime.ts";
import { registerBuiltins } from "../../transports/mod.ts";

type Outcome = {
  kind: string;
  ok?: boolean;
  value?: JsonValue;
  reason?: string;
  message?: string;
  mutationState?: string;
};

interface World {
  server: RunningObservatory;
  tokens: TokenDir;
  runtime: Runtime;
  call(tool: string, args: JsonObject): Promise<{ outcome: Outcome; calls: { mutation_state?: string }[] }>;
}

interface WorldOptions {
  /** `allow_writes` in the config (default true). */
  configWrites?: boolean;
  /** The process switch, `--allow-writes` (default true). */
  processWrites?: boolean;
  /** `read_only` / `--read-only` (default false). */
  readOnly?: boolean;
  /** The Observatory upstream's `request_timeout_ms` (default: the example's). */
  requestTimeoutMs?: number;
}

async function withWorld(options: WorldOptions, fn: (w: World) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-writes-" });
  await Deno.mkdir(join(dir, ".observatory"), { mode: 0o700 });
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const server = await startObservatory({ seed: "writes", traces: 600, tokensFile: tokens.tokensFile });
  try {
    const path = await writeConcreteConfig(dir, server.url, { upstreams: ["observatory"], writes: true });
    let text = await Deno.readTextFile(path);
    const edit = (key: (string | number)[], value: unknown) => (text = applyEdits(text, modify(text, key, value, {})));
    if (options.configWrites === false) edit(["upstreams", "observatory", "allow_writes"], undefined);
    if (options.requestTimeoutMs) edit(["upstreams", "observatory", "request_timeout_ms"], options.requestTimeoutMs);
    await Deno.writeTextFile(path, text);
    const registry = registerBuiltins();
    const config = await loadConfigOrThrow(path, { registry });
    const runtime = await startSettled(config, {
      registry,
      allowWrites: options.processWrites !== false,
      readOnly: options.readOnly === true,
      log: () => {},
    });
    try {
      await fn({
        server,
        tokens,
        runtime,
        async call(tool, args) {
          const report = await withRunContext(
            runtime,
            (ctx) => ctx.callTool({ name: "call", args: { server: "observatory", tool, args } }),
          );
          return { outcome: report.value as Outcome, calls: report.calls };
        },
      });
    } finally {
      await runtime.stop();
    }
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

const tools = (w: World) => w.runtime.catalog().find((c) => c.name === "observatory")!.tools.map((t) => t.name);

/** A trace id of the world's dataset. */
const someTrace = (w: World) => w.server.dataset.traces[0].id;

Deno.test("e2e writes: the gate closed — write tools are withheld and the fixture never sees a write", async () => {
  for (const gate of [{ configWrites: false }, { processWrites: false }, { readOnly: true }] as WorldOptions[]) {
    await withWorld(gate, async (w) => {
      const names = tools(w);
      assert.ok(!names.includes("create-trace-annotation"), JSON.stringify(gate));
      assert.ok(!names.includes("delete-trace-annotation"), JSON.stringify(gate));
      // The reads stay: the GET and the POST declared a read.
      assert.ok(names.includes("list-trace-annotations") && names.includes("query-traces"), JSON.stringify(gate));
      const { outcome } = await w.call("create-trace-annotation", { trace_id: someTrace(w), label: "needs-review" });
      assert.equal(outcome.kind, "raise", JSON.stringify(outcome));
      const switchNamed = gate.readOnly ? /read-only/ : gate.configWrites === false ? /allow_writes/ : /--allow-writes/;
      assert.match(String(outcome.message), switchNamed);
      const query = await w.call("query-traces", { org_ids: ["acme"], status: "error", limit: 2 });
      assert.equal(query.outcome.ok, true, JSON.stringify(query.outcome));
      assert.equal(query.outcome.mutationState, undefined, "a read has no mutation state");
      assert.deepEqual(w.server.writes(), [], "no write request reached the fixture");
    });
  }
});

Deno.test("e2e writes: the gate open — one call, one write at the fixture, :applied; a repeat with the key creates nothing", async () => {
  await withWorld({}, async (w) => {
    const trace = someTrace(w);
    const args = { trace_id: trace, label: "needs-review", note: "look at step 3", idempotency_key: "review-1" };
    const made = await w.call("create-trace-annotation", args);
    assert.equal(made.outcome.ok, true, JSON.stringify(made.outcome));
    assert.equal(made.outcome.mutationState, "applied");
    assert.equal(made.calls[0].mutation_state, "applied");
    const annotation = made.outcome.value as Record<string, unknown>;
    assert.deepEqual([annotation.id, annotation.label, annotation.note], [
      "ann_000001",
      "needs-review",
      "look at step 3",
    ]);
    const received = w.server.writes();
    assert.equal(received.length, 1, "exactly one write request");
    assert.deepEqual(
      [received[0].method, received[0].path, received[0].idempotency_key, received[0].applied],
      ["POST", `/api/traces/${trace}/annotations`, "review-1", true],
    );

    const again = await w.call("create-trace-annotation", args);
    assert.deepEqual(again.outcome.value, annotation, "the original annotation");
    assert.deepEqual(w.server.writes().map((r) => r.applied), [true, false], "the repeat changed nothing");
    const list = await w.call("list-trace-annotations", { trace_id: trace });
    assert.equal((list.outcome.value as { annotations: unknown[] }).annotations.length, 1);

    // DELETE answers 204: an empty success, nil, :applied.
    const gone = await w.call("delete-trace-annotation", { trace_id: trace, annotation_id: "ann_000001" });
    assert.equal(gone.outcome.ok, true, JSON.stringify(gone.outcome));
    assert.equal(gone.outcome.value ?? null, null);
    assert.equal(gone.outcome.mutationState, "applied");
    const twice = await w.call("delete-trace-annotation", { trace_id: trace, annotation_id: "ann_000001" });
    assert.equal(twice.outcome.reason, "not_found");
    assert.equal(twice.outcome.mutationState, "not_applied");
    assert.equal(w.server.writes().length, 4);
  });
});

Deno.test("e2e writes: refusals are :not_applied and never retried (403 scope, 401 without the re-read retry)", async () => {
  await withWorld({}, async (w) => {
    const trace = someTrace(w);
    // The credential file now holds the read-only token: the fixture answers 403 (no traces:write).
    await Deno.writeTextFile(w.tokens.tokenFile, w.tokens.readOnlyToken + "\n");
    const forbidden = await w.call("create-trace-annotation", { trace_id: trace, label: "needs-review" });
    assert.equal(forbidden.outcome.reason, "forbidden", JSON.stringify(forbidden.outcome));
    assert.match(String(forbidden.outcome.message), /traces:write/);
    assert.equal(forbidden.outcome.mutationState, "not_applied");
    assert.deepEqual(w.server.writes().map((r) => [r.status, r.applied]), [[403, false]]);
    // An unknown token: 401. A read would re-read the credential and retry once; a write is sent once.
    await Deno.writeTextFile(w.tokens.tokenFile, "obs_0000000000000000000000000000000000000000\n");
    const unauthorized = await w.call("create-trace-annotation", { trace_id: trace, label: "needs-review" });
    assert.equal(unauthorized.outcome.reason, "auth_failed", JSON.stringify(unauthorized.outcome));
    assert.equal(unauthorized.outcome.mutationState, "not_applied");
    assert.deepEqual(w.server.writes().map((r) => r.status), [403, 401], "one request each, no retry");
  });
});

Deno.test("e2e writes: invalid arguments are refused by ptc before anything is sent", async () => {
  await withWorld({}, async (w) => {
    const bad = await w.call("create-trace-annotation", { trace_id: someTrace(w), label: "Needs Review!" });
    assert.equal(bad.outcome.kind, "raise", JSON.stringify(bad.outcome));
    assert.match(String(bad.outcome.message), /label/);
    const unknown = await w.call("create-trace-annotation", { trace_id: someTrace(w), lable: "x" });
    assert.equal(unknown.outcome.kind, "raise");
    assert.deepEqual(w.server.writes(), []);
  });
});

Deno.test("e2e writes: a write that times out after the fixture received it is :indeterminate, not retried", async () => {
  await withWorld({ requestTimeoutMs: 1000 }, async (w) => {
    const trace = someTrace(w);
    w.server.setWriteDelay(Infinity);
    const { outcome, calls } = await w.call("create-trace-annotation", { trace_id: trace, label: "needs-review" });
    assert.equal(outcome.ok, false, JSON.stringify(outcome));
    assert.equal(outcome.reason, "timeout");
    assert.equal(outcome.mutationState, "indeterminate");
    assert.equal(calls[0].mutation_state, "indeterminate");
    assert.match(String(outcome.message), /may or may not have been applied; check/);
    // The fixture's evidence: one receipt, applied — ptc did not send it again.
    const received = w.server.writes();
    assert.equal(received.length, 1);
    assert.deepEqual([received[0].applied, received[0].status], [true, 201]);
    w.server.setWriteDelay(0);
    const list = await w.call("list-trace-annotations", { trace_id: trace });
    assert.equal((list.outcome.value as { annotations: unknown[] }).annotations.length, 1, "checking shows it");
    assert.equal(w.server.writes().length, 1);
  });
});
