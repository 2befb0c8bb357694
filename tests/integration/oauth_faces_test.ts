/**
 * OAuth the way users run it: `bin/ptc` (confined to the flags `ptc permissions` computes) from another working
 * directory, against a real authorization server (oidc-provider) and a protected server that introspects tokens.
 *
 * - `ptc auth login` prints the authorization URL; the test plays the browser; the tokens land in the token file
 *   (0600); `ptc auth status` says logged in; `ptc eval` calls the MCP upstream with them, refreshes after the server
 *   expired the token, and answers auth_failed naming `ptc auth login` once refresh fails; `ptc auth logout`
 *   revokes and removes the file.
 * - The canary: an OpenAPI upstream on client credentials whose API hands the token back. No access token, refresh
 *   token or client secret appears in any output, the recording (--record), the audit log (--audit-log) or an error.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { playBrowser } from "../../fixtures/oauth/authorization_server.ts";
import { type OAuthBench, startBench } from "../transports/http_common/oauth_setup.ts";
import { cleanEnv, elsewhere, launchConfined, launchedFlags, LAUNCHER, printedFlags } from "./launcher_helpers.ts";
import { spawnStdioServer } from "./mcp_server_helpers.ts";

async function writeConfig(bench: OAuthBench, dir: string): Promise<string> {
  await Deno.writeTextFile(join(dir, "api.json"), JSON.stringify(bench.rs.openapi()));
  await Deno.writeTextFile(join(dir, "ci_id"), bench.as.ciClient.client_id);
  await Deno.writeTextFile(join(dir, "ci_secret"), bench.as.ciClient.client_secret, { mode: 0o600 });
  const config = {
    credentials: {
      ci_id: { source: "file", path: "ci_id" },
      ci_secret: { source: "file", path: "ci_secret" },
    },
    upstreams: {
      notes: {
        transport: "mcp_http",
        url: bench.rs.mcpUrl,
        allow_insecure_http: true,
        allow_insecure_auth: true,
        auth: [{ scheme: "oauth2", token_file: "notes-tokens.json", authorization_server: bench.as.issuer }],
        tools: { echo: { effect: "read" } },
      },
      api: {
        transport: "openapi",
        base_url: bench.rs.apiUrl,
        schema_file: "api.json",
        allow_insecure_http: true,
        allow_insecure_auth: true,
        auth: [{
          scheme: "oauth2",
          grant: "client_credentials",
          client_id_binding: "ci_id",
          client_secret_binding: "ci_secret",
          token_url: `${bench.as.issuer}/token`,
          scopes: ["mcp:tools"],
        }],
        include_operations: ["reflect", "whoami"],
      },
    },
  };
  const path = join(dir, "ptc.json");
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
  return path;
}

/** `bin/ptc auth login notes`, the test as the browser; resolves with the exit code and stderr. */
async function loginAsBrowser(config: string, cwd: string): Promise<{ code: number; stderr: string; flags: string[] }> {
  const args = ["auth", "login", "notes", "--upstreams-config", config, "--timeout", "30"];
  const child = new Deno.Command(LAUNCHER, {
    args,
    cwd,
    clearEnv: true,
    env: cleanEnv({ PTC_LAUNCHER_DEBUG: "1", NO_COLOR: "1" }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!/^https?:\/\/\S+$/m.test(out)) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  const url = /^(https?:\/\/\S+)$/m.exec(out)?.[1];
  if (url) {
    const page = await playBrowser(url, (u) => u.pathname === "/callback");
    assert.match(await page.text(), /login is complete/);
  }
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  const status = await child.status;
  const stderr = await stderrText;
  assert.ok(url, `no authorization URL printed; stderr:\n${stderr}`);
  const flags = launchedFlags(stderr);
  assert.deepEqual(flags, await printedFlags(args, cwd));
  return { code: status.code, stderr, flags };
}

Deno.test("ptc auth login/status/logout and every face refreshing, confined, from another directory", async () => {
  const bench = await startBench();
  const cwd = await elsewhere();
  try {
    const config = await writeConfig(bench, bench.dir);
    const tokenFile = join(bench.dir, "notes-tokens.json");

    // before the login: status says so, and a call answers auth_failed with the hint
    const before = await launchConfined(["auth", "status", "--upstreams-config", config], { cwd });
    assert.equal(before.code, 1);
    assert.match(before.stdout, /notes: not logged in — run `ptc auth login notes`/);
    assert.match(before.stdout, /api: client_credentials/);
    const json = await launchConfined(["auth", "status", "--format", "json", "--upstreams-config", config], { cwd });
    assert.deepEqual(
      JSON.parse(json.stdout).upstreams.map((u: { name: string; state: string }) => [u.name, u.state]),
      [["notes", "not_logged_in"], ["api", "no_login_needed"]],
    );
    // the face starts anyway (an upstream is its own failure domain): the call answers auth_failed with the hint
    const denied = await launchConfined(
      [
        "eval",
        "--upstreams-config",
        config,
        '(select-keys (tool/call \'notes/echo {:text "hi"}) [:ok :reason :message])',
      ],
      { cwd },
    );
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stdout, /:ok false/);
    assert.match(denied.stdout, /:reason :auth_failed/);
    assert.match(denied.stdout, /run `ptc auth login notes`/);

    const login = await loginAsBrowser(config, cwd);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, /Logged in to notes at http:\/\/127\.0\.0\.1:\d+ \(client registered\)/);
    // the launcher granted the token file's read and write and the authorization server's host, nothing blanket
    assert.ok(login.flags.some((f) => f.startsWith("--allow-write=") && f.includes(tokenFile)), String(login.flags));
    assert.ok(login.flags.some((f) => f.startsWith("--allow-net=") && f.includes(`127.0.0.1:${bench.as.port}`)));
    assert.equal((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);

    const status = await launchConfined(["auth", "status", "notes", "--upstreams-config", config], { cwd });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /notes: logged in at http:\/\/127\.0\.0\.1:\d+, access token expires in \d+ s/);

    const program = '(:value (tool/call \'notes/echo {:text "hi"}))';
    const first = await launchConfined(["eval", "--upstreams-config", config, program], { cwd });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /hi/);

    const before401 = JSON.parse(await Deno.readTextFile(tokenFile));
    bench.as.expireAccessTokens();
    const refreshed = await launchConfined(["eval", "--upstreams-config", config, program], { cwd });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const after = JSON.parse(await Deno.readTextFile(tokenFile));
    assert.notEqual(after.tokens.access_token, before401.tokens.access_token, "refreshed and written back");

    bench.as.dropRefreshTokens();
    bench.as.expireAccessTokens();
    // the face still runs; the call answers auth_failed saying the refresh failed and to log in again
    const answer = '(let [r (tool/call \'notes/echo {:text "hi"})] [(:reason r) (:message r)])';
    const failed = await launchConfined(["eval", "--upstreams-config", config, answer], { cwd });
    assert.equal(failed.code, 0, failed.stderr);
    assert.match(failed.stdout, /:auth_failed/);
    assert.match(failed.stderr + failed.stdout, /refreshing the token failed.*ptc auth login notes/s);
    for (const t of [before401.tokens.access_token, after.tokens.refresh_token, after.client.client_secret]) {
      assert.ok(!(failed.stderr + failed.stdout).includes(t));
    }

    const again = await loginAsBrowser(config, cwd);
    assert.equal(again.code, 0, again.stderr);
    const logout = await launchConfined(["auth", "logout", "notes", "--upstreams-config", config], { cwd });
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stderr, /the authorization server revoked the grant/);
    await assert.rejects(Deno.stat(tokenFile));
  } finally {
    await bench.close();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("canary: OAuth tokens appear in no output, recording, audit line or error", async () => {
  const bench = await startBench();
  const cwd = await elsewhere();
  try {
    const config = await writeConfig(bench, bench.dir);
    const login = await loginAsBrowser(config, cwd);
    assert.equal(login.code, 0, login.stderr);
    const record = join(bench.dir, "recording");
    // the API hands the client-credentials token back; the program prints it, returns it and fails with it
    const program = `(let [r (:value (tool/call 'api/reflect {}))
      a (:authorization r)]
  (println a)
  (println (tool/call 'notes/echo {:text a}))
  [a (:value (tool/call 'api/whoami {}))])`;
    const evald = await launchConfined(["eval", "--upstreams-config", config, "--record", record, program], { cwd });
    assert.equal(evald.code, 0, evald.stderr);
    // the client id comes from a credential, so it is redacted like one; the scope shows the call answered
    assert.match(evald.stdout, /"scope" "mcp:tools"/, `the whoami call answered: ${evald.stdout}`);
    const failing = `(fail (:authorization (:value (tool/call 'api/reflect {}))))`;
    const failed = await launchConfined(["eval", "--upstreams-config", config, failing], { cwd });
    assert.notEqual(failed.code, 0);

    // the same through ptc mcp with an audit log
    const audit = join(bench.dir, "audit.jsonl");
    const server = spawnStdioServer(["--upstreams-config", config, "--audit-log", audit]);
    let mcpText = "";
    try {
      await server.initialize({ wait: true });
      await server.call(2, program);
      await server.call(3, failing);
      const answers = [await server.answer(2), await server.answer(3)];
      assert.notEqual(answers[0].result?.isError, true, JSON.stringify(answers[0]));
      assert.equal(answers[1].result?.isError, true, JSON.stringify(answers[1]));
      mcpText = JSON.stringify(answers);
      await server.closeInput();
      const { stderr } = await server.finished();
      mcpText += stderr;
    } finally {
      await server.dispose();
    }

    const tokens = JSON.parse(await Deno.readTextFile(join(bench.dir, "notes-tokens.json")));
    const secrets: string[] = [
      ...bench.rs.presented(),
      tokens.tokens.access_token,
      tokens.tokens.refresh_token,
      tokens.client.client_secret,
      bench.as.ciClient.client_secret,
    ].filter((s) => typeof s === "string" && s.length > 8);
    assert.ok(bench.rs.presented().length >= 4, "tokens were presented");
    const recorded: string[] = [];
    for await (const e of Deno.readDir(record)) recorded.push(await Deno.readTextFile(join(record, e.name)));
    assert.ok(recorded.length > 0);
    const places: [string, string][] = [
      ["eval stdout", evald.stdout],
      ["eval stderr", evald.stderr],
      ["error", failed.stdout + failed.stderr],
      ["recording", recorded.join("\n")],
      ["mcp answers and stderr", mcpText],
      ["audit log", await Deno.readTextFile(audit)],
    ];
    assert.match(places[5][1], /"kind":"call"/, "the audit log has the calls");
    for (const [where, text] of places) {
      for (const s of secrets) assert.ok(!text.includes(s), `a token in the ${where}`);
    }
    assert.match(evald.stdout, /^\[REDACTED\]$/m, "the reflected token is printed redacted");
  } finally {
    await bench.close();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("ptc auth login --timeout: no browser, no tokens, exit 1 naming the wait", async () => {
  const bench = await startBench();
  const cwd = await elsewhere();
  try {
    const config = await writeConfig(bench, bench.dir);
    const r = await launchConfined(["auth", "login", "notes", "--upstreams-config", config, "--timeout", "1"], { cwd });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^http:\/\/127\.0\.0\.1:\d+\/auth\?/m, "the authorization URL on stdout");
    assert.match(r.stderr, /ptc auth login: notes: no answer from the browser within 1 s/);
    await assert.rejects(Deno.stat(join(bench.dir, "notes-tokens.json")));
  } finally {
    await bench.close();
    await Deno.remove(cwd, { recursive: true });
  }
});
