/**
 * A real third-party client drives `ptc mcp`: the MCP Inspector CLI (`@modelcontextprotocol/inspector`, installed
 * under tests/peers) lists tools and calls `lisp_eval` over stdio and over HTTP, in the modern, auto and legacy eras.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ptcMcpArgs, ROOT, spawnHttpServer, startWorld } from "./mcp_server_helpers.ts";

const INSPECTOR = join(ROOT, "tests/peers/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js");

function hasInspector(): boolean {
  try {
    Deno.statSync(INSPECTOR);
    return true;
  } catch {
    return false;
  }
}

/** Run the inspector; `expectCode` 5 is its exit code for a tool result with isError. */
async function inspector(
  era: string,
  target: string[],
  method: string[],
  expectCode = 0,
): Promise<Record<string, unknown>> {
  const out = await new Deno.Command("node", {
    // the real path: the CLI runs only when argv[1] is its own file (tests/peers/node_modules may be a symlink)
    args: [Deno.realPathSync(INSPECTOR), "--protocol-era", era, "--format", "json", "-q", ...target, ...method],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, expectCode, `inspector exited ${out.code}:\n${stdout}\n${stderr}`);
  return JSON.parse(stdout.split("\n")[0]);
}

const LIST = ["--method", "tools/list"];
const CALL = (
  program: string,
) => ["--method", "tools/call", "--tool-name", "lisp_eval", "--tool-arg", `program=${program}`];
const PROGRAM = `(count (:traces (:value (tool/call 'observatory/list-traces {:org_id "acme" :limit 7}))))`;

type CallResult = { result: { content: { text: string }[]; isError?: boolean } };
type ListResult = { result: { tools: { name: string }[] } };

Deno.test({
  name: "MCP Inspector CLI lists and calls lisp_eval over stdio and HTTP",
  ignore: !hasInspector(),
  fn: async (t) => {
    const world = await startWorld({ mcp: false });
    try {
      const stdio = [Deno.execPath(), ...ptcMcpArgs(["--upstreams-config", world.configPath])];
      await t.step("stdio, modern era", async () => {
        const list = await inspector("modern", stdio, LIST) as unknown as ListResult;
        assert.deepEqual(list.result.tools.map((x) => x.name), ["lisp_eval"]);
        const call = await inspector("modern", stdio, CALL(PROGRAM)) as unknown as CallResult;
        assert.equal(call.result.content[0].text, "7");
      });
      await t.step("stdio, legacy era: an error result", async () => {
        const call = await inspector("legacy", stdio, CALL("(+ 1"), 5) as unknown as CallResult;
        assert.equal(call.result.isError, true);
        assert.match(call.result.content[0].text, /^parse_error: /);
      });

      const server = await spawnHttpServer(["--upstreams-config", world.configPath, "--introspection"]);
      try {
        for (const era of ["modern", "auto", "legacy"]) {
          await t.step(`HTTP, ${era} era`, async () => {
            const list = await inspector(era, [server.url], LIST) as unknown as ListResult;
            assert.deepEqual(list.result.tools.map((x) => x.name), [
              "lisp_eval",
              "list_api_services",
              "list_service_operations",
              "get_operation_schema",
            ]);
            const call = await inspector(era, [server.url], CALL(PROGRAM)) as unknown as CallResult;
            assert.equal(call.result.content[0].text, "7");
          });
        }
      } finally {
        assert.equal(await server.stop(), 0, server.stderr());
      }
    } finally {
      await world.close();
    }
  },
});
