/**
 * Validation of OpenAPI Overlay 1.0 documents: every malformed overlay is refused with a line naming the file, the
 * action index and the target; several problems are reported together.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadOverlayFile, OverlayError, parseOverlay } from "../../../transports/openapi/overlay.ts";

const SRC = "overlays[0] /cfg/x.overlay.yaml";
const HEAD = 'overlay: 1.0.0\ninfo: {title: t, version: "1"}\n';

/** The problems of an overlay text (one per line, without the source prefix). */
function problems(text: string, format: "json" | "yaml" = "yaml"): string[] {
  try {
    parseOverlay(text, SRC, format);
  } catch (e) {
    if (!(e instanceof OverlayError)) throw e;
    return e.message.split("\n").map((line) => {
      assert.ok(line.startsWith(`${SRC}: `), line);
      return line.slice(SRC.length + 2);
    });
  }
  throw new Error("expected an OverlayError");
}

const action = (yaml: string) => problems(`${HEAD}actions:\n${yaml}`);

Deno.test("overlay validation: the document's own fields", () => {
  assert.deepEqual(problems("- a\n- b\n"), ["an overlay must be an object with overlay, info and actions"]);
  assert.deepEqual(problems('info: {title: t, version: "1"}\nactions: [{target: $, update: {}}]\n'), [
    'not an OpenAPI Overlay document (no "overlay" version field; expected overlay: 1.0.0)',
  ]);
  assert.deepEqual(problems('overlay: 1.1.0\ninfo: {title: t, version: "1"}\nactions: [{target: $, update: {}}]\n'), [
    'overlay: "1.1.0" is not supported; ptc reads Overlay 1.0 documents (overlay: 1.0.0)',
  ]);
  assert.deepEqual(problems("overlay: 1.0.0\nactions: [{target: $, update: {}}]\n"), [
    "info: is required: an object with title and version",
  ]);
  assert.deepEqual(problems("overlay: 1.0.0\ninfo: {version: 1}\nactions: [{target: $, update: {}}]\n"), [
    "info.title: is required (a string)",
    "info.version: is required (a string)",
  ]);
  assert.deepEqual(problems(`${HEAD}actions: []\n`), [
    "actions: is required: a non-empty list of {target, update | remove}",
  ]);
  assert.deepEqual(problems(`${HEAD}action: [{target: $, update: {}}]\n`), [
    'unknown key "action" (did you mean "actions"?)',
    "actions: is required: a non-empty list of {target, update | remove}",
  ]);
  assert.deepEqual(problems(`${HEAD}extends: 3\nx-note: fine\nactions: [{target: $, update: {}}]\n`), [
    "extends: must be a URI string",
  ]);
  const many = JSON.stringify({
    overlay: "1.0.0",
    info: { title: "t", version: "1" },
    actions: Array.from({ length: 1001 }, () => ({ target: "$", update: {} })),
  });
  assert.deepEqual(problems(many, "json"), ["actions: 1001 actions exceed the limit of 1000"]);
});

Deno.test("overlay validation: each action, named by index and target", () => {
  assert.deepEqual(action("  - 3\n"), ["actions[0]: must be an object with target and update or remove"]);
  assert.deepEqual(action("  - {update: {}}\n"), [
    "actions[0]: target is required (a JSONPath query such as $.paths['/pets'].get)",
  ]);
  const [syntax] = action("  - {target: paths.x, update: {}}\n");
  assert.match(syntax, /^actions\[0\] \(target "paths\.x"\): is not an RFC 9535 JSONPath query \(.+\)$/);
  const [unclosed] = action("  - {target: \"$.paths['/x'\", update: {}}\n");
  assert.match(unclosed, /^actions\[0\] \(target "\$\.paths\['\/x'"\): is not an RFC 9535 JSONPath query/);
  assert.deepEqual(action(`  - {target: "$[?match(@.x, 'a.*')]", update: {}}\n`), [
    `actions[0] (target "$[?match(@.x, 'a.*')]"): uses match(), which ptc does not run in overlay targets ` +
    "(a regular expression's running time cannot be bounded); select with == comparisons instead",
  ]);
  assert.deepEqual(action("  - {target: $.info, update: {}}\n  - {target: $.info, updates: {}}\n"), [
    'actions[1] (target "$.info"): unknown key "updates" (did you mean "update"?)',
    'actions[1] (target "$.info"): has neither update nor remove: true, so it would do nothing',
  ]);
  assert.deepEqual(action("  - {target: $.info, copy: $.x}\n"), [
    'actions[0] (target "$.info"): copy is an Overlay 1.1 action; ptc reads Overlay 1.0 (use update)',
    'actions[0] (target "$.info"): has neither update nor remove: true, so it would do nothing',
  ]);
  assert.deepEqual(action("  - {target: $.info, description: 3, remove: yes}\n"), [
    'actions[0] (target "$.info"): description: must be a string',
    'actions[0] (target "$.info"): remove: must be true or false',
    'actions[0] (target "$.info"): has neither update nor remove: true, so it would do nothing',
  ]);
  assert.deepEqual(action("  - {target: $, remove: true}\n"), [
    'actions[0] (target "$"): cannot remove the whole document',
  ]);
  const deep = "[".repeat(70) + "]".repeat(70);
  assert.deepEqual(action(`  - {target: $.info, update: {x: ${deep}}}\n`), [
    'actions[0] (target "$.info"): update: nested deeper than 64 levels',
  ]);
  const long = "$" + ".a".repeat(2100);
  assert.deepEqual(action(`  - {target: "${long}", update: {}}\n`), [
    `actions[0] (target ${JSON.stringify(long).slice(0, 159)}…): is 4201 characters long; the limit is 4096`,
  ]);
});

Deno.test("overlay validation: update with remove: true only removes, with a warning", () => {
  const ov = parseOverlay(`${HEAD}actions:\n  - {target: $.info.x, update: {a: 1}, remove: true}\n`, SRC);
  assert.deepEqual(ov.actions[0].remove, true);
  assert.equal(ov.actions[0].update, undefined);
  assert.deepEqual(ov.warnings, [
    `${SRC}: actions[0] (target "$.info.x"): has both update and remove: true; as Overlay 1.0 says, it only removes`,
  ]);
});

Deno.test("overlay validation: YAML and JSON syntax, duplicate keys, the file itself", async () => {
  const [syntax] = problems(`${HEAD}actions: [\n`);
  assert.match(syntax, /^invalid YAML \([a-z ]+ at line 4, column 1\)$/);
  assert.deepEqual(problems(`${HEAD}info: {title: u, version: "2"}\nactions: [{target: $, update: {}}]\n`), [
    "invalid YAML (duplicate key at line 3, column 1)",
  ]);
  assert.deepEqual(problems('{"overlay": "1.0.0",', "json"), ["invalid JSON"]);
  // JSON.parse would keep the second `update` and drop the first without a word
  const twice = '{"overlay": "1.0.0", "info": {"title": "t", "version": "1"},\n' +
    '"actions": [{"target": "$.info", "update": {"x-a": 1},\n"update": {"x-b": 2}}]}';
  assert.deepEqual(problems(twice, "json"), [
    "actions[0].update: duplicate key (lines 2 and 3); JSON keeps only the last one, so remove or rename one",
  ]);
  const dir = await Deno.makeTempDir({ prefix: "ptc-overlay-file-" });
  try {
    const json = join(dir, "a.overlay.json");
    await Deno.writeTextFile(json, JSON.stringify({ overlay: "1.0.0", info: { title: "t", version: "1" } }));
    await assert.rejects(
      () => loadOverlayFile(json, 2),
      (e: unknown) =>
        e instanceof OverlayError && e.code === "overlay_invalid" &&
        e.message === `overlays[2] ${json}: actions: is required: a non-empty list of {target, update | remove}`,
    );
    await assert.rejects(
      () => loadOverlayFile(dir, 0),
      (e: unknown) =>
        e instanceof OverlayError && e.code === "overlay_unreadable" &&
        e.message === `overlays[0] ${dir}: is a directory`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
