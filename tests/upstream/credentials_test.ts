import assert from "node:assert/strict";
import { createMaterializer, CredentialError, parseCredentials, splitBasic } from "../../src/upstream/credentials.ts";
import { base64Utf8, createRedactor } from "../../src/upstream/redact.ts";

const io = (env: Record<string, string>, files: Record<string, string>) => ({
  getEnv: (n: string) => env[n],
  readFile: (p: string) => p in files ? Promise.resolve(files[p]) : Promise.reject(new Deno.errors.NotFound(p)),
});

Deno.test("parseCredentials: env/file/literal; literal warns; relative file resolved against config dir", () => {
  const r = parseCredentials({
    a: { source: "env", var: "A_TOKEN", scheme_hint: "bearer" },
    b: { source: "file", path: "secrets/b.txt" },
    c: { source: "literal", value: "lit" },
  }, "/etc/ptc");
  assert.deepEqual(r.errors, []);
  assert.equal(r.specs.get("b")?.source === "file" && r.specs.get("b"), r.specs.get("b"));
  assert.deepEqual(r.specs.get("b"), {
    name: "b",
    source: "file",
    path: "/etc/ptc/secrets/b.txt",
    schemeHint: undefined,
  });
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /credentials\.c: literal secret/);
});

Deno.test("parseCredentials: errors name the key path", () => {
  const r = parseCredentials({
    "1bad": { source: "env", var: "X" },
    s: { source: "vault" },
    e: { source: "env", var: "1X" },
    f: { source: "file", path: "" },
    l: { source: "literal", value: 3 },
    u: { source: "env", var: "X", vars: 1 },
    h: { source: "env", var: "X", scheme_hint: "digest" },
  }, "/");
  const paths = r.errors.map((e) => e.path);
  assert.deepEqual(paths, [
    "credentials.1bad",
    "credentials.s.source",
    "credentials.e.var",
    "credentials.f.path",
    "credentials.l.value",
    "credentials.u.vars",
    "credentials.h.scheme_hint",
  ]);
  assert.match(r.errors[5].message, /did you mean "var"/);
});

Deno.test("materializer: env read every call; unset/empty errors name the variable, never a value", async () => {
  const env: Record<string, string> = { T: "one" };
  const red = createRedactor();
  const m = createMaterializer(parseCredentials({ t: { source: "env", var: "T" } }, "/").specs, red, io(env, {}));
  assert.deepEqual(await m.authHeaders([{ scheme: "bearer", binding: "t" }]), { authorization: "Bearer one" });
  env.T = "two";
  assert.equal(await m.resolve("t"), "two");
  env.T = "";
  await assert.rejects(
    () => m.resolve("t"),
    (e: Error) => e instanceof CredentialError && /T is not set/.test(e.message),
  );
  assert.equal(red.redact("one two Bearer one"), "[REDACTED] [REDACTED] [REDACTED]");
});

Deno.test("materializer: file re-read on every call (rotation), trailing whitespace stripped", async () => {
  const files: Record<string, string> = { "/s/tok": "first\n" };
  const m = createMaterializer(
    parseCredentials({ f: { source: "file", path: "/s/tok" } }, "/").specs,
    createRedactor(),
    io({}, files),
  );
  assert.equal(await m.resolve("f"), "first");
  files["/s/tok"] = "second  \n\n";
  assert.equal(await m.resolve("f"), "second");
  delete files["/s/tok"];
  await assert.rejects(() => m.resolve("f"), /\/s\/tok: file not found/);
});

Deno.test("materializer: basic from user:pass and JSON; base64 and password registered", async () => {
  const red = createRedactor();
  const m = createMaterializer(
    parseCredentials({
      p: { source: "literal", value: "alice:pa:ss" },
      j: { source: "literal", value: '{"user":"u","pass":"p"}' },
    }, "/").specs,
    red,
  );
  assert.deepEqual(await m.authHeaders([{ scheme: "basic", binding: "p" }]), {
    authorization: `Basic ${base64Utf8("alice:pa:ss")}`,
  });
  assert.deepEqual(await m.authHeaders([{ scheme: "basic", binding: "j" }]), { authorization: "Basic dTpw" });
  assert.ok(!red.redact(`x ${base64Utf8("alice:pa:ss")} pa:ss`).includes("pa:ss"));
  assert.ok(!red.redact(`${base64Utf8("alice:pa:ss")}`).includes(base64Utf8("alice:pa:ss")));
});

Deno.test("splitBasic: malformed forms are rejected without echoing the secret", () => {
  assert.throws(() => splitBasic("c", "nocolon-secret"), (e: Error) => !e.message.includes("nocolon-secret"));
  assert.throws(() => splitBasic("c", ":pw"), /user:pass/);
  assert.throws(() => splitBasic("c", '{"user":"u"}'), /must contain "user" and "pass"/);
  assert.throws(() => splitBasic("c", "{bad json"), /does not parse/);
});

Deno.test("materializer: custom header emitted as written; reserved header refused at emit", async () => {
  const m = createMaterializer(
    parseCredentials({ k: { source: "literal", value: "kv" } }, "/").specs,
    createRedactor(),
  );
  assert.deepEqual(await m.authHeaders([{ scheme: "custom_header", binding: "k", header: "X-Obs-Key" }]), {
    "X-Obs-Key": "kv",
  });
  await assert.rejects(
    () => m.authHeaders([{ scheme: "custom_header", binding: "k", header: "Cookie" }]),
    /not allowed/,
  );
  await assert.rejects(() => m.resolve("nope"), /unknown credential "nope"/);
});

Deno.test("materializer.check reports every unresolvable credential", async () => {
  const m = createMaterializer(
    parseCredentials({ a: { source: "env", var: "NOPE_A" }, b: { source: "file", path: "/nope" } }, "/").specs,
    createRedactor(),
    io({}, {}),
  );
  const problems = await m.check();
  assert.equal(problems.length, 2);
});

Deno.test("materializer: cookie emitters share one Cookie header; query emitters are pairs, redacted encoded too", async () => {
  const env: Record<string, string> = { A: "s3ss/ion+1", B: "other", Q: "k y&z" };
  const red = createRedactor();
  const specs = parseCredentials({
    a: { source: "env", var: "A" },
    b: { source: "env", var: "B" },
    q: { source: "env", var: "Q" },
  }, "/").specs;
  const m = createMaterializer(specs, red, io(env, {}));
  const auth = [
    { scheme: "cookie" as const, binding: "a", cookie: "sid" },
    { scheme: "query" as const, binding: "q", param: "api_key" },
    { scheme: "cookie" as const, binding: "b", cookie: "pref" },
  ];
  assert.deepEqual(await m.authHeaders(auth), { cookie: "sid=s3ss/ion+1; pref=other" });
  assert.deepEqual(await m.authQuery(auth), [["api_key", "k y&z"]]);
  assert.equal(
    red.redact("?api_key=k%20y%26z and api_key=k+y%26z and k y&z"),
    "?[REDACTED] and [REDACTED] and [REDACTED]",
  );
  env.A = "bad; value";
  await assert.rejects(
    () => m.authHeaders(auth),
    (e: Error) => e instanceof CredentialError && /cookie value must be printable ASCII/.test(e.message),
  );
});
