/** The OpenAPI transport against the team's Observatory fixture (schema_url, bearer file credential). */
import assert from "node:assert/strict";
import openapi from "../../../transports/openapi/mod.ts";
import { createTokenDir, ORG_IDS, startObservatory } from "../../../fixtures/observatory/mod.ts";
import { callCtx, configContext, makeDeps } from "./helpers.ts";

Deno.test("openapi × observatory: compile from schema_url, call, map 404 and 401, never leak the token", async () => {
  const tokens = await createTokenDir();
  const obs = await startObservatory({ tokensFile: tokens.tokensFile, traces: 50 });
  try {
    const parsed = openapi.parseConfig({
      transport: "openapi",
      base_url: obs.url,
      schema_url: `${obs.url}/api/openapi.json`,
      allow_insecure_http: true,
      allow_insecure_auth: true,
      auth: [{ scheme: "bearer", binding: "obs" }],
      include_operations: ["list_traces", "get_trace", "get_trace_steps"],
    }, configContext("observatory", ["obs"]));
    if (Array.isArray(parsed)) throw new Error(JSON.stringify(parsed));
    const deps = makeDeps([{ name: "obs", source: "file", path: tokens.tokenFile }]);
    const up = await openapi.start(parsed, deps);
    assert.deepEqual(up.listTools().map((t) => t.name), ["list-traces", "get-trace", "get-trace-steps"]);
    const org = ORG_IDS[0];
    const list = await up.call("list-traces", { org_id: org, limit: 3 }, callCtx());
    assert.ok(list.ok, JSON.stringify(list));
    const traces = (list.value as { traces: { id: string }[] }).traces;
    assert.ok(traces.length > 0 && traces.length <= 3);
    const one = await up.call("get-trace", { trace_id: traces[0].id }, callCtx());
    assert.ok(one.ok, JSON.stringify(one));
    const missing = await up.call("get-trace", { trace_id: "no-such-trace" }, callCtx());
    assert.equal(missing.ok ? "ok" : missing.reason, "not_found");
    await Deno.writeTextFile(tokens.tokenFile, "obs_wrong_token\n");
    const denied = await up.call("list-traces", { org_id: org }, callCtx());
    assert.equal(denied.ok ? "ok" : denied.reason, "auth_failed");
    const text = JSON.stringify([list.ok, one.ok, missing, denied, up.diagnostics(), up.listTools(), deps.logs]);
    assert.ok(!text.includes(tokens.token));
    await up.stop();
  } finally {
    await obs.stop();
    await Deno.remove(tokens.dir, { recursive: true });
  }
});
