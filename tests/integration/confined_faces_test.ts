/**
 * The confinement matrix: every face runs through `bin/ptc` from a working directory outside the checkout, under
 * exactly the flags `ptc permissions` prints for it (never `--allow-all`), with a config holding an OpenAPI upstream
 * (the Observatory fixture) and a stdio MCP upstream (the runbooks server, started with node): eval, repl (batch and
 * interactive through tmux) against the fixture, `ptc mcp` over stdio and over HTTP with a bearer token through the
 * official SDK client, `doctor --connect` (no false negatives), `catalog`, `demo` and `fixture`. A permission the
 * sandbox or an upstream needs but the computation forgets makes one of these fail.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import {
  assertConfined,
  cleanEnv,
  elsewhere,
  freePort,
  launchConfined,
  launchedFlags,
  LAUNCHER,
  printedFlags,
  spawnLaunched,
  waitForListening,
} from "./launcher_helpers.ts";
import { tmuxAvailable, TmuxRepl } from "./repl_tmux.ts";

/** Uses both upstreams: the Observatory's most frequent acme error class, and whether its runbook exists. */
const PROGRAM = `(let [top (->> (tool/call 'observatory/list-traces {:org_id "acme" :status "error" :limit 100})
                       :value :traces (map :error_class) frequencies (sort-by val >) first key)
      page (tool/call 'runbooks/read-text-file {:path (str top ".md")})]
  {:top top :runbook (:ok page)})`;

function newClient(): Client {
  return new Client({ name: "ptc-confined-test", version: "0.0.1" }, {
    versionNegotiation: { mode: "auto", probe: { timeoutMs: 10_000 } },
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

Deno.test("confined matrix: every face through bin/ptc under its printed flags, from another directory", async (t) => {
  const cwd = await elsewhere();
  await Deno.mkdir(join(cwd, ".observatory"));
  const tokens = await createTokenDir(join(cwd, ".observatory"));
  const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 400 });
  try {
    await writeConcreteConfig(cwd, server.url, { upstreams: "all" });
    // relative to the working directory, as a user would type it
    const config = ["--upstreams-config", "upstreams.jsonc"];

    /** Run a face through the launcher; check it ran under exactly `ptc permissions` of the same arguments. */
    const face = (args: string[], stdin?: string) => launchConfined(args, { cwd, stdin });

    await t.step("eval", async () => {
      const r = await face(["eval", ...config, "--format", "json", PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      const value = JSON.parse(r.stdout).value;
      assert.equal(typeof value.top, "string");
      assert.equal(value.runbook, true, r.stdout);
    });

    await t.step("repl (batch)", async () => {
      const r = await face([
        "repl",
        ...config,
        "-e",
        "(def x 20)",
        "-e",
        `(+ x (count (:value (tool/call 'runbooks/list-directory {:path "."}))))`,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^#'x\n\d+\n$/);
    });

    await t.step("repl (reading the program from stdin)", async () => {
      const r = await face(["repl", ...config], `(:ok (tool/call 'observatory/get-trace {:trace-id "nope"}))\n`);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "false");
    });

    await t.step({
      name: "repl (interactive, through tmux): history written where the flags allow",
      ignore: !(await tmuxAvailable()),
      fn: async () => {
        const history = join(cwd, "state", "history");
        const args = ["repl", ...config];
        const flags = await printedFlags(args, cwd, { PTC_HISTORY_FILE: history });
        assert.ok(flags.includes(`--allow-write=${join(cwd, "state")}`), `${flags}`);
        const repl = await TmuxRepl.start({
          launcher: LAUNCHER,
          args: config,
          cwd,
          env: { PTC_HISTORY_FILE: history },
        });
        try {
          await repl.waitFor(/Ctrl-D to exit\.\n.*ptc>$/s);
          await repl.line(`(:ok (tool/call 'runbooks/read-text-file {:path "timeout.md"}))`);
          await repl.waitFor(/\ntrue\nptc>$/);
          await repl.send("C-d");
          await repl.waitFor(/\[exit 0\]/);
        } finally {
          await repl.close();
        }
        assert.match(await Deno.readTextFile(history), /runbooks\/read-text-file/);
      },
    });

    await t.step("catalog", async () => {
      const r = await face(["catalog", ...config]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /observatory\/list-traces /);
      assert.match(r.stdout, /runbooks\/read-text-file /);
    });

    await t.step("doctor --connect: every check passes (no false negative)", async () => {
      const r = await face(["doctor", ...config, "--connect"]);
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /observatory \(openapi\): ready, 8 tool\(s\)/);
      assert.match(r.stdout, /runbooks \(mcp_stdio\): ready/);
      assert.match(r.stdout, /✓ command: \//);
      assert.match(r.stdout, /all checks passed/);
    });

    await t.step("mcp over stdio through the official client", async () => {
      const args = ["mcp", ...config];
      assert.deepEqual((await printedFlags(args, cwd)).filter((f) => f.startsWith("--allow-net")).length, 1);
      const transport = new StdioClientTransport({
        command: LAUNCHER,
        args,
        cwd,
        env: cleanEnv({ NO_COLOR: "1" }),
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
      const client = newClient();
      try {
        await client.connect(transport);
        const tools = await client.listTools();
        assert.deepEqual(tools.tools.map((x) => x.name), ["lisp_eval"]);
        const result = await client.callTool({ name: "lisp_eval", arguments: { program: PROGRAM } });
        assert.ok(!result.isError, textOf(result) + stderr);
        assert.match(textOf(result), /:runbook true/);
      } finally {
        await client.close();
      }
    });

    await t.step("mcp over HTTP with a bearer token through the official client", async () => {
      const tokenFile = join(cwd, "ptc-http.token");
      const token = crypto.randomUUID() + crypto.randomUUID();
      await Deno.writeTextFile(tokenFile, token);
      const port = freePort();
      const args = ["mcp", "--http", `127.0.0.1:${port}`, "--http-auth-token-file", "ptc-http.token", ...config];
      const printed = await printedFlags(args, cwd);
      assert.ok(printed.some((f) => f.startsWith("--allow-net=") && f.includes(`127.0.0.1:${port}`)), `${printed}`);
      assert.ok(printed.some((f) => f.startsWith("--allow-read=") && f.includes(tokenFile)), `${printed}`);
      const child = spawnLaunched(args, cwd);
      try {
        const { url, stderr } = await waitForListening(child);
        assert.deepEqual(launchedFlags(stderr()), printed);
        const unauthorized = await fetch(url, { method: "POST", body: "{}" });
        await unauthorized.body?.cancel();
        assert.equal(unauthorized.status, 401);
        const client = newClient();
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
          }),
        );
        try {
          const tools = await client.listTools();
          assert.deepEqual(tools.tools.map((x) => x.name), ["lisp_eval"]);
          const result = await client.callTool({ name: "lisp_eval", arguments: { program: PROGRAM } });
          assert.ok(!result.isError, textOf(result) + stderr());
          assert.match(textOf(result), /:runbook true/);
        } finally {
          await client.close();
        }
        // the server log holds ptc's lines only: no Deno.serve notice about request.signal's legacy abort (deno.json
        // opts into the new behaviour the face relies on, for every launch, not only the tests' children)
        assert.doesNotMatch(stderr(), /Deno\.serve|legacy behavior/, stderr());
      } finally {
        child.kill("SIGTERM");
        assert.equal((await child.status).code, 0);
      }
    });

    await t.step("demo: every question answered", async () => {
      const r = await face(["demo", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.ok(report.questions.every((q: { ok: boolean }) => q.ok), r.stdout);
      assert.ok(report.questions.some((q: { upstreams: string[] }) => q.upstreams.includes("runbooks")));
      // The write question, with writes enabled for it alone, under the same computed flags.
      assert.equal(report.write.ok, true, r.stdout);
      assert.equal(report.write.writes[0].mutation_state, "applied", r.stdout);
    });

    await t.step("fixture observatory (what getting-started runs first)", async () => {
      const port = freePort();
      const args = ["fixture", "observatory", "--port", String(port), "--token-dir", "fixture-tokens"];
      const printed = await printedFlags(args, cwd);
      assertConfined(printed);
      const child = spawnLaunched(args, cwd, "piped");
      try {
        const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        while (!text.includes("Press Ctrl-C")) {
          const { value, done } = await reader.read();
          assert.ok(!done, `the fixture did not start: ${text}`);
          text += value;
        }
        reader.releaseLock();
        const doc = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
        assert.equal(doc.status, 200);
        await doc.body?.cancel();
        assert.ok((await Deno.stat(join(cwd, "fixture-tokens", "observatory.token"))).isFile);
      } finally {
        child.kill("SIGTERM");
        const [status] = await Promise.all([child.status, child.stdout.cancel().catch(() => {})]);
        const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
        assert.deepEqual(launchedFlags(stderr), printed);
        assert.equal(status.code, 0, stderr);
      }
    });

    await t.step("a face given less than it printed names the missing flag in one line", async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "--no-prompt", "--allow-read", join(LAUNCHER, "../../main.ts"), "mcp", ...config],
        cwd,
        clearEnv: true,
        env: cleanEnv(),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 2, stderr);
      assert.match(stderr, /^ptc mcp: missing Deno permissions: --allow-net=127\.0\.0\.1:\d+ --allow-env=PATH,PTC_/);
      assert.equal(stderr.trim().split("\n").length, 1, stderr);
    });
  } finally {
    await server.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});
