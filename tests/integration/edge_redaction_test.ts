/**
 * Redaction at the edge: an upstream (a real loopback HTTP server) reflects the bearer token split in two fields, so
 * neither field is the secret; a program joins them back. The joined token must never reach the client verbatim —
 * not in `ptc eval`'s value or prints, not in an MCP `lisp_eval` envelope.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectHttp, evalLisp, MAIN, spawnHttpServer } from "./mcp_server_helpers.ts";

const TOKEN = `reflect-${crypto.randomUUID()}-${crypto.randomUUID()}`;

const DOC = {
  openapi: "3.0.3",
  info: { title: "reflector", version: "1" },
  paths: {
    "/whoami": {
      get: {
        operationId: "whoami",
        summary: "Who the caller is (echoes the credential, split in two)",
        responses: {
          "200": {
            description: "the halves",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { head: { type: "string" }, tail: { type: "string" } },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** A program that joins the halves and shows the token every way a face can emit it. */
const PROGRAM = `(let [r (:value (tool/call 'reflect/whoami {}))
                       t (str (:head r) (:tail r))]
                   (println "token:" t)
                   {:token t :upper (str t)})`;

function startReflector(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const auth = req.headers.get("authorization") ?? "";
    const token = auth.replace(/^Bearer /, "");
    const half = Math.floor(token.length / 2);
    return Response.json({ head: token.slice(0, half), tail: token.slice(half) });
  });
}

async function writeConfig(dir: string, port: number): Promise<string> {
  await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(DOC));
  await Deno.writeTextFile(join(dir, "token"), TOKEN);
  const config = {
    credentials: { reflect: { source: "file", path: "token" } },
    upstreams: {
      reflect: {
        transport: "openapi",
        description: "reflects the token",
        base_url: `http://127.0.0.1:${port}`,
        schema_file: "doc.json",
        allow_insecure_http: true,
        allow_insecure_auth: true,
        auth: [{ scheme: "bearer", binding: "reflect" }],
        include_operations: ["whoami"],
      },
    },
  };
  const path = join(dir, "upstreams.json");
  await Deno.writeTextFile(path, JSON.stringify(config));
  return path;
}

Deno.test("edge redaction: a reflected token never reaches ptc eval's output or an MCP envelope", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-edge-redaction-" });
  const reflector = startReflector();
  try {
    const config = await writeConfig(dir, reflector.addr.port);

    await t.step("ptc eval (text and json formats)", async () => {
      for (const format of ["text", "json"]) {
        const out = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--unstable-worker-options",
            "-A",
            MAIN,
            "eval",
            "--upstreams-config",
            config,
            "--format",
            format,
            PROGRAM,
          ],
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).output();
        const stdout = new TextDecoder().decode(out.stdout);
        const stderr = new TextDecoder().decode(out.stderr);
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
