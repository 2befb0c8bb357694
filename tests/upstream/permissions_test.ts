import assert from "node:assert/strict";
import { checkPermissions, computePermissions, permissionFlags } from "../../src/upstream/permissions.ts";
import { config, registry } from "./helpers.ts";

Deno.test("permissions: flags merge credentials, transports and the config; checkPermissions names what is missing", () => {
  const c = config({
    credentials: { t: { source: "env", var: "OBS_TOKEN" }, f: { source: "file", path: "/run/secrets/obs" } },
    upstreams: {
      b: {
        transport: "fake",
        base_url: "https://b.example.com",
        tools: [{ name: "t" }],
        auth: [{ scheme: "bearer", binding: "t" }],
      },
      a: {
        transport: "fake",
        base_url: "http://a.example.com:8080",
        allow_insecure_http: true,
        tools: [{ name: "t" }],
      },
    },
  });
  const needs = computePermissions(c, registry);
  assert.deepEqual(needs.net, ["a.example.com:8080", "b.example.com:443"]);
  assert.deepEqual(needs.env, ["OBS_TOKEN", "PTC_UPSTREAMS"]);
  assert.deepEqual(needs.read, ["/run/secrets/obs"]);
  assert.deepEqual(permissionFlags({ net: ["a:1"], read: [], env: ["X"], run: ["node"], anyEnv: true }), [
    "--allow-net=a:1",
    "--allow-env",
    "--allow-run=node",
  ]);
  // this test runs with -A: nothing is missing
  assert.deepEqual(
    checkPermissions({ net: ["a.example.com:8080"], read: ["/run/secrets/obs"], env: ["OBS_TOKEN"], run: [] }),
    [],
  );
});

Deno.test({
  name: "checkPermissions: missing grants come back as flags (never a prompt)",
  permissions: { net: ["b.example.com:443"], read: false, env: ["OBS_TOKEN"], run: false },
  fn() {
    const missing = checkPermissions({
      net: ["a.example.com:8080", "b.example.com:443"],
      read: ["/run/secrets/obs"],
      env: ["OBS_TOKEN", "PTC_UPSTREAMS"],
      run: ["node"],
    });
    assert.deepEqual(missing, [
      "--allow-net=a.example.com:8080",
      "--allow-read=/run/secrets/obs",
      "--allow-env=PTC_UPSTREAMS",
      "--allow-run=node",
    ]);
  },
});
