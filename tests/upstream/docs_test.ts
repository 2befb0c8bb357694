/** docs/configuration.md documents every key of the published config schema (drift check). */
import assert from "node:assert/strict";
import { buildConfigSchema } from "../../src/upstream/config_schema.ts";
import { listTransports } from "../../transports/mod.ts";
import type { JsonSchema } from "../../src/upstream/types.ts";

function keys(schema: JsonSchema, out = new Set<string>()): Set<string> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [k, v] of Object.entries(props)) {
    out.add(k);
    keys(v, out);
  }
  for (const sub of [schema.additionalProperties, schema.items]) {
    if (sub && typeof sub === "object") keys(sub as JsonSchema, out);
  }
  for (const d of Object.values((schema.$defs ?? {}) as Record<string, JsonSchema>)) keys(d, out);
  return out;
}

Deno.test("docs/configuration.md mentions every config key", async () => {
  const text = await Deno.readTextFile(new URL("../../docs/configuration.md", import.meta.url));
  const missing = [...keys(buildConfigSchema(listTransports()))].filter((k) => !text.includes(`\`${k}\``));
  assert.deepEqual(missing, []);
});
