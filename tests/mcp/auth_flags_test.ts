import assert from "node:assert/strict";
import { checkBearer, constantTimeEqual, FailedAuthLimiter, readTokenFile } from "../../src/mcp/auth.ts";
import { FlagError, parseMcpFlags } from "../../src/mcp/flags.ts";

const noEnv = () => undefined;

Deno.test("bearer check: missing, wrong and right tokens", () => {
  const token = "t".repeat(40);
  assert.deepEqual(checkBearer(null, token), { ok: false, status: 401, challenge: 'Bearer realm="ptc"' });
  assert.equal(checkBearer(`Bearer ${"x".repeat(40)}`, token).ok, false);
  assert.equal(checkBearer(`Bearer ${token.slice(0, 39)}`, token).ok, false);
  assert.equal(checkBearer(`bearer ${token}`, token).ok, true);
  assert.equal(constantTimeEqual("", "abc"), false);
  assert.equal(constantTimeEqual("abc", "abc"), true);
});

Deno.test("failed-auth limiter blocks after repeated failures, then releases", () => {
  let now = 0;
  const l = new FailedAuthLimiter(3, 1000, 5000, () => now);
  l.fail("a");
  l.fail("a");
  assert.equal(l.retryAfter("a"), 0);
  l.fail("a");
  assert.equal(l.retryAfter("a"), 5);
  assert.equal(l.retryAfter("b"), 0);
  now = 5001;
  assert.equal(l.retryAfter("a"), 0);
});

Deno.test("token files must hold at least 32 characters", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/short`, "abc\n");
    await assert.rejects(() => readTokenFile(`${dir}/short`), /at least 32 characters \(it has 3\)/);
    await assert.rejects(() => readTokenFile(`${dir}/missing`), /file not found/);
    await Deno.writeTextFile(`${dir}/good`, `${"k".repeat(48)}\n`);
    assert.equal(await readTokenFile(`${dir}/good`), "k".repeat(48));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("flags: defaults, env fallbacks and precedence", () => {
  const d = parseMcpFlags([], noEnv);
  assert.equal(d.responseProfile, "slim");
  assert.equal(d.http, undefined);
  const env = (n: string) => ({ PTC_MAX_CONCURRENT_CALLS: "7", PTC_SESSIONS: "yes", PTC_UPSTREAMS: "/x.jsonc" })[n];
  const e = parseMcpFlags([], env);
  assert.equal(e.maxConcurrentCalls, 7);
  assert.equal(e.sessions, true);
  assert.equal(e.upstreamsConfig, "/x.jsonc");
  const f = parseMcpFlags(["--max-concurrent-calls", "3", "--http", "127.0.0.1:0"], env);
  assert.equal(f.maxConcurrentCalls, 3);
  assert.deepEqual(f.http, { hostname: "127.0.0.1", port: 0 });
  assert.deepEqual(parseMcpFlags(["--http", "[::1]:8080"], noEnv).http, { hostname: "::1", port: 8080 });
});

Deno.test("flags: invalid values are clear errors naming the flag or variable", () => {
  assert.throws(
    () => parseMcpFlags(["--max-concurrent-calls", "0"], noEnv),
    /--max-concurrent-calls: must be at least 1/,
  );
  assert.throws(() => parseMcpFlags(["--response-profile", "fat"], noEnv), /expected one of slim, structured, debug/);
  assert.throws(() => parseMcpFlags([], (n) => (n === "PTC_SESSIONS" ? "maybe" : undefined)), /PTC_SESSIONS: expected/);
  assert.throws(() => parseMcpFlags(["--http", "nohost"], noEnv), /expected HOST:PORT/);
  assert.throws(() => parseMcpFlags(["--bogus"], noEnv), FlagError);
});
