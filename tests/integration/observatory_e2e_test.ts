/**
 * End to end: upstreams.example.jsonc (made concrete) → config loader → OpenAPI transport → runtime → the live
 * Observatory fixture. Calls go through the run context's `tool/call` host callback, exactly as a program's would.
 */
import assert from "node:assert/strict";
import { fullAccessToken, generateToken, writeTokensFile } from "../../fixtures/observatory/mod.ts";
import { type RuntimeSession, withDemoRuntime } from "./demo_runtime.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { JsonObject, JsonValue } from "../../src/core/json.ts";

type Outcome = { kind: string; ok?: boolean; value?: JsonValue; reason?: string; message?: string };

async function call(session: RuntimeSession, tool: string, args: JsonObject) {
  const report = await withRunContext(
    session.runtime,
    (ctx) => ctx.callTool({ name: "call", args: { server: "observatory", tool, args } }),
  );
  return { outcome: report.value as Outcome, calls: report.calls };
}

function value(o: Outcome): Record<string, unknown> {
  assert.equal(o.kind, "tagged", JSON.stringify(o).slice(0, 300));
  assert.equal(o.ok, true, JSON.stringify(o).slice(0, 300));
  return o.value as Record<string, unknown>;
}

function withSession(fn: (s: RuntimeSession) => Promise<void>): Promise<void> {
  return withDemoRuntime({ seed: "e2e", traces: 1200 }, fn);
}

Deno.test("e2e observatory: the example config exposes its eight read operations as tools", async () => {
  await withSession((s) => {
    const names = s.runtime.catalog().find((c) => c.name === "observatory")?.tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      "get-cost-analytics",
      "get-trace",
      "get-trace-step",
      "get-trace-steps",
      "list-errors",
      "list-traces",
      "query-traces",
      "search-traces",
    ]);
    return Promise.resolve();
  });
});

Deno.test("e2e observatory: query-traces, a POST declared a read, works in read-only mode", async () => {
  await withSession(async (s) => {
    const { outcome, calls } = await call(s, "query-traces", {
      org_ids: ["acme", "globex"],
      status: "error",
      order_by: "cost_usd",
      limit: 3,
    });
    const page = value(outcome);
    const expected = s.server.dataset.traces.filter((t) =>
      ["acme", "globex"].includes(t.org_id) && t.status === "error"
    )
      .sort((a, b) => b.cost_usd - a.cost_usd || a.id.localeCompare(b.id)).slice(0, 3);
    assert.deepEqual((page.traces as { id: string }[]).map((t) => t.id), expected.map((t) => t.id));
    assert.equal(calls[0].mutation_state, undefined, "a read has no mutation state");
    assert.deepEqual(s.server.writes(), [], "and the fixture recorded no write");
  });
});

Deno.test("e2e observatory: list, search, detail", async () => {
  await withSession(async (s) => {
    const { outcome, calls } = await call(s, "list-traces", { org_id: "acme", limit: 3, status: "error" });
    const page = value(outcome);
    const traces = page.traces as Record<string, unknown>[];
    assert.equal(traces.length, 3);
    assert.ok(traces.every((t) => t.status === "error" && t.org_id === "acme"));
    assert.equal(typeof page.next_cursor, "string");
    assert.equal(calls.length, 1);
    assert.ok(calls[0].bytes > 500, "the record counts the upstream bytes");

    const next = value(
      (await call(s, "list-traces", {
        org_id: "acme",
        limit: 3,
        status: "error",
        cursor: page.next_cursor as string,
      })).outcome,
    );
    assert.notEqual((next.traces as { id: string }[])[0].id, traces[0].id);

    const found = value((await call(s, "search-traces", { trace_id: traces[0].external_trace_id as string })).outcome);
    assert.equal(found.id, traces[0].id);
    const detail = value((await call(s, "get-trace", { trace_id: traces[0].id as string })).outcome);
    assert.deepEqual(detail, traces[0]);

    const missing = (await call(s, "get-trace", { trace_id: "trc_0000000000000000" })).outcome;
    assert.equal(missing.ok, false);
    assert.equal(missing.reason, "not_found");
  });
});

Deno.test("e2e observatory: steps default to summary; full listings over the cap are response_too_large", async () => {
  await withSession(async (s) => {
    const data = s.server.dataset;
    const size = (id: string) => JSON.stringify({ trace_id: id, mode: "full", steps: data.fullSteps(id) }).length;
    const small = data.traces.find((t) => size(t.id) < 150_000)!;
    const big = data.traces.find((t) => size(t.id) > 300_000)!;
    assert.ok(small && big, "the dataset has both small and large traces");

    const summary = value((await call(s, "get-trace-steps", { trace_id: small.id })).outcome);
    assert.equal(summary.mode, "summary", "operation_overrides default_args applies mode=summary");
    const steps = summary.steps as Record<string, unknown>[];
    assert.equal(steps.length, small.step_count);
    assert.ok(steps.every((x) => typeof x.input_preview === "string" && !("input" in x)));

    const full = value((await call(s, "get-trace-steps", { trace_id: small.id, mode: "full" })).outcome);
    assert.ok((full.steps as Record<string, unknown>[]).every((x) => typeof x.input === "object"));

    const { outcome, calls } = await call(s, "get-trace-steps", { trace_id: big.id, mode: "full" });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.reason, "response_too_large");
    assert.equal(calls[0].reason, "response_too_large");

    const one = value(
      (await call(s, "get-trace-step", { trace_id: small.id, step_id: steps[0].step_id as string }))
        .outcome,
    );
    assert.equal(one.step_id, steps[0].step_id);
    assert.equal(typeof one.input, "object");
  });
});

Deno.test("e2e observatory: cost aggregation", async () => {
  await withSession(async (s) => {
    const report = value((await call(s, "get-cost-analytics", { org_id: "acme", group_by: "model" })).outcome);
    const groups = report.groups as { key: string; cost_usd: number; trace_count: number }[];
    const total = report.total as { cost_usd: number; trace_count: number };
    assert.ok(groups.length >= 2);
    assert.equal(groups.reduce((a, g) => a + g.trace_count, 0), total.trace_count);
    const expected = s.server.dataset.tracesOfOrg("acme").reduce((a, t) => a + t.cost_usd, 0);
    assert.ok(Math.abs(total.cost_usd - expected) < 1e-4, `${total.cost_usd} vs ${expected}`);
  });
});

Deno.test("e2e observatory: 401, 403 and 429 come back as tagged results", async () => {
  await withSession(async (s) => {
    const tokensFile = s.tokens.tokensFile;
    const tokenFile = s.tokens.tokenFile;
    // 403: rotate the client credential to a token without analytics:read (file credentials are read per call).
    const narrow = generateToken();
    await writeTokensFile(tokensFile, [
      fullAccessToken("tok_local", "demo", s.tokens.token),
      {
        id: "tok_narrow",
        client: "narrow",
        token: narrow,
        scopes: ["traces:read"],
        orgs: ["acme"],
        environments: ["*"],
      },
    ]);
    await Deno.writeTextFile(tokenFile, narrow + "\n");
    const forbidden = (await call(s, "get-cost-analytics", { org_id: "acme" })).outcome;
    assert.equal(forbidden.reason, "forbidden", JSON.stringify(forbidden));
    assert.match(String(forbidden.message), /analytics:read/);
    const otherOrg = (await call(s, "list-traces", { org_id: "globex" })).outcome;
    assert.equal(otherOrg.reason, "forbidden");
    assert.equal(
      value((await call(s, "list-traces", { org_id: "acme", limit: 1 })).outcome).next_cursor !== undefined,
      true,
    );

    // 401: revoke it.
    await writeTokensFile(tokensFile, [
      fullAccessToken("tok_local", "demo", s.tokens.token),
      { ...fullAccessToken("tok_narrow", "narrow", narrow), revoked: true },
    ]);
    const revoked = (await call(s, "list-traces", { org_id: "acme" })).outcome;
    assert.equal(revoked.ok, false);
    assert.equal(revoked.reason, "auth_failed");
    assert.ok(!JSON.stringify(revoked).includes(narrow), "the token never reaches the program");

    // 429: a token with a budget of two requests per minute.
    const slow = generateToken();
    await writeTokensFile(tokensFile, [
      { ...fullAccessToken("tok_slow", "slow", slow), rate_limit: { requests: 2, window_seconds: 60 } },
    ]);
    await Deno.writeTextFile(tokenFile, slow);
    value((await call(s, "list-traces", { org_id: "acme", limit: 1 })).outcome);
    value((await call(s, "list-traces", { org_id: "acme", limit: 1 })).outcome);
    const limited = (await call(s, "list-traces", { org_id: "acme", limit: 1 })).outcome;
    assert.equal(limited.reason, "rate_limited");
    assert.match(String(limited.message), /Retry-After: \d+/);
  });
});
