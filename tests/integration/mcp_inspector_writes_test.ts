/**
 * The write gate as a real third-party client sees it: the MCP Inspector CLI drives `ptc mcp` over the example
 * config with its Observatory write section applied, against the live Observatory fixture, whose write log is the
 * evidence. Without `--allow-writes`, `lisp_eval` is read-only, a write is refused naming the switch, and nothing
 * reaches the fixture; with it, `lisp_eval` is destructive and a write arrives once and is reported `applied` in the
 * text the client shows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { hasInspector, runInspector } from "./inspector_cli.ts";
import { ptcMcpArgs, ROOT, spawnHttpServer } from "./mcp_server_helpers.ts";

type Tool = { name: string; annotations?: Record<string, boolean> };
type ListResult = { result: { tools: Tool[] } };
type CallResult = { result: { content: { text: string }[]; isError?: boolean } };

const LIST = ["--method", "tools/list"];
const CALL = (
  program: string,
) => ["--method", "tools/call", "--tool-name", "lisp_eval", "--tool-arg", `program=${program}`];

/** `lisp_eval`'s annotations as the Inspector lists them. */
async function annotations(target: string[]): Promise<Record<string, boolean> | undefined> {
  const list = await runInspector(["--protocol-era", "modern", ...target, ...LIST], { cwd: ROOT }) as ListResult;
  return list.result.tools.find((t) => t.name === "lisp_eval")?.annotations;
}

async function call(target: string[], program: string, expectCode = 0): Promise<CallResult["result"]> {
  const r = await runInspector(["--protocol-era", "modern", ...target, ...CALL(program)], { cwd: ROOT, expectCode });
  return (r as CallResult).result;
}

Deno.test({
  name: "MCP Inspector CLI: lisp_eval's annotations follow the write gate, and a write's outcome reaches the client",
  ignore: !hasInspector(),
  fn: async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "ptc-inspector-writes-" });
    await Deno.mkdir(join(dir, ".observatory"), { mode: 0o700 });
    const tokens = await createTokenDir(join(dir, ".observatory"));
    const server = await startObservatory({ seed: "inspector-writes", traces: 200, tokensFile: tokens.tokensFile });
    try {
      const config = await writeConcreteConfig(dir, server.url, { upstreams: ["observatory"], writes: true });
      const trace = server.dataset.traces[0].id;
      const program = (label: string) =>
        `(:mutation_state (tool/call 'observatory/create-trace-annotation {:trace_id "${trace}" :label "${label}"}))`;
      const stdio = (flags: string[]) => [Deno.execPath(), ...ptcMcpArgs(["--upstreams-config", config, ...flags])];

      await t.step("stdio, config allows writes but the process switch is off", async () => {
        assert.deepEqual(await annotations(stdio([])), {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
        });
        const refused = await call(stdio([]), program("gated"), 5);
        assert.equal(refused.isError, true);
        assert.match(refused.content[0].text, /--allow-writes/);
        assert.deepEqual(server.writes(), [], "a withheld write never reaches the Observatory");
      });

      await t.step("stdio, --allow-writes: destructive, and one write arrives once, applied", async () => {
        assert.deepEqual(await annotations(stdio(["--allow-writes"])), {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: true,
        });
        const wrote = await call(stdio(["--allow-writes"]), program("needs-review"));
        assert.equal(wrote.content[0].text, ":applied\n\nWrites: observatory/create-trace-annotation applied");
        const received = server.writes();
        assert.equal(received.length, 1, JSON.stringify(received));
        assert.deepEqual([received[0].method, received[0].path, received[0].applied], [
          "POST",
          `/api/traces/${trace}/annotations`,
          true,
        ]);
      });

      await t.step("HTTP, --allow-writes --read-only: read-only wins and the start does not fail", async () => {
        const http = await spawnHttpServer(["--upstreams-config", config, "--allow-writes", "--read-only"]);
        try {
          assert.equal((await annotations([http.url]))?.destructiveHint, false);
          const refused = await call([http.url], program("read-only"), 5);
          assert.match(refused.content[0].text, /read-only/);
        } finally {
          assert.equal(await http.stop(), 0, http.stderr());
        }
        assert.equal(server.writes().length, 1, "still only the one write");
      });
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
