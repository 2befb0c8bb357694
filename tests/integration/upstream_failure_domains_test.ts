/**
 * Every upstream is its own failure domain (the evidence of lazy, supervised upstreams): a config with a healthy
 * OpenAPI upstream (the Observatory), an MCP HTTP upstream on a closed port and a stdio upstream whose command exits
 * 3. Run the way users run ptc — `bin/ptc` from another directory, under the flags `ptc permissions` prints, and real
 * MCP clients (the official SDK) over `ptc mcp --http` and stdio:
 * - `ptc eval '(+ 1 2)'` prints 3, a program calling the healthy upstream answers, a call to a dead one is
 *   `:upstream_unavailable` naming the cause;
 * - `ptc mcp` starts and serves, its description shows each upstream's state;
 * - when the dead MCP HTTP server comes up later (a real fixture server on that port), its tools work without a
 *   restart of ptc.
 * @module
 */
import assert from "node:assert/strict";
import { applyEdits, modify } from "jsonc-parser";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectHttp, evalLisp, startWorld, textOf, type World } from "./mcp_server_helpers.ts";
import { elsewhere, freePort, launchConfined, LAUNCHER, spawnLaunched, waitForListening } from "./launcher_helpers.ts";
import { startMcpHttpFixture } from "../../fixtures/mcp/http.ts";

/** The world plus the two dead upstreams; `port` is where the MCP HTTP upstream will (later) listen. */
async function deadWorld(): Promise<World & { port: number; cwd: string }> {
  const world = await startWorld({ mcp: false, traces: 50 });
  const port = freePort();
  let text = await Deno.readTextFile(world.configPath);
  const add = (name: string, entry: Record<string, unknown>) => {
    text = applyEdits(
      text,
      modify(text, ["upstreams", name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
    );
  };
  add("wiki", {
    transport: "mcp_http",
    description: "An MCP server that is not running yet.",
    url: `http://127.0.0.1:${port}/mcp`,
    allow_insecure_loopback: true,
    reconnect_backoff_ms: 100,
    reconnect_max_backoff_ms: 400,
  });
  add("broken", {
    transport: "mcp_stdio",
    description: "A stdio server whose command exits 3.",
    command: "/bin/sh",
    args: ["-c", "exit 3"],
  });
  await Deno.writeTextFile(world.configPath, text);
  const cwd = await elsewhere();
  return {
    ...world,
    port,
    cwd,
    close: async () => {
      await world.close();
      await Deno.remove(cwd, { recursive: true }).catch(() => {});
    },
  };
}

const LIST = `(:ok (tool/call 'observatory/list-traces {:org-id "acme" :limit 2}))`;

Deno.test("failure domains: ptc eval under bin/ptc — (+ 1 2), a healthy upstream, two dead ones", async () => {
  const w = await deadWorld();
  try {
    const cfg = ["--upstreams-config", w.configPath];
    const plain = await launchConfined(["eval", ...cfg, "(+ 1 2)"], { cwd: w.cwd });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout.trim(), "3");
    assert.ok(!/upstream (wiki|broken)/.test(plain.stderr), "an upstream no program called is never started");

    const healthy = await launchConfined(["eval", ...cfg, LIST], { cwd: w.cwd });
    assert.equal(healthy.code, 0, healthy.stderr);
    assert.equal(healthy.stdout.trim(), "true");

    const program = `[(tool/call 'wiki/search {:q "x"}) (tool/call 'broken/anything {})]`;
    const dead = await launchConfined(["eval", ...cfg, "--format", "json", program], { cwd: w.cwd });
    assert.equal(dead.code, 0, dead.stderr);
    const [wiki, broken] = JSON.parse(dead.stdout).value as { ok: boolean; reason: string; message: string }[];
    assert.equal(wiki.ok, false);
    assert.equal(wiki.reason, "upstream_unavailable");
    assert.match(
      wiki.message,
      /^upstream wiki is unavailable: .*refused.*\[connection_refused\]; ptc tries again in \d+ ms$/,
    );
    assert.equal(broken.reason, "upstream_unavailable");
    assert.match(broken.message, /^upstream broken is unavailable: .*exit status 3.*; ptc tries again in \d+ ms$/);
  } finally {
    await w.close();
  }
});

Deno.test("failure domains: ptc mcp --http under bin/ptc serves; the dead MCP server's tools work once it comes up, and again after it went away", async () => {
  const w = await deadWorld();
  const auditLog = `${w.cwd}/audit.jsonl`;
  const child = spawnLaunched(
    ["mcp", "--http", "127.0.0.1:0", "--upstreams-config", w.configPath, "--audit-log", auditLog],
    w.cwd,
  );
  let fixture: Awaited<ReturnType<typeof startMcpHttpFixture>> | undefined;
  try {
    const { url, stderr } = await waitForListening(child);
    const client = await connectHttp("auto", url);
    try {
      assert.equal(textOf(await evalLisp(client, "(+ 1 2)")), "3");
      assert.equal(textOf(await evalLisp(client, LIST)), "true");
      const servers = textOf(await evalLisp(client, "(mapv (juxt :name :state) (tool/servers))"));
      // a dead upstream is failed, or connecting again (its next attempt running)
      assert.match(servers, /\["broken" "(failed|connecting)"\]/);
      assert.match(servers, /\["observatory" "ready"\]/);
      assert.match(servers, /\["wiki" "(failed|connecting)"\]/);
      const { tools } = await client.listTools();
      const description = tools.find((t) => t.name === "lisp_eval")!.description!;
      assert.match(
        description,
        /^wiki \(tools not known yet: .*\) \[(unavailable: .*connection_refused.*|starting)\]/m,
      );
      // between attempts it is unavailable (why), during one it is starting again
      assert.match(description, /^broken \(tools not known yet: .*\) \[(unavailable: .*exit status 3.*|starting)\]/m);
      assert.match(description, /:upstream_unavailable/);
      const down = textOf(await evalLisp(client, `(:reason (tool/call 'wiki/echo {:message "hi"}))`));
      assert.equal(down, ":upstream_unavailable");

      fixture = await startMcpHttpFixture({ era: "both", port: w.port });
      let answer = "";
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        answer = textOf(
          await evalLisp(client, `(let [r (tool/call 'wiki/echo {:message "hi"})] (if (:ok r) :up (:reason r)))`),
        );
        if (answer === ":up") break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(answer, ":up", `the wiki never came up:\n${stderr()}`);
      assert.match(textOf(await evalLisp(client, "(count (dir 'wiki))")), /^[1-9]\d*$/);
      assert.match(stderr(), /upstream wiki: ready again/);
      // the audit trail names a tool of an upstream that came up after start (its names follow the catalog)
      const calls = (await Deno.readTextFile(auditLog)).trim().split("\n").map((l) => JSON.parse(l))
        .filter((l) => l.kind === "call");
      assert.ok(
        calls.some((l) => l.server === "wiki" && l.tool === "echo" && l.status === "ok"),
        JSON.stringify(calls),
      );

      // it goes away while ready: the next call notices (upstream_unavailable), ptc reconnects once it is back
      await fixture.close();
      fixture = undefined;
      const gone = textOf(await evalLisp(client, `(:reason (tool/call 'wiki/echo {:message "hi"}))`));
      assert.equal(gone, ":upstream_unavailable");
      fixture = await startMcpHttpFixture({ era: "both", port: w.port });
      answer = "";
      const again = Date.now() + 15_000;
      while (Date.now() < again) {
        answer = textOf(await evalLisp(client, `(if (:ok (tool/call 'wiki/echo {:message "hi"})) :up :down)`));
        if (answer === ":up") break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(answer, ":up", `the wiki never came back:\n${stderr()}`);
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await fixture?.close();
    await w.close();
  }
});

Deno.test("failure domains: ptc mcp over stdio under bin/ptc starts and serves with two dead upstreams", async () => {
  const w = await deadWorld();
  const client = new Client({ name: "ptc-test-stdio", version: "0.0.1" });
  const transport = new StdioClientTransport({
    command: LAUNCHER,
    args: ["mcp", "--upstreams-config", w.configPath],
    cwd: w.cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/tmp" },
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => {});
  try {
    await client.connect(transport);
    assert.equal(textOf(await evalLisp(client, "(+ 1 2)")), "3");
    assert.equal(textOf(await evalLisp(client, LIST)), "true");
    const down = textOf(await evalLisp(client, `(:message (tool/call 'broken/x {}))`));
    assert.match(down, /upstream broken is unavailable: .*exit status 3/);
  } finally {
    await client.close();
    await w.close();
  }
});
