/**
 * OpenAPI Overlay 1.0 through the transport: the files of `overlays` are read and applied in order to the document
 * before it is compiled — add, update (merge), remove, several overlays, a target matching nothing (a warning), the
 * precedence story (document < overlay < operator config, safety settings only narrowed), x-mcp-enabled and
 * x-mcp-tool-name added by an overlay, and each `conflicts` mode on a collision an overlay creates.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import openapi from "../../../transports/openapi/mod.ts";
import { compileDocument, CompileError } from "../../../transports/openapi/compiler.ts";
import { parseDocument } from "../../../transports/openapi/loader.ts";
import { parseOverlay } from "../../../transports/openapi/overlay.ts";
import { applyOverlays } from "../../../transports/openapi/overlay_apply.ts";
import type { ToolEntry } from "../../../src/upstream/types.ts";
import { UpstreamStartError } from "../../../src/upstream/types.ts";
import { makeDeps, parseConfig } from "./helpers.ts";

const DATA = new URL("./data/overlays/", import.meta.url).pathname;
const DOC = join(DATA, "pets.openapi.yaml");
const ALL = ["listPets", "showPetById", "feedPet", "adminDump"];

/** Start the upstream over the pets document with `overlays` and config `extra`; the tools and the log lines. */
async function start(overlays: string[], extra: Record<string, unknown> = {}) {
  const config = parseConfig({
    base_url: "https://pets.example.com",
    schema_file: DOC,
    include_operations: ALL,
    overlays: overlays.map((f) => join(DATA, f)),
    ...extra,
  });
  const deps = makeDeps();
  const upstream = await openapi.start(config, deps);
  const tools = new Map<string, ToolEntry>(upstream.listTools().map((t) => [String(t._ptc?.upstreamName), t]));
  await upstream.stop();
  return { tools, logs: deps.logs, diagnostics: upstream.diagnostics() };
}

/** The pets document with inline overlays applied (YAML texts), compiled with config `extra`. */
function compileInline(overlays: string[], extra: Record<string, unknown> = {}, include = ALL) {
  const loaded = parseDocument(Deno.readTextFileSync(DOC), "pets", "yaml");
  const warnings = applyOverlays(loaded.doc, overlays.map((t, i) => parseOverlay(t, `overlays[${i}] inline`)), "3.0");
  const config = parseConfig({
    base_url: "https://pets.example.com",
    schema_file: DOC,
    include_operations: include,
    ...extra,
  });
  const compiled = compileDocument(loaded.doc, loaded.version, config);
  return { warnings: [...warnings, ...compiled.warnings], byId: new Map(compiled.operations.map((o) => [o.id, o])) };
}

const overlay = (actions: string) => `overlay: 1.0.0\ninfo: {title: t, version: "1"}\nactions:\n${actions}`;

Deno.test("overlay: without overlays the document compiles as written (the baseline the other tests change)", async () => {
  const { tools } = await start([]);
  assert.deepEqual([...tools.keys()], ["listPets", "showPetById", "feedPet", "adminDump"]);
  assert.equal(tools.get("listPets")!.name, "list-pets");
  assert.deepEqual(Object.keys(tools.get("listPets")!.inputSchema.properties ?? {}), ["limit"]);
});

Deno.test("overlay: update merges (new keys added, arrays appended), x-mcp-tool-name renames, remove drops", async () => {
  const { tools, logs, diagnostics } = await start(["curate.overlay.yaml"]);
  const pets = tools.get("listPets")!;
  assert.equal(pets.name, "pets", "x-mcp-tool-name added by the overlay names the tool");
  assert.equal(pets.description, "List pets\n\nEvery pet of the store, newest first.");
  // the parameters list of the operation got one more entry: arrays are appended, never replaced
  assert.deepEqual(Object.keys(pets.inputSchema.properties ?? {}), ["limit", "species"]);
  assert.equal(tools.get("showPetById")!.name, "pet", "x-ptc-name added by the overlay");
  assert.ok(!tools.has("adminDump"), "x-mcp-enabled: false added by an overlay removes the operation");
  assert.ok(
    logs.some((l) =>
      /GET \/admin\/dump \(adminDump\): disabled by x-mcp-enabled: false \(in the document or an overlay\)/.test(l)
    ),
    logs.join("\n"),
  );
  assert.deepEqual(diagnostics.overlays, [join(DATA, "curate.overlay.yaml")]);
  assert.equal(diagnostics.overlay_warnings, 0);
  // /legacy was removed: listing it is now an unknown operation
  await assert.rejects(
    () => start(["curate.overlay.yaml"], { include_operations: ["listPets", "legacyList"] }),
    (e: unknown) => e instanceof UpstreamStartError && /"legacyList" is not in the document/.test(e.message),
  );
});

Deno.test("overlay: several overlays apply in order; a target matching nothing is a warning naming file, action, target", async () => {
  const { tools, logs } = await start(["curate.overlay.yaml", "later.overlay.json"]);
  assert.equal(tools.get("listPets")!.name, "all-pets", "the later overlay wins over the earlier one");
  assert.deepEqual(Object.keys(tools.get("listPets")!.inputSchema.properties ?? {}), ["limit", "species"]);
  const warning = logs.find((l) => l.includes("matches nothing"));
  assert.equal(
    warning,
    `warning: overlays[1] ${join(DATA, "later.overlay.json")}: actions[1] (target "$.paths['/nowhere'].get"): ` +
      "matches nothing in the document; the action changed nothing",
  );
  // the other order gives the other name
  const reversed = await start(["later.overlay.json", "curate.overlay.yaml"]);
  assert.equal(reversed.tools.get("listPets")!.name, "pets");
});

Deno.test("overlay: an update on a selected array appends; remove on array items and wildcards; root merge", () => {
  const { byId } = compileInline([overlay(`
  - target: $.paths['/pets'].get.parameters
    update: { name: owner, in: query, schema: { type: string } }
  - target: $.paths['/pets'].get.parameters
    update: [{ name: a, in: query, schema: { type: string } }, { name: b, in: query, schema: { type: string } }]
  - target: $.paths['/pets'].get.parameters[?@.name == 'limit']
    remove: true
  - target: $.paths.*.get
    update: { x-ptc-notes: curated }
  - target: $
    update: { info: { x-curated: true } }
`)]);
  const pets = byId.get("listPets")!;
  assert.deepEqual(Object.keys(pets.entry.inputSchema.properties ?? {}), ["owner", "a", "b"]);
  for (const op of byId.values()) assert.equal(op.entry._ptc?.notes, "curated");
});

Deno.test("overlay: a key named __proto__ in an update is a plain key, never a prototype", () => {
  const loaded = parseDocument(Deno.readTextFileSync(DOC), "pets", "yaml");
  const text = JSON.stringify({
    overlay: "1.0.0",
    info: { title: "t", version: "1" },
    actions: [{ target: "$.info", update: JSON.parse('{"__proto__": {"polluted": true}}') }],
  });
  applyOverlays(loaded.doc, [parseOverlay(text, "proto", "json")], "3.0");
  const info = loaded.doc.info as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(info), Object.prototype);
  assert.ok(Object.hasOwn(info, "__proto__"));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("overlay precedence: an overlay narrows safety settings, never widens the document's or the config's", async () => {
  const { tools, logs } = await start(["widen.overlay.yaml"], {
    include_operations: ["listPets", "feedPet"],
    max_response_bytes: 20_000,
  });
  const feed = tools.get("feedPet")!;
  assert.equal(feed.effect, "write", "x-ptc-read-only: true from an overlay does not undo the document's false");
  assert.equal(feed.annotations.readOnlyHint, false);
  const restored = logs.filter((l) => l.includes("an overlay cannot widen it"));
  assert.ok(restored.some((l) => /GET \/pets\/\{petId\}\/feed \(feedPet\).*x-ptc-read-only: false is kept/.test(l)));
  assert.ok(restored.some((l) => /feedPet.*x-ptc-max-response-bytes: 5000 is kept/.test(l)), restored.join("\n"));
  assert.ok(restored.some((l) => /GET \/legacy \(legacyList\).*x-mcp-enabled: false is kept/.test(l)));
  // the caps: config 20000, document 5000 for feedPet, overlay 50 MB for listPets → never above the config's
  const { byId } = compileInline([Deno.readTextFileSync(join(DATA, "widen.overlay.yaml"))], {
    max_response_bytes: 20_000,
  }, ["listPets", "feedPet"]);
  assert.equal(byId.get("feedPet")!.maxResponseBytes, 5000);
  assert.equal(byId.get("listPets")!.maxResponseBytes, 20_000);
});

Deno.test("overlay precedence: x-ptc-read-only: true on a POST does not make it a read", () => {
  assert.throws(
    () =>
      compileInline([overlay("  - target: $.paths['/pets'].post\n    update: { x-ptc-read-only: true }\n")], {}, [
        "createPet",
      ]),
    (e: unknown) => e instanceof CompileError && e.problems.some((p) => /POST \/pets \(createPet\)/.test(p)),
  );
});

Deno.test("overlay precedence: the operator config says write, an overlay cannot make it a read", () => {
  const readOnlyTrue = overlay("  - target: $.paths['/pets'].get\n    update: { x-ptc-read-only: true }\n");
  const { byId } = compileInline([readOnlyTrue], { operation_overrides: { listPets: { read_only: false } } }, [
    "listPets",
  ]);
  assert.equal(byId.get("listPets")!.entry.effect, "write");
  // …and an overlay can narrow: x-ptc-read-only: false and a lower cap from the overlay hold
  const narrower = overlay(
    "  - target: $.paths['/pets'].get\n    update: { x-ptc-read-only: false, x-ptc-max-response-bytes: 700 }\n",
  );
  const narrowed = compileInline([narrower], { max_response_bytes: 20_000 }, ["listPets"]).byId.get("listPets")!;
  assert.equal(narrowed.entry.effect, "write");
  assert.equal(narrowed.maxResponseBytes, 700);
});

Deno.test("overlay precedence: removing the document's safety settings puts them back, with a warning", () => {
  const { byId, warnings } = compileInline(
    [overlay(`
  - target: $.paths['/pets/{petId}/feed'].get['x-ptc-read-only']
    remove: true
  - target: $.paths['/pets/{petId}/feed'].get['x-ptc-max-response-bytes']
    remove: true
`)],
    {},
    ["feedPet"],
  );
  assert.equal(byId.get("feedPet")!.entry.effect, "write");
  assert.equal(byId.get("feedPet")!.maxResponseBytes, 5000);
  assert.equal(warnings.filter((w) => w.includes("an overlay cannot widen it")).length, 2);
});

Deno.test("overlay precedence: an operation moved to a path that requests the same URL keeps the document's floor", () => {
  // Removing /pets/{petId}/feed and adding it back under another template name, with a fragment or with a trailing
  // slash gives a new operation id and location, but ptc sends the same GET to the same URL: still a write, still
  // capped at 5000 bytes; the document's disabled /legacy stays disabled the same way.
  const feed = (path: string, id: string) => `
  - target: $.paths
    update:
      ${path}:
        get:
          operationId: ${id}
          parameters: [{ name: pid, in: path, required: true, schema: { type: string } }]
          responses: { "200": { description: ok, content: { application/json: { schema: { type: object } } } } }`;
  const moved = overlay(`
  - target: $.paths['/pets/{petId}/feed']
    remove: true
  - target: $.paths['/legacy']
    remove: true${feed("/pets/{pid}/feed", "feedRenamed")}${feed("/pets/{pid}/feed#again", "feedFragment")}${
    feed("/pets/{pid}/feed/", "feedSlash")
  }
  - target: $.paths
    update:
      /legacy#new:
        get:
          operationId: legacyAgain
          responses: { "200": { description: ok, content: { application/json: { schema: { type: object } } } } }
`);
  const { byId, warnings } = compileInline([moved], { operation_overrides: {} }, [
    "feedRenamed",
    "feedFragment",
    "feedSlash",
  ]);
  for (const id of ["feedRenamed", "feedFragment", "feedSlash"]) {
    assert.equal(byId.get(id)!.entry.effect, "write", id);
    assert.equal(byId.get(id)!.maxResponseBytes, 5000, id);
  }
  assert.ok(
    warnings.some((w) =>
      /GET \/pets\/\{pid\}\/feed \(feedRenamed\): the document marks GET \/pets\/\{petId\}\/feed/.test(w)
    ),
    warnings.join("\n"),
  );
  const legacy = compileInline([moved], {}, ["legacyAgain"]);
  assert.equal(legacy.byId.has("legacyAgain"), false, "still disabled, so not exposed");
  assert.ok(
    legacy.warnings.some((w) => /^GET \/legacy#new \(legacyAgain\): the document disables GET \/legacy /.test(w)),
    legacy.warnings.join("\n"),
  );
  // an operation the document itself holds at a location is judged by that location only: the fragment operations
  // of one path (box.com's way) keep their own settings
  const untouched = compileInline([overlay("  - target: $.info\n    update: { x-note: 1 }\n")], {}, ["listPets"]);
  assert.equal(untouched.byId.get("listPets")!.entry.effect, "read");
});

Deno.test("overlay precedence: the operator's name and description win over the overlay's", () => {
  const { byId } = compileInline([Deno.readTextFileSync(join(DATA, "curate.overlay.yaml"))], {
    operation_overrides: { listPets: { name: "operator-pets", description: "The operator's words." } },
  }, ["listPets"]);
  assert.equal(byId.get("listPets")!.entry.name, "operator-pets");
  assert.equal(byId.get("listPets")!.entry.description, "The operator's words.");
  // name precedence below the operator: x-ptc-name > x-mcp-tool-name > operationId
  const both = overlay(
    "  - target: $.paths['/pets'].get\n    update: { x-ptc-name: ptc-name, x-mcp-tool-name: mcp-name }\n",
  );
  assert.equal(compileInline([both], {}, ["listPets"]).byId.get("listPets")!.entry.name, "ptc-name");
});

Deno.test("overlay: each conflicts mode on a tool-name collision an overlay creates", () => {
  const collide = overlay(`
  - target: $.paths['/pets'].get
    update: { x-mcp-tool-name: pets }
  - target: $.paths['/pets/{petId}'].get
    update: { x-mcp-tool-name: pets }
`);
  const include = ["listPets", "showPetById", "adminDump"];
  assert.throws(
    () => compileInline([collide], { conflicts: "error" }, include),
    (e: unknown) =>
      e instanceof CompileError &&
      /tool name "pets" is produced by both listPets \(GET \/pets\) and showPetById \(GET \/pets\/\{petId\}\)/.test(
        e.problems.join("\n"),
      ),
  );
  const first = compileInline([collide], { conflicts: "first_wins" }, include);
  assert.deepEqual([...first.byId.keys()], ["listPets", "adminDump"]);
  assert.ok(first.warnings.some((w) => /kept listPets \(conflicts: first_wins\)/.test(w)));
  const skip = compileInline([collide], { conflicts: "skip" }, include);
  assert.deepEqual([...skip.byId.keys()], ["adminDump"]);
  assert.ok(skip.warnings.some((w) => /listPets .* and showPetById .*exposed neither \(conflicts: skip\)/.test(w)));
});

Deno.test("overlay: an action that cannot apply fails the start naming the file, the action and the target", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-overlay-" });
  try {
    const file = join(dir, "bad.overlay.yaml");
    await Deno.writeTextFile(file, overlay("  - target: $.info.title\n    update: { x: 1 }\n"));
    const config = parseConfig({
      base_url: "https://pets.example.com",
      schema_file: DOC,
      include_operations: ["listPets"],
      overlays: [file],
    });
    const error = await openapi.start(config, makeDeps()).then(() => undefined, (e) => e);
    assert.ok(error instanceof UpstreamStartError);
    assert.equal(error.code, "overlay_action_failed");
    assert.equal(
      error.message,
      `upstream obs: overlays[0] ${file}: actions[0] (target "$.info.title"): selects a string at ` +
        "$['info']['title']; Overlay 1.0 updates only objects and arrays (target the object holding it instead)",
    );
    await Deno.remove(file);
    const missing = await openapi.start(config, makeDeps()).then(() => undefined, (e) => e);
    assert.ok(missing instanceof UpstreamStartError);
    assert.equal(missing.code, "overlay_unreadable");
    assert.match(missing.message, /overlays\[0\] .*bad\.overlay\.yaml: no such file/);
    assert.match(missing.hint ?? "", /relative paths resolve against the config file's folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("overlay: the object-update type rule names where it failed", () => {
  assert.throws(
    () => compileInline([overlay("  - target: $.paths['/pets'].get\n    update: [1]\n")]),
    /actions\[0\] \(target "\$\.paths\['\/pets'\]\.get"\): selects an object at \$\['paths'\]\['\/pets'\]\['get'\], so update must be an object \(found an array\)/,
  );
});

Deno.test("overlay: a description an overlay adds is clipped at max_description_chars like the document's", () => {
  const long = overlay(`  - target: $.paths['/pets'].get\n    update: { summary: "${"word ".repeat(40)}" }\n`);
  const { byId } = compileInline([long], { max_description_chars: 60 }, ["listPets"]);
  const description = byId.get("listPets")!.entry.description;
  assert.equal(description.length, 60);
  assert.ok(description.startsWith("word word") && description.endsWith("…"), description);
});
