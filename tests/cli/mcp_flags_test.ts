import assert from "node:assert/strict";
import { FlagError, parseMcpFlags } from "../../src/cli/mcp_flags.ts";

const noEnv = () => undefined;

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

Deno.test("flags: --audit-log FILE, its PTC_AUDIT_LOG fallback, and an empty value refused", () => {
  assert.equal(parseMcpFlags([], noEnv).auditLog, undefined);
  assert.equal(parseMcpFlags(["--audit-log", "logs/a.jsonl"], noEnv).auditLog, "logs/a.jsonl");
  const env = (n: string) => (n === "PTC_AUDIT_LOG" ? "/var/log/ptc.jsonl" : undefined);
  assert.equal(parseMcpFlags([], env).auditLog, "/var/log/ptc.jsonl");
  assert.equal(parseMcpFlags(["--audit-log", "/x"], env).auditLog, "/x", "the flag wins");
  assert.throws(() => parseMcpFlags(["--audit-log", " "], noEnv), /--audit-log: must not be empty/);
});
