import assert from "node:assert/strict";
import { clientAddress, parseTrustedProxies } from "../../src/mcp/client_address.ts";
import { parseMcpFlags } from "../../src/cli/mcp_flags.ts";

const h = (o: Record<string, string>) => new Headers(o);

Deno.test("client address: the peer unless it is a trusted proxy", () => {
  const proxies = parseTrustedProxies(["10.0.0.0/8", "fd00::/8", "127.0.0.1"]);
  assert.deepEqual(proxies.text, ["10.0.0.0/8", "fd00::/8", "127.0.0.1/32"]);
  const xff = h({ "x-forwarded-for": "203.0.113.9" });
  assert.equal(clientAddress("192.0.2.1", xff, proxies), "192.0.2.1", "an untrusted peer's header is ignored");
  assert.equal(clientAddress("192.0.2.1", xff, undefined), "192.0.2.1");
  assert.equal(clientAddress("10.1.2.3", xff, proxies), "203.0.113.9");
  assert.equal(clientAddress("::ffff:10.1.2.3", xff, proxies), "203.0.113.9", "IPv4-mapped peers match IPv4 ranges");
  // right-most untrusted entry: what the client put further left is not believed
  assert.equal(
    clientAddress("10.1.2.3", h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.9.9.9" }), proxies),
    "203.0.113.9",
  );
  assert.equal(
    clientAddress("fd00::1", h({ forwarded: 'for="[2001:db8::7]:4711";proto=https' }), proxies),
    "2001:db8::7",
  );
  assert.equal(clientAddress("10.1.2.3", h({ forwarded: "for=192.0.2.60;by=10.0.0.1" }), proxies), "192.0.2.60");
  // no header, or an unreadable entry: the proxy itself is the client (never an invented address)
  assert.equal(clientAddress("10.1.2.3", h({}), proxies), "10.1.2.3");
  assert.equal(clientAddress("10.1.2.3", h({ "x-forwarded-for": "unknown" }), proxies), "10.1.2.3");
  assert.equal(clientAddress("10.1.2.3", h({ "x-forwarded-for": "203.0.113.9:5555" }), proxies), "203.0.113.9");
});

Deno.test("client address: --trusted-proxy is validated, needs --http, and has an env fallback", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  const ok = parseMcpFlags(["--http", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/8, 192.168.1.1"], env({}));
  assert.deepEqual(ok.trustedProxies?.text, ["10.0.0.0/8", "192.168.1.1/32"]);
  assert.equal(parseMcpFlags(["--http", "127.0.0.1:0"], env({})).trustedProxies, undefined);
  const fromEnv = parseMcpFlags(["--http", "127.0.0.1:0"], env({ PTC_TRUSTED_PROXY: "::1" }));
  assert.deepEqual(fromEnv.trustedProxies?.text, ["::1/128"]);
  assert.throws(
    () => parseMcpFlags(["--http", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/33"], env({})),
    /--trusted-proxy: '10\.0\.0\.0\/33' is not an IP address or CIDR range/,
  );
  assert.throws(() => parseMcpFlags(["--trusted-proxy", "10.0.0.0/8"], env({})), /only applies to the HTTP face/);
});
