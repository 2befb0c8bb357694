/**
 * The `overlays` key: local files relative to the config file, in order; every bad entry names its key path; the
 * published JSON Schema has it; `ptc permissions` reads each file (and, for YAML, the parser's environment reads).
 */
import assert from "node:assert/strict";
import openapi from "../../../transports/openapi/mod.ts";
import { parseOpenApiConfig } from "../../../transports/openapi/config.ts";
import { buildConfigSchema } from "../../../src/upstream/config_schema.ts";
import { listTransports } from "../../../transports/mod.ts";
import { configContext } from "./helpers.ts";

const base = {
  transport: "openapi",
  base_url: "https://api.example.com/v1",
  schema_file: "doc.json",
  include_operations: ["a"],
};

function errors(raw: Record<string, unknown>): string[] {
  const r = parseOpenApiConfig({ ...base, ...raw }, configContext("obs"));
  assert.ok(Array.isArray(r), "expected errors");
  return r.map((e) => `${e.path}: ${e.message}`);
}

Deno.test("overlays config: paths resolve against the config folder, in order; absent means none", () => {
  const r = parseOpenApiConfig({ ...base, overlays: ["b.overlay.yaml", "/abs/a.overlay.json"] }, configContext());
  assert.ok(!Array.isArray(r));
  assert.deepEqual(r.overlays, ["/tmp/b.overlay.yaml", "/abs/a.overlay.json"]);
  const none = parseOpenApiConfig(base, configContext());
  assert.ok(!Array.isArray(none));
  assert.deepEqual(none.overlays, []);
});

Deno.test("overlays config: every bad entry names its key path", () => {
  assert.deepEqual(errors({ overlays: "x.overlay.yaml" }), [
    'upstreams.obs.overlays: must be a list of overlay files, e.g. ["curation.overlay.yaml"]',
  ]);
  assert.deepEqual(errors({ overlays: ["ok.yaml", "", 3, "https://example.com/o.yaml", "./ok.yaml"] }), [
    "upstreams.obs.overlays[1]: must be a non-empty file path",
    "upstreams.obs.overlays[2]: must be a non-empty file path",
    "upstreams.obs.overlays[3]: overlays are local files (relative to the config file); download it and keep it " +
    "with the config",
    'upstreams.obs.overlays[4]: "./ok.yaml" is listed twice',
  ]);
  assert.deepEqual(errors({ overlays: Array.from({ length: 17 }, (_, i) => `o${i}.yaml`) }), [
    "upstreams.obs.overlays: 17 overlays exceed the limit of 16",
  ]);
});

Deno.test("overlays config: the published JSON Schema declares the key", () => {
  const entry = (openapi.configSchema as { properties: Record<string, { type?: string; maxItems?: number }> })
    .properties.overlays;
  assert.equal(entry.type, "array");
  assert.equal(entry.maxItems, 16);
  assert.match(JSON.stringify(buildConfigSchema(listTransports())), /"overlays":\{"type":"array"/);
});

Deno.test("overlays config: permissions read every overlay; YAML files add the YAML parser's env reads", () => {
  const parse = (raw: Record<string, unknown>) => {
    const r = parseOpenApiConfig({ ...base, ...raw }, configContext());
    assert.ok(!Array.isArray(r));
    return openapi.permissions(r);
  };
  const json = parse({ overlays: ["a.overlay.json"] });
  assert.deepEqual(json.read, ["/tmp/a.overlay.json", "/tmp/doc.json"]);
  assert.deepEqual(json.env, []);
  const yaml = parse({ overlays: ["a.overlay.json", "b.overlay.yaml"] });
  assert.deepEqual(yaml.read, ["/tmp/a.overlay.json", "/tmp/b.overlay.yaml", "/tmp/doc.json"]);
  assert.deepEqual(yaml.env, ["LOG_STREAM", "LOG_TOKENS"]);
});
