/**
 * `ptc doctor --connect` tells the truth about an OpenAPI upstream, whose start reads only its document: it connects
 * to `base_url` and, with `doctor_probe`, makes one authenticated read; without a probe it says the credentials were
 * not checked. A closed port and a wrong token exit 1. Run against the real Observatory fixture.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { runPtc } from "./ptc_process.ts";
import { freePort } from "./launcher_helpers.ts";

Deno.test("doctor --connect on an OpenAPI upstream: reach, probe, and an honest 'not checked'", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-doctor-openapi-" });
  const tokenDir = join(dir, ".observatory");
  await Deno.mkdir(tokenDir, { mode: 0o700 });
  const tokens = await createTokenDir(tokenDir);
  const obs = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 50 });
  try {
    const doc = await (await fetch(`${obs.url}/api/openapi.json`)).text();
    await Deno.writeTextFile(join(dir, "observatory.openapi.json"), doc);
    const token = (await Deno.readTextFile(join(tokenDir, "observatory.token"))).trim();
    const config = (baseUrl: string, probe: boolean) =>
      JSON.stringify({
        credentials: { obs: { source: "env", var: "OBS_TOKEN", scheme_hint: "bearer" } },
        upstreams: {
          observatory: {
            transport: "openapi",
            base_url: baseUrl,
            schema_file: "observatory.openapi.json",
            allow_insecure_http: true,
            allow_insecure_auth: true,
            auth: [{ scheme: "bearer", binding: "obs" }],
            include_operations: ["list_traces"],
            ...(probe ? { doctor_probe: { tool: "list-traces", arguments: { org_id: "acme", limit: 1 } } } : {}),
          },
        },
      });
    const doctor = async (text: string, env: Record<string, string>, format = "text") => {
      const file = join(dir, "ptc.jsonc");
      await Deno.writeTextFile(file, text);
      const saved = Deno.env.get("OBS_TOKEN");
      Deno.env.set("OBS_TOKEN", env.OBS_TOKEN);
      try {
        return await runPtc(["doctor", "--connect", "--format", format, "--upstreams-config", file]);
      } finally {
        if (saved === undefined) Deno.env.delete("OBS_TOKEN");
        else Deno.env.set("OBS_TOKEN", saved);
      }
    };

    await t.step("reachable, no probe: passes and says the credentials were not checked", async () => {
      const r = await doctor(config(obs.url, false), { OBS_TOKEN: token });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /✓ reach 127\.0\.0\.1:\d+: TCP connected/);
      assert.match(r.stdout, /✓ credentials: reachable, credentials not checked \(hint: set doctor_probe/);
      assert.match(r.stdout, /all checks passed\n?$/);
    });

    await t.step("the right token with a probe: one authenticated read", async () => {
      const r = await doctor(config(obs.url, true), { OBS_TOKEN: token });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /✓ doctor_probe list-traces: answered \(.*\): credentials accepted/);
    });

    await t.step("a wrong token with a probe: exit 1, auth_failed, the token never printed", async () => {
      const wrong = "tok_wrong_" + "x".repeat(40);
      const r = await doctor(config(obs.url, true), { OBS_TOKEN: wrong });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /✗ doctor_probe list-traces: auth_failed/);
      assert.match(r.stdout, /problems found\n?$/);
      assert.ok(!r.stdout.includes(wrong) && !r.stderr.includes(wrong));
      const json = JSON.parse((await doctor(config(obs.url, true), { OBS_TOKEN: wrong }, "json")).stdout);
      assert.equal(json.ok, false);
    });

    await t.step("the service's port closed: exit 1, connection refused", async () => {
      const closed = `http://127.0.0.1:${freePort()}`;
      const r = await doctor(config(closed, false), { OBS_TOKEN: token });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /✗ reach 127\.0\.0\.1:\d+: connection refused/);
    });

    await t.step("a probe naming a tool that is not installed is named with a suggestion", async () => {
      const text = config(obs.url, true).replace('"tool":"list-traces"', '"tool":"list-trace"');
      const r = await doctor(text, { OBS_TOKEN: token });
      assert.equal(r.code, 1);
      assert.match(
        r.stdout,
        /✗ doctor_probe list-trace: no installed tool 'list-trace' \(did you mean "list-traces"\?\)/,
      );
    });
  } finally {
    await obs.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
