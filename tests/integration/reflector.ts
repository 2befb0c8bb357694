/**
 * A redaction canary upstream: a real loopback HTTP server that reflects the caller's bearer token back — split in
 * two fields (`whoami`), whole in the result and, for `q=fail`, whole in a 400 error body (`echo`) — and the OpenAPI
 * upstream config that points ptc at it with the token in a credential file. Used by the tests that prove the token
 * never reaches an output (edge redaction, the audit log).
 * @module
 */
import { join } from "node:path";

const json = (properties: Record<string, unknown>) => ({
  "application/json": { schema: { type: "object", properties } },
});

/** The reflector's OpenAPI document. */
export const REFLECTOR_DOC = {
  openapi: "3.0.3",
  info: { title: "reflector", version: "1" },
  paths: {
    "/whoami": {
      get: {
        operationId: "whoami",
        summary: "Who the caller is (echoes the credential, split in two)",
        responses: {
          "200": { description: "the halves", content: json({ head: { type: "string" }, tail: { type: "string" } }) },
        },
      },
    },
    "/echo": {
      get: {
        operationId: "echo",
        summary: "Echoes q and the credential; q=fail answers 400 with the credential in the error",
        parameters: [{ name: "q", in: "query", required: false, schema: { type: "string" } }],
        responses: {
          "200": { description: "the echo", content: json({ q: { type: "string" }, token: { type: "string" } }) },
        },
      },
    },
  },
};

/** Start the reflector on 127.0.0.1 (OS-assigned port); the caller shuts it down. */
export function startReflector(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const url = new URL(req.url);
    if (url.pathname === "/echo") {
      const q = url.searchParams.get("q") ?? "";
      if (q === "fail") return Response.json({ message: `refused for ${token}`, token }, { status: 400 });
      return Response.json({ q, token });
    }
    const half = Math.floor(token.length / 2);
    return Response.json({ head: token.slice(0, half), tail: token.slice(half) });
  });
}

/** Write the document, the token file and `upstreams.json` (upstream `reflect`) into `dir`; returns the config path. */
export async function writeReflectorConfig(dir: string, port: number, token: string): Promise<string> {
  await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(REFLECTOR_DOC));
  await Deno.writeTextFile(join(dir, "token"), token);
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
        include_operations: ["whoami", "echo"],
      },
    },
  };
  const path = join(dir, "upstreams.json");
  await Deno.writeTextFile(path, JSON.stringify(config));
  return path;
}
