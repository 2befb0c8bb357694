/**
 * The runtime through the real OpenAPI transport against the Observatory fixture on 127.0.0.1 (port 0): config file
 * → startRuntime → tool/call, discovery, credential rotation by replacing the token file, 401 → auth_failed, and
 * the token scrubbed from everything.
 */
import assert from "node:assert/strict";
import { startSettled } from "./settled.ts";
import { join } from "node:path";
import {
  createTokenDir,
  fullAccessToken,
  generateToken,
  startObservatory,
  writeTokensFile,
} from "../../fixtures/observatory/mod.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { loadConfigFile, type PtcConfig } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { renderCatalog } from "../../src/upstream/catalog.ts";
import { computePermissions, permissionFlags } from "../../src/upstream/permissions.ts";
import { base64Utf8 } from "../../src/upstream/redact.ts";

Deno.test("openapi integration: catalog, calls, doc, rotation, 401 and redaction through the real transport", async () => {
  const td = await createTokenDir();
  const obs = await startObservatory({ tokensFile: td.tokensFile });
  const logs: string[] = [];
  const registry = registerBuiltins();
  let rt;
  try {
    const file = join(td.dir, "ptc.jsonc");
    await Deno.writeTextFile(
      file,
      `// test config
      {
        "credentials": { "observatory": { "source": "file", "path": "observatory.token", "scheme_hint": "bearer" } },
        "upstreams": {
          "observatory": {
            "transport": "openapi",
            "description": "Observatory traces",
            "base_url": "${obs.url}",
            "schema_url": "${obs.url}/api/openapi.json",
            "allow_insecure_http": true,
            "allow_insecure_auth": true,
            "auth": [{ "scheme": "bearer", "binding": "observatory" }],
            "include_operations": ["list_traces", "get_trace"],
          },
        },
        "limits": { "call_timeout_ms": 10000 },
      }`,
    );
    const config = await loadConfigFile(file, { registry });
    assert.ok(!Array.isArray(config), JSON.stringify(config));
    const flags = permissionFlags(computePermissions(config as PtcConfig, registry));
    assert.deepEqual(flags, [
      `--allow-net=${new URL(obs.url).host}`,
      `--allow-read=${td.tokenFile},${file}`,
      "--allow-env=PTC_UPSTREAMS",
    ]);
    rt = await startSettled(config as PtcConfig, { registry, log: (l) => logs.push(l) });
    assert.match(renderCatalog(rt, "inline"), /observatory\/list-traces \{:org-id string /);

    const first = await withRunContext(rt, async (ctx) => [
      await ctx.callTool({
        name: "call",
        args: { server: "observatory", tool: "list-traces", args: { org_id: "acme", limit: 2 } },
      }),
      await ctx.discovery("doc", { ref: "observatory/list-traces" }),
      await ctx.discovery("meta", { ref: "observatory/get-trace" }),
    ]);
    const ok = first.value[0];
    assert.ok(ok.kind === "tagged" && ok.ok, JSON.stringify(ok));
    const traces = (ok.value as { traces: unknown[] }).traces;
    assert.equal(traces.length, 2);
    assert.match((first.value[1] as { result: string }).result, /Returns: Result<\{traces \[\{id string/);
    const meta = (first.value[2] as unknown as { result: { _ptc: Record<string, unknown> } }).result;
    assert.equal(meta._ptc.operationId, "get_trace");
    assert.equal(meta._ptc.method, "GET");
    assert.equal(first.calls[0].status, "ok");

    // rotation: a new token on both sides is picked up on the next call, no restart
    const rotated = generateToken();
    await writeTokensFile(td.tokensFile, [fullAccessToken("tok_local", "local client", rotated)]);
    await Deno.writeTextFile(td.tokenFile, `${rotated}\n`);
    const second = await withRunContext(
      rt,
      (ctx) =>
        ctx.callTool({
          name: "call",
          args: { server: "observatory", tool: "get-trace", args: { trace_id: "nope-404" } },
        }),
    );
    assert.ok(
      second.value.kind === "tagged" && !second.value.ok && second.value.reason === "not_found",
      JSON.stringify(second.value),
    );

    // a wrong token: 401 → re-read → still 401 → auth_failed; the token appears nowhere
    const wrong = generateToken();
    await Deno.writeTextFile(td.tokenFile, wrong);
    const third = await withRunContext(
      rt,
      (ctx) =>
        ctx.callTool({ name: "call", args: { server: "observatory", tool: "list-traces", args: { org_id: "acme" } } }),
    );
    assert.ok(
      third.value.kind === "tagged" && !third.value.ok && third.value.reason === "auth_failed",
      JSON.stringify(third.value),
    );
    // the service goes away: a world fault, not a crash
    await obs.stop();
    const fourth = await withRunContext(
      rt,
      (ctx) =>
        ctx.callTool({ name: "call", args: { server: "observatory", tool: "list-traces", args: { org_id: "acme" } } }),
    );
    assert.ok(
      fourth.value.kind === "tagged" && !fourth.value.ok && fourth.value.reason === "upstream_unavailable",
      JSON.stringify(fourth.value),
    );
    const everything = JSON.stringify([
      first,
      second,
      third,
      fourth,
      rt.diagnostics(),
      renderCatalog(rt, "inline"),
      logs,
    ]);
    for (const secret of [td.token, rotated, wrong]) {
      assert.ok(!everything.includes(secret), "token leaked");
      assert.ok(!everything.includes(base64Utf8(secret)), "token base64 leaked");
    }
  } finally {
    await rt?.stop();
    await obs.stop();
    await Deno.remove(td.dir, { recursive: true });
  }
});
