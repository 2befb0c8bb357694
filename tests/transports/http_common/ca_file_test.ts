/**
 * `ca_file`: an OpenAPI upstream behind a private CA, served over real TLS on loopback (a CA and a leaf made with
 * openssl for this test). With `ca_file` the schema, a read and a write (which takes a fresh connection) all go
 * through; without it the start names the untrusted certificate and both ways to trust it; `DENO_CERT` works for the
 * whole process; a file that holds no certificate is named at start.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPtc } from "../../integration/ptc_process.ts";

async function openssl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A CA and a leaf for 127.0.0.1 signed by it, in `dir`. */
async function makeCa(dir: string): Promise<void> {
  await openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=ptc test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign",
  ], dir);
  await openssl([
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "leaf.key",
    "-out",
    "leaf.csr",
    "-subj",
    "/CN=127.0.0.1",
  ], dir);
  await Deno.writeTextFile(
    join(dir, "leaf.ext"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  await openssl([
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.pem",
    "-days",
    "2",
    "-extfile",
    "leaf.ext",
  ], dir);
}

const DOC = {
  openapi: "3.1.0",
  info: { title: "private", version: "1" },
  paths: {
    "/hello": {
      get: {
        operationId: "hello",
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/notes": {
      post: {
        operationId: "add_note",
        requestBody: {
          content: { "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } } },
        },
        responses: { "201": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
};

Deno.test("ca_file: an OpenAPI upstream behind a private CA", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-ca-" });
  await makeCa(dir);
  const notes: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(join(dir, "leaf.pem")),
    key: await Deno.readTextFile(join(dir, "leaf.key")),
    onListen: () => {},
  }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/openapi.json") return Response.json(DOC);
    if (path === "/hello") return Response.json({ hi: "there" });
    if (path === "/notes" && req.method === "POST") {
      notes.push(((await req.json()) as { text: string }).text);
      return Response.json({ id: notes.length }, { status: 201 });
    }
    return new Response("no", { status: 404 });
  });
  const base = `https://127.0.0.1:${server.addr.port}`;
  const config = async (extra: Record<string, unknown>) => {
    const file = join(dir, `ptc-${crypto.randomUUID()}.json`);
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        allow_writes: true,
        upstreams: {
          svc: {
            transport: "openapi",
            base_url: base,
            schema_url: `${base}/openapi.json`,
            include_operations: ["hello", "add_note"],
            operation_overrides: { add_note: { effect: "write" } },
            ...extra,
          },
        },
      }),
    );
    return file;
  };
  const PROGRAM = `[(:value (tool/call 'svc/hello {})) (:mutation_state (tool/call 'svc/add-note {:text "x"}))]`;
  try {
    await t.step("with ca_file: schema, read and write (a fresh connection) all trust the CA", async () => {
      const r = await runPtc([
        "eval",
        "--allow-writes",
        "--upstreams-config",
        await config({ ca_file: "ca.pem" }),
        PROGRAM,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), '[{"hi" "there"} :applied]');
      assert.deepEqual(notes, ["x"]);
    });

    await t.step("without it: the untrusted certificate is named, with both ways to trust it", async () => {
      const r = await runPtc(["eval", "--upstreams-config", await config({}), "(tool/call 'svc/hello {})"]);
      assert.match(
        `${r.stdout}${r.stderr}`,
        /certificate is not trusted \(a private CA goes in the upstream's ca_file, or DENO_CERT/,
      );
    });

    await t.step("DENO_CERT trusts it for the whole process", async () => {
      Deno.env.set("DENO_CERT", join(dir, "ca.pem"));
      try {
        const r = await runPtc(["eval", "--upstreams-config", await config({}), "(:value (tool/call 'svc/hello {}))"]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), '{"hi" "there"}');
      } finally {
        Deno.env.delete("DENO_CERT");
      }
    });

    await t.step("a ca_file that holds no certificate is named at start", async () => {
      const r = await runPtc([
        "eval",
        "--upstreams-config",
        await config({ ca_file: "leaf.key" }),
        "(tool/call 'svc/hello {})",
      ]);
      assert.match(`${r.stdout}${r.stderr}`, /upstreams\.svc\.ca_file: .*leaf\.key holds no PEM certificate/);
    });

    await t.step("ptc permissions grants the read of ca_file", async () => {
      const file = await config({ ca_file: "ca.pem" });
      const r = await runPtc(["permissions", "eval", "--upstreams-config", file]);
      assert.match(r.stdout, new RegExp(`--allow-read=[^ ]*${join(dir, "ca.pem").replaceAll("/", "\\/")}`));
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
