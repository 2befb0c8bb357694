import assert from "node:assert/strict";
import { stringify } from "yaml";
import { loadSchemaFile, parseDocument, SchemaLoadError } from "../../../transports/openapi/loader.ts";
import { sampleDoc } from "./helpers.ts";

async function withFile(name: string, text: string, fn: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    await fn(`${dir}/${name}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("loader: JSON and YAML files give the same document", async () => {
  const doc = sampleDoc();
  await withFile("a.json", JSON.stringify(doc), async (p) => {
    const loaded = await loadSchemaFile(p, 1 << 20);
    assert.equal(loaded.version, "3.0");
    assert.deepEqual(loaded.doc, doc);
  });
  await withFile("a.yaml", stringify(doc), async (p) => {
    const loaded = await loadSchemaFile(p, 1 << 20);
    assert.deepEqual(loaded.doc, doc);
  });
});

Deno.test("loader: the byte cap is checked before reading", async () => {
  await withFile("big.json", JSON.stringify(sampleDoc()), async (p) => {
    await assert.rejects(loadSchemaFile(p, 100), (e: Error) => {
      assert.ok(e instanceof SchemaLoadError);
      assert.equal(e.code, "schema_too_large");
      assert.match(e.message, /exceeds schema_max_bytes \(100\)/);
      return true;
    });
  });
});

Deno.test("loader: missing file, bad JSON, bad YAML, Swagger 2 and unknown versions are one-line errors", async () => {
  await assert.rejects(loadSchemaFile("/nonexistent/x.json", 100), /schema_file \/nonexistent\/x\.json: no such file/);
  assert.throws(() => parseDocument('{\n "openapi": "3.0.0",\n oops }', "src", "auto"), /src: invalid JSON \(line 3/);
  assert.throws(() => parseDocument("openapi: 3.1.0\npaths: [unclosed", "src", "auto"), /src: invalid YAML \(.+line/);
  assert.throws(
    () => parseDocument("openapi: 3.1.0\npaths: *nope\n", "src", "auto"),
    /^SchemaLoadError: src: invalid YAML \(alias \*nope names no anchor set before it\)$/,
  );
  assert.throws(() => parseDocument('{"swagger": "2.0"}', "src", "auto"), /Swagger 2\.0 documents are not supported/);
  assert.throws(() => parseDocument('{"openapi": "4.0.0"}', "src", "auto"), /version "4\.0\.0" is not supported/);
  assert.throws(() => parseDocument('{"info": {}}', "src", "auto"), /no "openapi" version field/);
  assert.throws(() => parseDocument("[1, 2]", "src", "auto"), /not an object/);
  assert.equal(parseDocument('{"openapi": "3.1.0", "paths": {}}', "src", "auto").version, "3.1");
});

Deno.test("loader: YAML parsed without the yaml package's env grant says so, not 'invalid YAML (syntax error)'", async () => {
  const root = new URL("../../../", import.meta.url).pathname;
  const probe = `import { parseDocument } from "${root}transports/openapi/loader.ts";
    try { parseDocument("openapi: 3.1.0\\ninfo: {title: t, version: '1'}\\npaths: {}\\n", "schema_url https://x/doc", "auto"); console.log("parsed"); }
    catch (e) { console.log(e.message); }`;
  const dir = await Deno.makeTempDir({ prefix: "ptc-yaml-probe-" });
  const file = `${dir}/probe.ts`;
  await Deno.writeTextFile(file, probe);
  // read only (the modules): no env grant at all
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", `--config=${root}deno.json`, file],
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(dir, { recursive: true }));
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(
    text,
    "schema_url https://x/doc: reading YAML needs --allow-env=LOG_STREAM,LOG_TOKENS (run with the flags `ptc permissions` prints)",
    new TextDecoder().decode(out.stderr),
  );
});
