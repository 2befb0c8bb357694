/**
 * A real third-party client drives `ptc mcp`: the MCP Inspector CLI (`@modelcontextprotocol/inspector`, installed
 * under tests/peers) lists tools and calls `lisp_eval` over stdio and over HTTP, in the modern, auto and legacy eras.
 */
import assert from "node:assert/strict";
import { hasInspector, runInspector } from "./inspector_cli.ts";
import { ptcMcpArgs, ROOT, spawnHttpServer, startWorld } from "./mcp_server_helpers.ts";

/** Run the inspector; `expectCode` 5 is its exit code for a tool result with isError. */
function inspector(
  era: string,
  target: string[],
  method: string[],
  expectCode = 0,
): Promise<Record<string, unknown>> {
  return runInspector(["--protocol-era", era, ...target, ...method], { cwd: ROOT, expectCode });
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
