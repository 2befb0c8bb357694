import assert from "node:assert/strict";
import { checkBearer, constantTimeEqual, FailedAuthLimiter, readTokenFile, singleToken } from "../../src/mcp/auth.ts";

Deno.test("bearer check: missing, wrong and right tokens", () => {
  const token = "t".repeat(40);
  assert.deepEqual(checkBearer(null, token), { ok: false, status: 401, challenge: 'Bearer realm="ptc"' });
  assert.equal(checkBearer(`Bearer ${"x".repeat(40)}`, token).ok, false);
  assert.equal(checkBearer(`Bearer ${token.slice(0, 39)}`, token).ok, false);
  assert.equal(checkBearer(`bearer ${token}`, token).ok, true);
  const other = "o".repeat(40);
  assert.deepEqual(checkBearer(`Bearer ${other}`, [token, other]), { ok: true, token: other });
  assert.equal(checkBearer(`Bearer ${"q".repeat(40)}`, [token, other]).ok, false);
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
    assert.deepEqual(await readTokenFile(`${dir}/good`), ["k".repeat(48)]);
    // One token per line, each a client of its own; blank lines and comments are skipped; a bad line is named.
    await Deno.writeTextFile(`${dir}/many`, `# clients\n${"a".repeat(40)}\n\n${"b".repeat(40)}\n`);
    assert.deepEqual(await readTokenFile(`${dir}/many`), ["a".repeat(40), "b".repeat(40)]);
    await Deno.writeTextFile(`${dir}/badline`, `${"a".repeat(40)}\nshort\n`);
    await assert.rejects(() => readTokenFile(`${dir}/badline`), /\(line 2\): the token must be at least 32/);
    await Deno.writeTextFile(`${dir}/empty`, "# nothing\n\n");
    await assert.rejects(() => readTokenFile(`${dir}/empty`), /at least 32 characters \(it has 0\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a face that takes one token refuses a file of several, naming the flag", () => {
  assert.equal(singleToken(["a".repeat(40)], "--auth-token-file", "/t"), "a".repeat(40));
  assert.throws(
    () => singleToken(["a".repeat(40), "b".repeat(40)], "--auth-token-file", "/t"),
    /^Error: --auth-token-file \/t: the viewer takes one bearer token; the file has 2 \(one per client\)$/,
  );
});
