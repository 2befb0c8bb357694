/**
 * `ptc mcp` whose config cannot be used still lets its client's user see why: `initialize` succeeds, `lisp_eval`'s
 * description starts with the problems, and every call answers with them and the fix — over stdio (through the
 * launcher, from another directory, as a client starts it) and over HTTP. It used to exit 2, which a client shows as
 * "Connection closed".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cleanEnv, LAUNCHER, spawnLaunched, waitForListening } from "./launcher_helpers.ts";

const BAD = `{
  "upstreams": {
    "observatory": { "transport": "openapi", "base_ur": "https://obs.example.com" }
  }
}`;

function textOf(r: unknown): string {
  return ((r as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? "";
}

Deno.test("ptc mcp with a broken config: the client connects and every call says what is wrong", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-broken-" });
  try {
    const config = join(dir, "broken.jsonc");
    await Deno.writeTextFile(config, BAD);

    await t.step("stdio through bin/ptc", async () => {
      const client = new Client({ name: "broken-config-test", version: "0.0.1" });
      const transport = new StdioClientTransport({
        command: LAUNCHER,
        args: ["mcp", "--upstreams-config", config],
        env: cleanEnv(),
        cwd: dir,
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((x) => x.name), ["lisp_eval"]);
        assert.match(tools[0].description ?? "", /^ptc could not start/);
        assert.match(tools[0].description ?? "", /upstreams\.observatory\.base_ur: unknown key/);
        const r = await client.callTool({ name: "lisp_eval", arguments: { program: "(+ 1 2)" } });
        assert.equal((r as { isError?: boolean }).isError, true);
        assert.match(textOf(r), /upstreams\.observatory\.base_ur: unknown key \(did you mean "base_url"\?\)/);
        assert.match(textOf(r), /ptc doctor/);
      } finally {
        await client.close();
      }
      assert.match(stderr, /ptc mcp: upstreams\.observatory\.base_ur: unknown key/);
    });

    await t.step("HTTP: the same answer, behind the same guards", async () => {
      const child = spawnLaunched(["mcp", "--http", "127.0.0.1:0", "--upstreams-config", config], dir);
      const { url } = await waitForListening(child);
      const client = new Client({ name: "broken-config-test", version: "0.0.1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const r = await client.callTool({ name: "lisp_eval", arguments: { program: "(+ 1 2)" } });
        assert.match(textOf(r), /^ptc could not start/);
        const foreign = await fetch(url, {
          method: "POST",
          headers: { origin: "http://evil.example", "content-type": "application/json" },
          body: "{}",
        });
        await foreign.body?.cancel();
        assert.equal(foreign.status, 403);
      } finally {
        await client.close();
        child.kill("SIGTERM");
        const status = await child.status;
        assert.equal(status.code, 2, "it never ran a program: the exit code stays a start failure");
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc mcp over stdio says on stderr when it is ready, and exits at the end of stdin", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-mcp-ready-" });
  try {
    const child = new Deno.Command(LAUNCHER, {
      args: ["mcp"],
      cwd: dir,
      clearEnv: true,
      env: cleanEnv({ NO_COLOR: "1", XDG_CONFIG_HOME: dir }),
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("ready on stdio")) {
      const { value, done } = await reader.read();
      assert.ok(!done, text);
      text += value;
    }
    assert.match(text, /^ptc mcp: ready on stdio \(0 upstream\(s\), 0 tool\(s\)\)$/m);
    await child.stdin.close();
    assert.equal((await child.status).code, 0);
    await reader.cancel().catch(() => {});
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
