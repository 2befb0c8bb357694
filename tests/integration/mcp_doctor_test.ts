import assert from "node:assert/strict";
import { startMcpHttpFixture } from "../../fixtures/mcp/http.ts";
import { ROOT, STDIO_FIXTURE } from "../transports/mcp_common/helpers.ts";
import { runDeno } from "../cli/run_deno.ts";

async function doctor(configText: string, flags: string[], env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "ptc-doctor-" });
  try {
    await Deno.writeTextFile(`${dir}/secret.txt`, "file-secret-value-42\n");
    const file = `${dir}/upstreams.jsonc`;
    await Deno.writeTextFile(file, configText.replaceAll("$DIR", dir));
    return await runDeno([`${ROOT}/main.ts`, "doctor", "--upstreams-config", file, ...flags], {
      permissions: ["--frozen", "--cached-only", "-A"],
      env,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("doctor: config errors exit 2 and name the key path", async () => {
  const r = await doctor(`{"upstreams": {"x": {"transport": "mcp_stdio", "command": "", "protocol": "2025"}}}`, []);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /upstreams\.x\.command/);
  assert.match(r.stdout, /upstreams\.x\.protocol/);
});

Deno.test("doctor: credentials, commands and permissions without --connect; secrets never printed", async () => {
  const config = `{
    "credentials": {
      "from_file": {"source": "file", "path": "$DIR/secret.txt"},
      "from_env": {"source": "env", "var": "PTC_DOCTOR_MISSING_VAR"}
    },
    "upstreams": {
      "fx": {"transport": "mcp_stdio", "command": "${Deno.execPath()}", "args": ["run", "--frozen", "--cached-only", "${STDIO_FIXTURE}"],
             "env": {"A": {"binding": "from_file"}, "B": {"binding": "from_env"}}},
      "gone": {"transport": "mcp_stdio", "command": "no-such-mcp-server-xyz"}
    }
  }`;
  for (const format of ["text", "json"]) {
    const r = await doctor(config, ["--format", format]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(!r.stdout.includes("file-secret-value-42"), "secret never printed");
    assert.match(r.stdout, /PTC_DOCTOR_MISSING_VAR/);
    assert.match(r.stdout, /command_not_found/);
    if (format === "json") {
      const doc = JSON.parse(r.stdout);
      assert.equal(doc.ok, false);
      const creds = Object.fromEntries(doc.credentials.map((c: { check: string; ok: boolean }) => [c.check, c.ok]));
      assert.deepEqual(creds, { from_file: true, from_env: false });
      const fx = doc.upstreams.find((u: { name: string }) => u.name === "fx");
      assert.equal(fx.status, "problem");
    }
  }
});

Deno.test("doctor --connect --format json: ready with tool count and era, or a closed code with a hint", async () => {
  const fx = await startMcpHttpFixture({ era: "both" });
  try {
    const config = `{
      "upstreams": {
        "stdio_fx": {"transport": "mcp_stdio", "command": "${Deno.execPath()}",
                     "args": ["run", "--frozen", "--cached-only", "--allow-env", "${STDIO_FIXTURE}", "--era", "legacy"]},
        "http_fx": {"transport": "mcp_http", "url": "${fx.url}", "allow_insecure_loopback": true},
        "pinned": {"transport": "mcp_stdio", "command": "${Deno.execPath()}",
                   "args": ["run", "--frozen", "--cached-only", "--allow-env", "${STDIO_FIXTURE}", "--era", "legacy"], "protocol": "2026-07-28"}
      }
    }`;
    const r = await doctor(config, ["--connect", "--format", "json"]);
    const doc = JSON.parse(r.stdout);
    const by = Object.fromEntries(doc.upstreams.map((u: { name: string }) => [u.name, u]));
    assert.equal(by.stdio_fx.status, "ready");
    assert.equal(by.stdio_fx.tools, 13);
    assert.equal(by.stdio_fx.era, "legacy");
    assert.equal(by.http_fx.status, "ready");
    assert.equal(by.http_fx.era, "modern");
    assert.equal(by.pinned.status, "failed");
    assert.equal(by.pinned.code, "protocol_method_not_found");
    assert.match(by.pinned.hint, /protocol/);
    assert.equal(r.code, 1);
  } finally {
    await fx.close();
  }
});

Deno.test("doctor --connect: a declared effect the annotations contradict is reported; the gate counts writes", async () => {
  const config = `{
    "allow_writes": true,
    "upstreams": {
      "fx": {"transport": "mcp_stdio", "command": "${Deno.execPath()}", "args": ["run", "--frozen", "--cached-only", "--allow-env", "${STDIO_FIXTURE}"],
             "tools": {"purge_items": {"effect": "write"}, "echo": {"effect": "read"}, "delete_item": {"effect": "write"}}}
    }
  }`;
  const text = await doctor(config, ["--connect", "--allow-writes"]);
  assert.equal(text.code, 0, text.stdout + text.stderr);
  assert.match(text.stdout, /fx \(mcp_stdio\): ready, 3 tool\(s\) \(2 write\)/);
  assert.match(
    text.stdout,
    /! tool 'purge-items' \(purge_items\): the config declares effect "write" but the server's annotations claim "read"/,
  );
  assert.doesNotMatch(text.stdout, /delete-item/, "agreeing declarations are not reported");
  const gated = JSON.parse((await doctor(config, ["--connect", "--format", "json"])).stdout);
  const fx = gated.upstreams.find((u: { name: string }) => u.name === "fx");
  assert.equal(fx.tools, 1, "without --allow-writes only the read tool counts");
  assert.equal(fx.effect_disagreements.length, 1);
  // the withheld write tools (in the server's order) are named with the switch that would install them, as in
  // `ptc catalog` (its JSON's `withheld` has the same shape)
  const why = "is a write tool and ptc was started without --allow-writes (or PTC_ALLOW_WRITES=1)";
  assert.deepEqual(fx.withheld, [
    { name: "delete-item", effect: "write", reason: why },
    { name: "purge-items", effect: "write", reason: why },
  ]);
  const gatedText = (await doctor(config, ["--connect"])).stdout;
  assert.match(
    gatedText,
    /^ {4}- not installed: fx\/delete-item: is a write tool and ptc was started without --allow-writes/m,
  );
});

Deno.test("doctor --connect: a mapped tool the server does not list and a name collision are reported", async () => {
  // A typo in the mapping (purge_item) silently installs nothing under that name; two mapped tools that kebab-case
  // to one name hide the second. Both are what an operator runs doctor to find.
  const config = `{
    "upstreams": {
      "fx": {"transport": "mcp_stdio", "command": "${Deno.execPath()}", "args": ["run", "--frozen", "--cached-only", "--allow-env", "${STDIO_FIXTURE}"],
             "tools": {"purge_item": {"effect": "write"}, "listItems": {"effect": "read"}, "list_items": {"effect": "read"}}}
    }
  }`;
  const text = await doctor(config, ["--connect"]);
  assert.equal(text.code, 1, "a mapping naming a tool the server lacks is a problem, not 'all checks passed'");
  assert.match(text.stdout, /problems found\n?$/);
  assert.match(
    text.stdout,
    /^ {4}! the config maps tool "purge_item" \(did you mean "purge_items"\?\) but the server does not list it$/m,
  );
  assert.match(text.stdout, /^ {4}! tools "listItems", "list_items" all map to "list-items"; exposing "listItems"/m);
  const json = JSON.parse((await doctor(config, ["--connect", "--format", "json"])).stdout);
  const fx = json.upstreams.find((u: { name: string }) => u.name === "fx");
  assert.equal(fx.tools, 1);
  assert.equal(fx.start_warnings.length, 2, JSON.stringify(fx.start_warnings));
});
