/**
 * Redaction at the edge: an upstream (a real loopback HTTP server) reflects the bearer token split in two fields, so
 * neither field is the secret; a program joins them back. The joined token must never reach the client verbatim —
 * not in `ptc eval`'s value or prints, not in an MCP `lisp_eval` envelope.
 */
import assert from "node:assert/strict";
import { connectHttp, evalLisp, spawnHttpServer } from "./mcp_server_helpers.ts";
import { startReflector, writeReflectorConfig } from "./reflector.ts";
import { runPtc } from "./ptc_process.ts";

const TOKEN = `reflect-${crypto.randomUUID()}-${crypto.randomUUID()}`;

/** A program that joins the halves and shows the token every way a face can emit it. */
const PROGRAM = `(let [r (:value (tool/call 'reflect/whoami {}))
                       t (str (:head r) (:tail r))]
                   (println "token:" t)
                   {:token t :upper (str t)})`;

Deno.test("edge redaction: a reflected token never reaches ptc eval's output or an MCP envelope", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-edge-redaction-" });
  const reflector = startReflector();
  try {
    const config = await writeReflectorConfig(dir, reflector.addr.port, TOKEN);

    await t.step("ptc eval (text and json formats)", async () => {
      for (const format of ["text", "json"]) {
        const out = await runPtc(["eval", "--upstreams-config", config, "--format", format, PROGRAM]);
        const { stdout, stderr } = out;
        assert.equal(out.code, 0, stderr);
        assert.ok(!stdout.includes(TOKEN) && !stderr.includes(TOKEN), `token leaked (${format}): ${stdout}`);
        assert.match(stdout, /\[REDACTED\]/, stdout);
      }
    });

    await t.step("ptc mcp --http: lisp_eval", async () => {
      const server = await spawnHttpServer(["--upstreams-config", config]);
      const client = await connectHttp("modern", server.url);
      try {
        const r = JSON.stringify(await evalLisp(client, PROGRAM));
        assert.ok(!r.includes(TOKEN), `token leaked: ${r}`);
        assert.match(r, /\[REDACTED\]/);
        const failed = JSON.stringify(
          await evalLisp(client, `(fail ${PROGRAM.replace("{:token", "(str").replace(" :upper (str t)}", ")")})`),
        );
        assert.ok(!failed.includes(TOKEN), `token leaked in a failure: ${failed}`);
      } finally {
        await client.close();
        await server.stop();
      }
      assert.ok(!server.stderr().includes(TOKEN));
    });
  } finally {
    await reflector.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
