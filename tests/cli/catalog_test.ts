/** `ptc catalog`, `ptc permissions`, `ptc docs schema-config`, run in-process with console captured. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { Validator } from "@cfworker/json-schema";
import { run as catalog } from "../../src/cli/catalog.ts";
import { run as permissions } from "../../src/cli/permissions.ts";
import { codeNeeds } from "../../src/cli/face_needs.ts";
import { run as docs } from "../../src/cli/docs.ts";
import { registerTransport } from "../../transports/mod.ts";
import { fakeTransport } from "../upstream/fake_transport.ts";
import { ROOT, stdioFixture } from "../transports/mcp_common/helpers.ts";

registerTransport(fakeTransport);

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await fn();
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function withConfig(doc: unknown, fn: (file: string, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "ptc.jsonc");
    await Deno.writeTextFile(file, typeof doc === "string" ? doc : JSON.stringify(doc));
    await fn(file, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const GOOD = {
  upstreams: {
    obs: {
      transport: "fake",
      description: "Observatory",
      base_url: "https://obs.example.com:8443",
      tools: [{
        name: "list-traces",
        description: "List traces",
        input_schema: { type: "object", properties: { org_id: { type: "string" } }, required: ["org_id"] },
      }],
    },
  },
};

Deno.test("ptc docs schema-config prints a schema that accepts upstreams.example.jsonc", async () => {
  const r = await capture(() => docs(["schema-config"]));
  assert.equal(r.code, 0);
  const schema = JSON.parse(r.out);
  assert.ok(schema.$defs.upstream_openapi && schema.$defs.upstream_mcp_stdio && schema.$defs.upstream_mcp_http);
  const example = parseJsonc(await Deno.readTextFile(new URL("../../upstreams.example.jsonc", import.meta.url)));
  const result = new Validator(schema, "2020-12", false).validate(example);
  assert.ok(result.valid, JSON.stringify(result.errors.slice(-3)));
  const bad = new Validator(schema, "2020-12", false).validate({
    upstreams: { x: { transport: "openapi", base_ur: 1 } },
  });
  assert.equal(bad.valid, false);
  assert.equal((await capture(() => docs(["nope"]))).code, 2);
});

Deno.test("ptc docs schema-config: a pagination descriptor has one shape on OpenAPI overrides and MCP tool mappings", async () => {
  const schema = JSON.parse((await capture(() => docs(["schema-config"]))).out);
  const valid = (upstream: Record<string, unknown>) =>
    new Validator(schema, "2020-12", false).validate({ upstreams: { u: upstream } }).valid;
  const openapi = (pagination: unknown) => ({
    transport: "openapi",
    base_url: "https://api.example.com",
    schema_file: "doc.json",
    include_operations: ["list-things"],
    operation_overrides: { "list-things": { pagination } },
  });
  const mcp = (pagination: unknown) => ({
    transport: "mcp_stdio",
    command: "/usr/bin/node",
    tools: { list_things: { effect: "read", pagination } },
  });
  const cursor = { style: "cursor", items: "things", cursor_param: "cursor", next_cursor: "next" };
  const offset = { style: "offset", items: "", offset_param: "offset", limit_param: "limit" };
  const wrong = [
    { style: "cursor", items: "things", next_cursor: "next" }, // no cursor_param
    { style: "offset", items: "things", offset_param: "" }, // an empty parameter name
    { style: "offset", items: "things", offset_param: "offset", cursor_param: "c" }, // a key of the other style
    { style: "pages", items: "things" },
  ];
  for (const entry of [openapi, mcp]) {
    assert.ok(valid(entry(cursor)) && valid(entry(offset)), entry.name);
    for (const p of wrong) assert.equal(valid(entry(p)), false, `${entry.name}: ${JSON.stringify(p)}`);
  }
});

Deno.test("ptc catalog prints text and json; --diff reports changes", async () => {
  await withConfig(GOOD, async (file, dir) => {
    const text = await capture(() => catalog(["--upstreams-config", file]));
    assert.equal(text.code, 0, text.err);
    assert.equal(
      text.out,
      "obs (1 tool) - Observatory [fake]\n  obs/list-traces {:org-id string} -> Result<any>\n      List traces",
    );
    const json = await capture(() => catalog(["--upstreams-config", file, "--format", "json"]));
    assert.equal(JSON.parse(json.out).servers[0].tools[0].name, "list-traces");
    const old = JSON.parse(json.out);
    old.servers[0].tools[0].description = "older";
    old.servers[0].tools.push({ name: "gone", inputSchema: {} });
    await Deno.writeTextFile(join(dir, "old.json"), JSON.stringify(old));
    const diff = await capture(() => catalog(["--upstreams-config", file, "--diff", join(dir, "old.json")]));
    assert.equal(diff.out, "- obs/gone\n~ obs/list-traces (description)");
    assert.equal(diff.code, 1, "catalogs that differ exit 1, like diff(1)");
    const diffJson = await capture(() =>
      catalog(["--upstreams-config", file, "--diff", join(dir, "old.json"), "--format", "json"])
    );
    assert.deepEqual(JSON.parse(diffJson.out), {
      changes: [
        { kind: "removed", ref: "obs/gone" },
        { kind: "changed", ref: "obs/list-traces", parts: ["description"] },
      ],
    });
    assert.equal(diffJson.code, 1);
    await Deno.writeTextFile(join(dir, "same.json"), json.out);
    const same = await capture(() => catalog(["--upstreams-config", file, "--diff", join(dir, "same.json")]));
    assert.deepEqual([same.code, same.out], [0, "no changes"]);
    const sameJson = await capture(() =>
      catalog(["--upstreams-config", file, "--diff", join(dir, "same.json"), "--format", "json"])
    );
    assert.deepEqual([sameJson.code, JSON.parse(sameJson.out)], [0, { changes: [] }]);
    const none = await capture(() => catalog(["--upstreams-config", file, "--diff", join(dir, "nope.json")]));
    assert.equal(none.code, 2);
    assert.match(none.err, /--diff .*nope\.json: file not found/);
  });
});

Deno.test("ptc catalog: config problems print one line each and exit 2", async () => {
  await withConfig(
    {
      upstreams: { a: { transport: "stdio" }, b: { transport: "fake", base_url: "http://x", tools: [{ name: "t" }] } },
    },
    async (file) => {
      const r = await capture(() => catalog(["--upstreams-config", file]));
      assert.equal(r.code, 2);
      assert.deepEqual(r.err.split("\n"), [
        'ptc catalog: upstreams.a.transport: "stdio" is the old name; write "transport": "mcp_stdio"',
        "ptc catalog: upstreams.b.base_url: uses http:// without allow_insecure_http (set allow_insecure_http: true to allow it)",
      ]);
    },
  );
  await withConfig(
    { upstreams: { b: { transport: "fake", base_url: "https://x", tools: [{ name: "t" }], fail_start: "no route" } } },
    async (file) => {
      const r = await capture(() => catalog(["--upstreams-config", file]));
      assert.equal(r.code, 2, "a partial catalog exits 2");
      assert.equal(r.err, "ptc catalog: upstream b: no route {} (check it) [connect_failed]");
      assert.match(
        r.out,
        /^b \(tools not known yet: .*\) \[unavailable: no route \{\} \(check it\) \[connect_failed\]; ptc tries again later\] \[fake\]$/m,
      );
      const diff = await capture(() => catalog(["--upstreams-config", file, "--diff", file]));
      assert.equal(diff.code, 2);
      assert.match(diff.err, /--diff: upstream b is unavailable: .*; cannot compare its tools/);
    },
  );
  const usage = await capture(() => catalog(["--format", "yaml"]));
  assert.equal(usage.code, 2);
  assert.match(usage.err, /--format must be text or json/);
});

Deno.test("ptc catalog: an upstream's log line names the upstream once", async () => {
  const fx = { ...stdioFixture(), cwd: ROOT, tools: { echo: { effect: "read" }, nope: { effect: "read" } } };
  await withConfig({ upstreams: { fx } }, async (file) => {
    const r = await capture(() => catalog(["--upstreams-config", file]));
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(r.err.split("\n").filter((l) => l.includes("nope")), [
      'ptc catalog: upstream fx: the config maps tool "nope" but the server does not list it',
    ]);
  });
});

Deno.test("ptc permissions prints the minimal flags", async () => {
  await withConfig(
    { ...GOOD, credentials: { t: { source: "file", path: "secret.txt" }, e: { source: "env", var: "OBS_TOKEN" } } },
    async (file, dir) => {
      const r = await capture(() => permissions(["--upstreams-config", file]));
      assert.equal(r.code, 0, r.err);
      assert.equal(
        r.out,
        `--allow-net=obs.example.com:8443 --allow-read=${
          [file, join(dir, "secret.txt"), ...codeNeeds("source").read].sort().join(",")
        } --allow-env=OBS_TOKEN --allow-run=${Deno.execPath()}`,
        "given --upstreams-config, $PTC_UPSTREAMS is never read",
      );
      const j = await capture(() => permissions(["--upstreams-config", file, "--format", "json"]));
      assert.deepEqual(JSON.parse(j.out).env, ["OBS_TOKEN"]);
      Deno.env.set("PTC_UPSTREAMS", file);
      try {
        const fromEnv = await capture(() => permissions(["--format", "json", "eval", "1"]));
        assert.deepEqual(JSON.parse(fromEnv.out).env, ["OBS_TOKEN", "PTC_UPSTREAMS"]);
      } finally {
        Deno.env.delete("PTC_UPSTREAMS");
      }
    },
  );
});

Deno.test("ptc catalog: every problem of an upstream's start is its own line with the prefix, the upstream and the code", async () => {
  // Two unknown include ids gave one message of two lines: the second lacked "ptc catalog: upstream NAME:" and only
  // it carried the [code].
  await withConfig({}, async (_f, dir) => {
    const doc = join(dir, "doc.json");
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "t", version: "1" },
        paths: { "/x": { get: { operationId: "list_x", responses: { "204": { description: "none" } } } } },
      }),
    );
    const file = join(dir, "two.jsonc");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        upstreams: {
          svc: {
            transport: "openapi",
            base_url: "https://svc.example.com",
            schema_file: doc,
            include_operations: ["list_y", "list_z"],
          },
        },
      }),
    );
    const calls: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => calls.push(a.join(" "));
    let code;
    try {
      code = await catalog(["--upstreams-config", file]);
    } finally {
      console.error = error;
    }
    assert.equal(code, 2);
    const lines = calls.flatMap((c) => c.split("\n"));
    assert.equal(lines.length, 2, lines.join("\n"));
    for (const [i, id] of ["list_y", "list_z"].entries()) {
      assert.match(
        lines[i],
        new RegExp(
          `^ptc catalog: upstream svc: upstreams\\.svc\\.include_operations\\[${i}\\]: operation "${id}" .*\\[openapi_compile_failed\\]$`,
        ),
      );
    }
  });
});
