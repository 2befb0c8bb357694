/**
 * The client configurations documented in docs/mcp-server.md, exactly as written there (paths, port and token
 * substituted): each is handed to the MCP Inspector CLI (`--config FILE --server ptc`, installed under tests/peers)
 * running in a directory outside the checkout, which starts `bin/ptc` (or connects over HTTP with the bearer token),
 * lists the tools and calls `lisp_eval` against the Observatory fixture. VS Code's `servers` and the `claude mcp add`
 * command lines are turned into the same entry the Inspector reads.
 */
import assert from "node:assert/strict";
import { applyEdits, modify } from "jsonc-parser";
import { hasInspector, runInspector } from "./inspector_cli.ts";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { cleanEnv, elsewhere, freePort, LAUNCHER, ROOT } from "./launcher_helpers.ts";

const DOC = join(ROOT, "docs/mcp-server.md");

/** The fenced block after each `<!-- client-config: NAME -->` marker of the doc. */
export function documentedConfigs(markdown: string): Map<string, { lang: string; body: string }> {
  const out = new Map<string, { lang: string; body: string }>();
  const re = /<!-- client-config: ([\w-]+) -->\s*```(\w+)\n([\s\S]*?)```/g;
  for (const m of markdown.matchAll(re)) out.set(m[1], { lang: m[2], body: m[3] });
  return out;
}

/** Split a one-line shell command into words (double quotes group; no other shell syntax is used in the doc). */
function shellWords(line: string): string[] {
  return [...line.trim().matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

type Entry = Record<string, unknown>;

/** The server entry a `claude mcp add …` command line registers. */
function claudeMcpAdd(line: string): Entry {
  const words = shellWords(line);
  assert.deepEqual(words.slice(0, 3), ["claude", "mcp", "add"]);
  const dashes = words.indexOf("--");
  if (dashes !== -1) {
    const env: Record<string, string> = {};
    for (let i = 3; i < dashes; i++) {
      if (words[i] === "-e") {
        const [k, ...v] = words[++i].split("=");
        env[k] = v.join("=");
      }
    }
    return { command: words[dashes + 1], args: words.slice(dashes + 2), env };
  }
  const headers: Record<string, string> = {};
  const positional: string[] = [];
  let transport = "stdio";
  for (let i = 3; i < words.length; i++) {
    if (words[i] === "--transport") transport = words[++i];
    else if (words[i] === "--header") {
      const [k, ...v] = words[++i].split(":");
      headers[k.trim()] = v.join(":").trim();
    } else positional.push(words[i]);
  }
  assert.equal(transport, "http");
  assert.equal(positional[0], "ptc");
  return { type: "http", url: positional[1], headers };
}

/** The Inspector's `mcpServers` document for one documented block. */
function inspectorConfig(name: string, block: { lang: string; body: string }): { mcpServers: Record<string, Entry> } {
  if (block.lang === "sh") return { mcpServers: { ptc: claudeMcpAdd(block.body) } };
  const doc = JSON.parse(block.body);
  if (name === "vscode") {
    assert.ok(doc.servers && !doc.mcpServers, "VS Code's key is servers");
    return { mcpServers: doc.servers };
  }
  assert.ok(doc.mcpServers, `${name}: mcpServers`);
  return doc;
}

function inspector(config: string, cwd: string, method: string[]): Promise<Record<string, unknown>> {
  return runInspector(["--config", config, "--server", "ptc", ...method], { cwd, env: cleanEnv({ NO_COLOR: "1" }) });
}

const LIST = ["--method", "tools/list"];
const PROGRAM = `(count (:traces (:value (tool/call 'observatory/list-traces {:org_id "acme" :limit 7}))))`;
const CALL = ["--method", "tools/call", "--tool-name", "lisp_eval", "--tool-arg", `program=${PROGRAM}`];

Deno.test("docs/mcp-server.md documents every client configuration this test checks", async () => {
  const configs = documentedConfigs(await Deno.readTextFile(DOC));
  assert.deepEqual([...configs.keys()].sort(), [
    "claude-code",
    "claude-code-http",
    "claude-desktop",
    "cursor",
    "http-bearer",
    "vscode",
  ]);
  for (const [name, block] of configs) {
    const entry = inspectorConfig(name, block).mcpServers.ptc;
    if (entry.type === "http") assert.match(String(entry.url), /^http:\/\/127\.0\.0\.1:7332\/mcp$/);
    else assert.equal(entry.command, "/path/to/ptc/bin/ptc", name);
  }
});

Deno.test({
  name: "documented client configs: the Inspector starts bin/ptc from elsewhere (stdio) or connects with the token",
  ignore: !hasInspector(),
  fn: async (t) => {
    const cwd = await elsewhere();
    await Deno.mkdir(join(cwd, ".observatory"));
    const tokens = await createTokenDir(join(cwd, ".observatory"));
    const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 400 });
    const configs = documentedConfigs(await Deno.readTextFile(DOC));
    const port = freePort();
    const token = crypto.randomUUID() + crypto.randomUUID();
    const tokenFile = join(cwd, "http.token");
    await Deno.writeTextFile(tokenFile, token);
    let http: Deno.ChildProcess | undefined;
    try {
      // The documented entries pass the Observatory token in their env, as a config from `ptc init` reads it.
      const upstreams = await writeConcreteConfig(cwd, server.url);
      const configText = await Deno.readTextFile(upstreams);
      const credential = { source: "env", var: "OBSERVATORY_TOKEN", scheme_hint: "bearer" };
      await Deno.writeTextFile(
        upstreams,
        applyEdits(configText, modify(configText, ["credentials", "observatory"], credential, {})),
      );
      const substitute = (text: string) =>
        text.replaceAll("/path/to/ptc/bin/ptc", LAUNCHER).replaceAll("/path/to/upstreams.jsonc", upstreams)
          .replaceAll("127.0.0.1:7332", `127.0.0.1:${port}`).replaceAll("<token>", token)
          .replaceAll("<observatory token>", tokens.token);
      const check = async (name: string) => {
        const block = configs.get(name)!;
        const file = join(cwd, `${name}.json`);
        await Deno.writeTextFile(
          file,
          JSON.stringify(inspectorConfig(name, { ...block, body: substitute(block.body) })),
        );
        const list = await inspector(file, cwd, LIST) as { result: { tools: { name: string }[] } };
        assert.deepEqual(list.result.tools.map((x) => x.name), ["lisp_eval"]);
        const call = await inspector(file, cwd, CALL) as { result: { content: { text: string }[] } };
        assert.equal(call.result.content[0].text, "7");
      };
      for (const name of ["claude-desktop", "claude-code", "vscode", "cursor"]) {
        await t.step(`${name} (stdio through bin/ptc)`, () => check(name));
      }

      http = new Deno.Command(LAUNCHER, {
        args: [
          "mcp",
          "--http",
          `127.0.0.1:${port}`,
          "--http-auth-token-file",
          tokenFile,
          "--upstreams-config",
          upstreams,
        ],
        cwd,
        clearEnv: true,
        env: cleanEnv({ NO_COLOR: "1", OBSERVATORY_TOKEN: tokens.token }),
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const reader = http.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("listening on")) {
        const { value, done } = await reader.read();
        assert.ok(!done, `ptc mcp --http did not start: ${text}`);
        text += value;
      }
      (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      for (const name of ["http-bearer", "claude-code-http"]) {
        await t.step(`${name} (Streamable HTTP, Authorization: Bearer)`, () => check(name));
      }
      await t.step("without the header: refused", async () => {
        const r = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" });
        await r.body?.cancel();
        assert.equal(r.status, 401);
      });
    } finally {
      if (http) {
        http.kill("SIGTERM");
        await http.status;
      }
      await server.stop();
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
