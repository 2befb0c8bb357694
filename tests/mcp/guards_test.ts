import assert from "node:assert/strict";
import {
  buildGuard,
  GuardConfigError,
  guardResponse,
  normalizeAllowedHost,
  normalizeAllowedOrigin,
} from "../../src/mcp/guards.ts";

const req = (headers: Record<string, string>) => new Request("http://127.0.0.1/mcp", { method: "POST", headers });

Deno.test("loopback bind: loopback Host names and loopback origins on any port pass", () => {
  const g = buildGuard("127.0.0.1", [], []);
  assert.equal(guardResponse(req({ host: "127.0.0.1:7332" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost:1" }), g), undefined);
  assert.equal(guardResponse(req({ host: "[::1]:7332" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost", origin: "http://localhost:5173" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost", origin: "https://127.0.0.1" }), g), undefined);
  assert.equal(guardResponse(req({ host: "evil.example" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "localhost", origin: "http://evil.example" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "localhost", origin: "null" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "localhost", origin: "chrome-extension://localhost" }), g)?.status, 403);
});

Deno.test("configured origins match scheme, host and port exactly", () => {
  const g = buildGuard("127.0.0.1", [], ["https://app.example.com", "http://tool.test:8080/"]);
  assert.equal(guardResponse(req({ host: "localhost", origin: "https://app.example.com" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost", origin: "http://tool.test:8080" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost", origin: "http://app.example.com" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "localhost", origin: "https://app.example.com:444" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "localhost", origin: "http://tool.test" }), g)?.status, 403);
});

Deno.test("non-loopback binds: the bind name and --allowed-hosts (port ignored); wildcards need allowed hosts", () => {
  const g = buildGuard("10.0.0.5", ["ptc.internal:7332"], []);
  assert.equal(guardResponse(req({ host: "10.0.0.5:7332" }), g), undefined);
  assert.equal(guardResponse(req({ host: "PTC.internal" }), g), undefined);
  assert.equal(guardResponse(req({ host: "localhost" }), g)?.status, 403);
  assert.equal(guardResponse(req({ host: "10.0.0.5", origin: "http://localhost:3000" }), g)?.status, 403);
  assert.throws(() => buildGuard("0.0.0.0", [], []), GuardConfigError);
  const w = buildGuard("::", ["ptc.internal"], []);
  assert.equal(guardResponse(req({ host: "ptc.internal" }), w), undefined);
  assert.equal(guardResponse(req({ host: "[::]" }), w)?.status, 403);
  const v6 = buildGuard("fd00::5", [], []);
  assert.equal(guardResponse(req({ host: "[fd00::5]:7332" }), v6), undefined);
});

Deno.test("bad --allowed-hosts / --allowed-origins entries are refused with the flag named", () => {
  assert.equal(normalizeAllowedHost("ptc.internal:99"), "ptc.internal");
  assert.equal(normalizeAllowedHost("fd00::1"), "[fd00::1]");
  assert.throws(() => normalizeAllowedHost("a/b"), /--allowed-hosts: 'a\/b' is not a host name/);
  assert.equal(normalizeAllowedOrigin("https://app.example.com/"), "https://app.example.com");
  assert.throws(
    () => normalizeAllowedOrigin("app.example.com"),
    /--allowed-origins: 'app\.example\.com' is not an origin/,
  );
  assert.throws(() => normalizeAllowedOrigin("https://app.example.com/path"), /not an origin/);
  assert.throws(() => normalizeAllowedOrigin("ftp://x.test"), /not an origin/);
});

Deno.test("a request without a Host header is refused", () => {
  const g = buildGuard("127.0.0.1", [], []);
  const r = new Request("http://127.0.0.1/mcp");
  r.headers.delete("host");
  assert.equal(guardResponse(r, g)?.status, 403);
});
