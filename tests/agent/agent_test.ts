/**
 * The agent's side, end to end: `ptc mcp` over stdio, driven by the official MCP client, against one real Observatory
 * fixture on 127.0.0.1. What the description promises (limits, paging, discovery) is checked, then every question of
 * `questions.ts` is asked with the program an agent would write, and its answer is compared with the one computed
 * from the fixture's data module directly. One fixture, one server, one client for everything.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { Dataset } from "../../fixtures/observatory/data.ts";
import { connectStdio, evalLisp, startWorld, textOf, type World } from "../integration/mcp_server_helpers.ts";
import { contextFor, QUESTIONS } from "./questions.ts";

const TRACES = 400;

/** Deep equality with a relative tolerance for numbers (sums of floats are computed in another order). */
function close(actual: unknown, expected: unknown, path = "value"): void {
  if (typeof expected === "number" && typeof actual === "number") {
    const tol = Math.max(1e-9, Math.abs(expected) * 1e-9) + (Number.isInteger(expected) ? 0 : 0.005);
    assert.ok(Math.abs(actual - expected) <= tol, `${path}: ${actual} ≠ ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: expected a list, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => close(actual[i], e, `${path}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === "object") {
    assert.ok(actual !== null && typeof actual === "object", `${path}: expected a map, got ${JSON.stringify(actual)}`);
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    assert.deepEqual(Object.keys(a).sort(), Object.keys(e).sort(), `${path}: keys`);
    for (const k of Object.keys(e)) close(a[k], e[k], `${path}.${k}`);
    return;
  }
  assert.deepEqual(actual, expected, path);
}

async function ask(client: Client, program: string, context?: Record<string, unknown>) {
  const r = await evalLisp(client, program, context ? { context } : {});
  const structured = (r as { structuredContent?: Record<string, unknown> }).structuredContent ?? {};
  return { text: textOf(r), structured, isError: (r as { isError?: boolean }).isError === true };
}

Deno.test("agent: Observatory questions through ptc mcp, answers checked against the fixture's data", async (t) => {
  const ds = new Dataset({ traces: TRACES });
  const world: World = await startWorld({ mcp: false, traces: TRACES });
  let client: Client | undefined;
  try {
    client = await connectStdio("auto", [
      "--upstreams-config",
      world.configPath,
      "--response-profile",
      "structured",
      "--catalog-mode",
      "inline",
    ]);
    const c = client;

    await t.step("the description states the limits and the paging form; the catalog carries notes", async () => {
      const tools = await c.listTools();
      const desc = tools.tools.find((x) => x.name === "lisp_eval")!.description!;
      assert.match(
        desc,
        /Limits per run: 10 s per program, 50 tool calls \(each page of tool\/pages is one\), 25 discovery operations, 10 s per call, 2 MiB per response\./,
      );
      assert.match(desc, /\(budget\/remaining\)/);
      assert.match(desc, /\(tool\/pages 'srv\/op/);
      assert.match(desc, /observatory\/list-traces .*\n {4}notes: .*366 days/);
      assert.match(desc, /observatory\/list-traces .*\n.*\n {4}pages: \(tool\/pages 'observatory\/list-traces/);
    });

    await t.step("one count, which tools page, every budget field, the output caps", async () => {
      const desc = (await c.listTools()).tools.find((x) => x.name === "lisp_eval")!.description!;
      const servers = await ask(c, "[(mapv :tool_count (tool/servers)) (count (dir 'observatory))]");
      const n = (servers.structured.value as number[][])[0][0];
      assert.deepEqual(servers.structured.value, [[n], n], "(tool/servers) and dir count the same tools");
      assert.match(desc, new RegExp(`\\nobservatory \\(${n} tools\\) - Observatory`));
      assert.match(
        desc,
        /observatory\/query-traces .*\n(?: {4}notes: .*\n)? {4}pages: \(tool\/pages 'observatory\/query-traces \{…\} \{:max-pages n\}\) follows them \(inferred/,
      );
      assert.match(
        desc,
        /\(budget\/remaining\) is what is LEFT, not used: :tool_calls :discovery_ops, :time_ms to the deadline;/,
      );
      assert.ok(!desc.includes(":write_calls"), "no write tool is installed: no write budget is mentioned");
      assert.match(desc, /:value_kind :json\|:text\|:none\} \(:text: v is a string, :none: no body\)/);
      assert.match(
        desc,
        /Output: an answer past 96 KiB and println past 50 lines or 16 KiB are cut, marked "\[truncated: …\]"\./,
      );
      const left = await ask(c, "(budget/remaining)");
      assert.deepEqual(Object.keys(left.structured.value as object).sort(), [
        "call_timeout_ms",
        "discovery_ops",
        "max_response_bytes",
        "time_ms",
        "tool_calls",
      ]);
      const doc = await ask(c, "(doc 'budget/remaining)");
      for (const field of [":tool_calls", ":write_calls", ":discovery_ops", ":time_ms", ":call_timeout_ms"]) {
        assert.ok(doc.text.includes(field), `doc explains ${field}`);
      }
      assert.match(doc.text, /What is LEFT of this run's budgets \(not what was used\)/);
    });

    await t.step("doc is a value: two docs compose into one string, nothing is printed", async () => {
      const r = await ask(c, "(str (doc 'observatory/get-trace) \"\\n----\\n\" (doc 'observatory))");
      assert.ok(!r.isError, r.text);
      assert.equal(r.structured.prints, undefined, "doc printed nothing");
      const v = String(r.structured.value);
      assert.match(v, /^observatory\/get-trace\n[\s\S]*\n----\nobservatory \(openapi upstream\)\nObservatory: /);
      assert.match(v, /Tools: \d+ installed and callable; \(dir 'observatory\) lists them/);
      assert.equal(r.text, v, "a multi-line string answer is shown as its text");
    });

    await t.step("doc shows every result field, paging, window limits in the notes and the data range", async () => {
      const r = await ask(c, "(doc 'observatory/list-traces)");
      assert.ok(!r.isError, r.text);
      assert.ok(!/\n\s*nil\s*$/.test(r.text), `no trailing nil: ${r.text.slice(-40)}`);
      for (const field of ["cost_usd float", "duration_ms int", "step_count int", "user_id string"]) {
        assert.ok(r.text.includes(field), `doc shows ${field}`);
      }
      assert.match(r.text, /Pages: by cursor: each page's `next_cursor` is sent back as `cursor`; items at `traces`/);
      assert.match(r.text, /All pages: \(tool\/pages 'observatory\/list-traces \{:org-id "…"\} \{:max-pages 10\}\)/);
      assert.match(r.text, /Notes: .*366 days/);
      assert.match(r.text, /:limit int\? — 1\.\.100, default 20/);
      const a = await ask(c, "(doc 'observatory/get-cost-analytics)");
      assert.match(a.text, /Notes: Windows are limited to 92 days/);
      // every list and analytics description states the data's range and the service's "now"
      for (const tool of ["list-traces", "query-traces", "get-cost-analytics", "list-errors"]) {
        const d = await ask(c, `(doc 'observatory/${tool})`);
        assert.match(d.text, /2026-10-01T00:00:00Z to 2026-10-31T00:00:00Z \(UTC\)/, tool);
        if (tool !== "list-traces") assert.match(d.text, /the service's "now" is 2026-10-31T00:00:00Z/, tool);
      }
      const q = await ask(c, "(doc 'observatory/query-traces)");
      assert.match(q.text, /\nPages: inferred from cursor\/next_cursor \(the operator declared none/);
    });

    await t.step("a spent discovery budget is a tagged fault with its message, and the answer is flagged", async () => {
      const r = await ask(
        c,
        "(let [m (last (mapv (fn [_] (meta 'observatory/get-trace)) (range 26)))] [(:ok m) (name (:reason m)) (:message m)])",
      );
      assert.deepEqual(r.structured.value, [
        false,
        "catalog_cap_exhausted",
        "discovery budget exhausted: at most 25 operations per run",
      ]);
      assert.match(r.text, /^\[warning: budget exhausted — 1 discovery operation\(s\) refused/);
      assert.deepEqual(r.structured.budget_exhausted, ["1 discovery operation(s) refused: discovery budget exhausted"]);
    });

    assert.ok(QUESTIONS.length >= 30, `${QUESTIONS.length} questions`);
    for (const q of QUESTIONS) {
      await t.step(q.q, async () => {
        const r = await ask(c, q.program, contextFor(q, ds));
        assert.ok(!r.isError, `${q.q}\n${r.text}`);
        assert.equal(r.structured.status, "ok", r.text);
        close(r.structured.value, q.expect(ds));
        if (q.noPrints) assert.equal(r.structured.prints, undefined, "nothing printed");
        if (q.text) assert.match(r.text, q.text);
        else assert.ok(!r.text.includes("[warning: budget"), `no budget warning: ${r.text.slice(0, 200)}`);
      });
    }
  } finally {
    await client?.close();
    await world.close();
  }
});
