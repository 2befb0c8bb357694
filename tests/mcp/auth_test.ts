import assert from "node:assert/strict";
import { checkBearer, constantTimeEqual, FailedAuthLimiter, readTokenFile } from "../../src/mcp/auth.ts";

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
