/**
 * `ptc init openapi` on a document whose required scheme is an oauth2 client-credentials flow writes an `oauth2`
 * emitter (the flow's tokenUrl, client id and secret as env placeholders); with the variables exported, `ptc eval`
 * calls the API with a token from the real authorization server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startBench } from "../transports/http_common/oauth_setup.ts";
import { runDeno } from "./run_deno.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ptc = (args: string[], env: Record<string, string> = {}) => runDeno([MAIN, ...args], { env });

Deno.test("ptc init openapi: an oauth2 client-credentials scheme becomes an oauth2 emitter that works", async () => {
  const bench = await startBench();
  try {
    const doc = join(bench.dir, "api.json");
    await Deno.writeTextFile(doc, JSON.stringify(bench.rs.openapi()));
    const file = join(bench.dir, "api.jsonc");
    const init = await ptc(["init", "openapi", doc, "--name", "api", "-o", file]);
    assert.equal(init.code, 0, init.stderr);
    const text = await Deno.readTextFile(file);
    assert.match(text, /"scheme": "oauth2", "grant": "client_credentials"/, text);
    assert.match(text, new RegExp(`"token_url": "${bench.as.issuer}/token"`), text);
    assert.match(text, /"var": "API_MACHINE_CLIENT_ID"/);
    assert.match(text, /"var": "API_MACHINE_CLIENT_SECRET"/);
    const env = {
      API_MACHINE_CLIENT_ID: bench.as.ciClient.client_id,
      API_MACHINE_CLIENT_SECRET: bench.as.ciClient.client_secret,
    };
    const run = await ptc(["eval", "--upstreams-config", file, "(:value (tool/call 'api/whoami {}))"], env);
    assert.equal(run.code, 0, `${run.stderr}\n${text}`);
    // the API answered for the token's client (its id, read from a credential, is redacted like one)
    assert.match(run.stdout, /"client_id" "\[REDACTED\]"/, run.stdout);
  } finally {
    await bench.close();
  }
});
