/** An upstream named like a built-in namespace is a config error, and the reserved list follows the language. */
import assert from "node:assert/strict";
import { parseConfigText } from "../../src/upstream/config.ts";
import { RESERVED_UPSTREAM_NAMES } from "../../src/upstream/reserved_names.ts";
import { UPSTREAM_NAME_PATTERN } from "../../src/upstream/config_schema.ts";
import type { ConfigError } from "../../src/upstream/types.ts";
import { knownNamespaces } from "../../src/lisp/builtins/registry.ts";
import { fakeRegistry } from "./fake_transport.ts";

Deno.test("config: an upstream named str, set, json, tool … is refused naming the key and a rename", () => {
  for (const name of ["str", "set", "json", "walk", "Math", "tool", "data"]) {
    const doc = { upstreams: { [name]: { transport: "fake", base_url: "https://x.example.com", tools: [] } } };
    const r = parseConfigText(JSON.stringify(doc), "/cfg", { registry: fakeRegistry() });
    assert.ok(Array.isArray(r), `${name} should be refused`);
    const e = (r as ConfigError[]).find((x) => x.path === `upstreams.${name}`);
    assert.ok(e, JSON.stringify(r));
    assert.match(e.message, new RegExp(`built-in namespace .*rename the upstream \\(for example "${name}-api"\\)`));
  }
  const ok = parseConfigText(
    JSON.stringify({
      upstreams: { strava: { transport: "fake", base_url: "https://x.example.com", tools: [{ name: "t" }] } },
    }),
    "/cfg",
    { registry: fakeRegistry() },
  );
  assert.ok(!Array.isArray(ok), JSON.stringify(ok));
});

Deno.test("config: every language namespace an upstream name could spell is reserved", () => {
  const pattern = new RegExp(UPSTREAM_NAME_PATTERN);
  const spellable = knownNamespaces().filter((n) => pattern.test(n));
  assert.deepEqual(spellable.filter((n) => !RESERVED_UPSTREAM_NAMES.has(n)), []);
});
