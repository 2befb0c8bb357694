/**
 * `--record DIR` / `--replay DIR` confined: `ptc eval` and `ptc mcp` run through `bin/ptc` from a working directory
 * outside the checkout, under exactly the flags `ptc permissions` prints (never `--allow-all`). Recording needs the
 * upstream's host and secret plus DIR read and written; the replay, with the Observatory stopped, needs DIR and the
 * config read and nothing of the upstream — no network, no secret file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { codeNeeds } from "../../src/cli/face_needs.ts";
import {
  assertConfined,
  cleanEnv,
  elsewhere,
  launchConfined,
  launchedFlags,
  LAUNCHER,
  printedFlags,
} from "./launcher_helpers.ts";
import { newClient, textOf } from "./mcp_server_helpers.ts";

const PROGRAM = `(->> (tool/call 'observatory/list-traces {:org_id "acme" :status "error" :limit 5}) :value :traces
                     (map :status) distinct)`;

Deno.test("record/replay confined: ptc eval and ptc mcp under exactly their printed flags", async (t) => {
  const cwd = await elsewhere();
  await Deno.mkdir(join(cwd, ".observatory"));
  const tokens = await createTokenDir(join(cwd, ".observatory"));
  const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 100 });
  let stopped = false;
  try {
    await writeConcreteConfig(cwd, server.url);
    const config = ["--upstreams-config", "upstreams.jsonc"];
    const face = (args: string[]) => launchConfined(args, { cwd });

    await t.step("eval --record: the upstream's host and secret, DIR read and written", async () => {
      const r = await face(["eval", ...config, "--record", "rec", PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `["error"]`);
      assert.ok(r.flags.some((f) => f.startsWith("--allow-net=127.0.0.1:")), `${r.flags}`);
      assert.ok(r.flags.includes(`--allow-write=${join(cwd, "rec")}`), `${r.flags}`);
    });

    /** `ptc mcp ARGS` through the launcher and the official client: one lisp_eval; the flags it ran under. */
    const mcpFace = async (args: string[]) => {
      const printed = await printedFlags(args, cwd);
      assertConfined(printed);
      const transport = new StdioClientTransport({
        command: LAUNCHER,
        args,
        cwd,
        env: cleanEnv({ NO_COLOR: "1", PTC_LAUNCHER_DEBUG: "1" }),
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
      const client = newClient("modern");
      try {
        await client.connect(transport);
        const r = await client.callTool({ name: "lisp_eval", arguments: { program: PROGRAM } });
        assert.ok(!r.isError, textOf(r) + stderr);
        assert.match(textOf(r), /\["error"\]/);
      } finally {
        await client.close();
      }
      assert.deepEqual(launchedFlags(stderr), printed);
      return printed;
    };

    await t.step("mcp --record over stdio through the official client", async () => {
      const printed = await mcpFace(["mcp", ...config, "--record", "rec-mcp"]);
      assert.ok(printed.includes(`--allow-write=${join(cwd, "rec-mcp")}`), `${printed}`);
      const names = (await Array.fromAsync(Deno.readDir(join(cwd, "rec-mcp")))).map((e) => e.name);
      assert.equal(names.filter((n) => /^\d{6}-/.test(n)).length, 1, `${names}`);
    });

    await server.stop();
    stopped = true;

    await t.step("eval --replay: DIR and the config read, nothing of the upstream", async () => {
      const r = await face(["eval", ...config, "--replay", "rec", PROGRAM]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `["error"]`);
      assert.ok(!r.flags.some((f) => f.startsWith("--allow-net") || f.startsWith("--allow-write")), `${r.flags}`);
      const read = r.flags.find((f) => f.startsWith("--allow-read="))!;
      const code = codeNeeds("source").read; // ptc's own modules, loaded on first use
      assert.deepEqual(
        read.slice("--allow-read=".length).split(",").filter((p) => !p.includes("/deno") && !code.includes(p)),
        [join(cwd, "rec"), join(cwd, "upstreams.jsonc")],
      );
    });

    await t.step("mcp --replay over stdio through the official client", async () => {
      const printed = await mcpFace(["mcp", ...config, "--replay", "rec-mcp"]);
      assert.ok(!printed.some((f) => f.startsWith("--allow-net")), `${printed}`);
    });
  } finally {
    if (!stopped) await server.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});
