/**
 * Operator libraries end to end: upstreams.example.jsonc (made concrete) loads fixtures/observatory/lib/oncall.clj
 * into every sandbox process; its functions call the Observatory (OpenAPI) and the runbooks server (MCP stdio) under
 * the calling program's budgets. A broken library stops the engine's start with its file, line and column.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startDemoSession } from "../../src/cli/demo_session.ts";
import { createEngine, EngineStartError } from "../../src/engine/engine.ts";
import { DATASET_END } from "../../fixtures/observatory/mod.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import type { Engine } from "../../src/engine/types.ts";
import { librariesCard, lispEvalDescription } from "../../src/mcp/card.ts";

const DAY = 86_400_000;

/** Characters of the lisp_eval description per exposure mode, with the library card and without any library. */
function descriptionSizes(engine: Engine) {
  const size = (mode: "inline" | "lazy", withLib: boolean) =>
    lispEvalDescription({
      hasTools: true,
      catalogText: withLib ? engine.renderCatalog(mode) : renderWithout(engine, mode),
      librariesText: withLib ? librariesCard(engine.libraries()) : "",
      slim: true,
    }).length;
  return {
    inline: { with: size("inline", true), without: size("inline", false) },
    lazy: { with: size("lazy", true), without: size("lazy", false) },
  };
}

/** The catalog text as an engine without libraries renders it. */
function renderWithout(engine: Engine, mode: "inline" | "lazy"): string {
  const plain = Object.create(engine, { libs: { value: [] } }) as Engine;
  return plain.renderCatalog(mode);
}
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

Deno.test({
  name: "oncall library: OpenAPI and MCP tools through one library call; sessions, pmap, budgets, discovery",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const demo = await startDemoSession({ traces: 400 });
    try {
      const engine = demo.engine;
      const [ns] = engine.libraries();
      assert.equal(ns.name, "oncall");
      assert.ok(ns.functions.some((f) => f.name === "step-story"));

      // the lisp_eval description lists the library in place of the tools it replaces (which stay callable)
      const card = librariesCard(engine.libraries());
      assert.match(card, /oncall\/failing-traces \(org :string, since :string\?, environment :string\?\) -> \[/);
      assert.match(card, /error-rate-change .* environment narrows both, else all \(:environment says\)\.\n/);
      const inline = engine.renderCatalog("inline");
      assert.ok(!inline.includes("observatory/list-traces "), inline);
      assert.ok(inline.includes("observatory/get-cost-analytics "));
      const sizes = descriptionSizes(engine);
      assert.ok(sizes.inline.with < sizes.inline.without + card.length, JSON.stringify(sizes));
      if (Deno.env.get("PTC_PRINT_SIZES")) console.log(JSON.stringify(sizes));
      const direct = await engine.evaluate({
        program: `(count (:traces (:value (tool/call 'observatory/list-traces {:org_id "acme" :limit 3}))))`,
      });
      assert.ok(direct.ok && direct.json === 3, "a replaced tool stays callable");

      // failing traces: an OpenAPI call (paged) inside the library, checked against its signature on return
      const failing = await engine.evaluate({
        program: `(count (oncall/failing-traces "acme" "${iso(DATASET_END - 7 * DAY)}"))`,
      });
      assert.ok(failing.ok, failing.ok ? "" : failing.message);
      assert.ok((failing.json as number) > 0);
      assert.ok(failing.calls.every((c) => c.server === "observatory" && c.tool === "list-traces"));

      // one library function, both transports: the steps (OpenAPI) joined with the runbook page (MCP)
      const story = await engine.evaluate({
        program: `(oncall/step-story (:id (first (oncall/failing-traces "acme" nil))))`,
      });
      assert.ok(story.ok, story.ok ? "" : story.message);
      const s = story.json as {
        steps: string[];
        first_failure: { error_class: string };
        runbook: { mitigation: string[] };
      };
      assert.ok(s.steps.length > 0);
      assert.ok(s.runbook.mitigation.length > 0, JSON.stringify(s.runbook));
      const servers = new Set(story.calls.map((c) => c.server));
      assert.deepEqual([...servers].sort(), ["observatory", "runbooks"]);

      // the caller's budget covers the library's calls
      const capped = await engine.evaluate({ program: `(oncall/failing-traces "acme" nil)`, timeoutMs: 1 });
      assert.ok(!capped.ok);
      assert.equal(capped.reason, "timeout");

      // a signature mismatch on entry is the caller's fault, quoting the signature
      const bad = await engine.evaluate({ program: `(oncall/runbook 42)` });
      assert.ok(!bad.ok);
      assert.equal(bad.reason, "type_error");
      assert.match(
        bad.message,
        /oncall\/runbook: argument 1 \(error_class\) must be :string.*signature \(error_class :string\)/,
      );

      // sessions and pmap call library functions; the process loaded the library once, before it was ready
      const session = await engine.openSession();
      try {
        const def = await session.eval({ program: `(def orgs ["acme" "globex"])` });
        assert.ok(def.ok);
        const week = [DATASET_END - 14 * DAY, DATASET_END - 7 * DAY, DATASET_END].map(iso);
        const rates = await session.eval({
          program: `(pmap #(oncall/error-rate-change % "${week[0]}" "${week[1]}" "${week[2]}") orgs)`,
        });
        assert.ok(rates.ok, rates.ok ? "" : rates.message);
        assert.deepEqual((rates.json as { org: string }[]).map((r) => r.org), ["acme", "globex"]);
        // the environment narrows both windows; the answer says which, checked against the data itself
        const prod = await session.eval({
          program: `(oncall/error-rate-change "acme" "${week[0]}" "${week[1]}" "${week[2]}" "production")`,
        });
        assert.ok(prod.ok, prod.ok ? "" : prod.message);
        const pct = (from: number, until: number) => {
          const ts = demo.server.dataset.tracesOfOrg("acme").filter((t) =>
            t.environment === "production" && Date.parse(t.started_at) >= from && Date.parse(t.started_at) < until
          );
          return 100 * ts.filter((t) => t.status === "error").length / Math.max(1, ts.length);
        };
        const [before, after] = [
          pct(DATASET_END - 14 * DAY, DATASET_END - 7 * DAY),
          pct(DATASET_END - 7 * DAY, DATASET_END),
        ];
        const r = prod.json as Record<string, unknown>;
        assert.deepEqual([r.environment, r.before_pct, r.after_pct], [
          "production",
          Math.round(10 * before) / 10,
          Math.round(10 * after) / 10,
        ]);
        assert.equal((rates.json as { environment: string }[])[0].environment, "all");
        const doc = await session.eval({ program: `(doc 'oncall/step-story)` });
        assert.ok(doc.ok);
        assert.match(String(doc.json), /signature: \(trace_id :string\) ->/);
        assert.deepEqual(doc.prints, [], "doc returns its text; it prints nothing");
        const dir = await session.eval({ program: `(dir 'oncall)` });
        assert.ok(dir.ok);
        assert.equal((dir.json as string[]).length, ns.functions.length);
        const servers = await session.eval({ program: `(mapv :name (tool/servers))` });
        assert.ok(servers.ok);
        assert.deepEqual(servers.json, ["observatory", "runbooks"], "(tool/servers) stays about upstreams");
        const priv = await session.eval({ program: `(oncall/all-pages {})` });
        assert.ok(!priv.ok);
        assert.match(priv.message, /private to library oncall/);
      } finally {
        await session.close();
      }
    } finally {
      await demo.close();
    }
  },
});

async function startWith(library: string, extra: Record<string, unknown> = {}): Promise<unknown> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-lib-" });
  try {
    await Deno.mkdir(join(dir, "lib"));
    await Deno.writeTextFile(join(dir, "lib", "bad.clj"), library);
    const config = join(dir, "upstreams.jsonc");
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: {}, libraries: ["lib/bad.clj"], ...extra }));
    const engine = await createEngine({ registry: registerBuiltins(), upstreamsConfig: config, lazySandbox: true });
    await engine.close();
    return null;
  } catch (e) {
    return e;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a broken library stops the start with its file, line and column", async () => {
  const e = await startWith('(ns b "B.")\n(defn f "F." [x]\n  (nonesuch x))');
  assert.ok(e instanceof EngineStartError, String(e));
  assert.deepEqual(e.lines, ["library lib/bad.clj:3:4: Undefined variable: nonesuch"]);
  const tool = await startWith('(ns b "B.")\n(defn f "F." [] (tool/call \'observatory/list-traces {}))');
  assert.ok(tool instanceof EngineStartError);
  assert.match(tool.lines[0], /^library lib\/bad\.clj:2:28: unknown upstream tool observatory\/list-traces/);
  const missing = await startWith("", { libraries: ["lib/none.clj"] });
  assert.ok(missing instanceof EngineStartError);
  assert.match(missing.lines[0], /^libraries\[0\] \(lib\/none\.clj\): file not found/);
  assert.equal(await startWith('(ns b "B.")\n(defn f "F." [] 1)'), null);
});
