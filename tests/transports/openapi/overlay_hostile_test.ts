/**
 * Hostile overlays: every bound of `OVERLAY_LIMITS` is reached and answered with a clear refusal naming the file,
 * the action and the target — a descendant wildcard over a 13 MB document, a query whose work grows with the square
 * of the document, many cheap actions adding up, updates multiplied by their matches, a file over the size cap, a
 * YAML alias bomb, a target nested thousands deep — and none of them hangs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadOverlayFile, OVERLAY_LIMITS, OverlayError, parseOverlay } from "../../../transports/openapi/overlay.ts";
import { applyOverlays } from "../../../transports/openapi/overlay_apply.ts";
import { bigDocument } from "./helpers.ts";

const overlay = (actions: unknown[]) =>
  parseOverlay(
    JSON.stringify({ overlay: "1.0.0", info: { title: "hostile", version: "1" }, actions }),
    "overlays[0] /cfg/hostile.overlay.json",
    "json",
  );

function refusal(fn: () => unknown): OverlayError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OverlayError) return e;
    throw e;
  }
  throw new Error("expected an OverlayError");
}

Deno.test("hostile overlay: $..* over a 13 MB document stops at the match cap", () => {
  const doc = bigDocument(3800);
  assert.ok(JSON.stringify(doc).length > 13_000_000);
  const e = refusal(() => applyOverlays(doc, [overlay([{ target: "$..*", update: { x: 1 } }])], "3.1"));
  assert.equal(e.code, "overlay_too_complex");
  assert.equal(
    e.message,
    'overlays[0] /cfg/hostile.overlay.json: actions[0] (target "$..*"): selects more than 100000 nodes; ' +
      "use a more specific target",
  );
  // a specific target on the same document is cheap and applies
  const ok = applyOverlays(
    doc,
    [overlay([{ target: "$.paths['/resources7/{id}'].get", update: { "x-a": 1 } }])],
    "3.1",
  );
  assert.deepEqual(ok, []);
  assert.equal((doc.paths as Record<string, { get: Record<string, unknown> }>)["/resources7/{id}"].get["x-a"], 1);
});

Deno.test("hostile overlay: a query whose work grows with the square of the document stops at the step budget", () => {
  const doc = bigDocument(40);
  // every node of the document counts every node of the document: n² reads
  const target = "$..[?count($..*) == 0]";
  const e = refusal(() => applyOverlays(doc, [overlay([{ target, update: { x: 1 } }])], "3.1"));
  assert.equal(e.code, "overlay_too_complex");
  assert.equal(
    e.message,
    `overlays[0] /cfg/hostile.overlay.json: actions[0] (target ${JSON.stringify(target)}): the query needs more ` +
      "work than allowed (2000000 steps for one target); use a more specific target such as $.paths['/pets'].get " +
      "instead of descendant (..) searches",
  );
});

Deno.test("hostile overlay: a descendant search down a document nested 100,000 deep stops at the step budget", () => {
  // The query library copies a node's path for every node it visits, so its work grows with the square of the depth
  // while the reads it makes grow only linearly: `$..nothing` over a 100,000-level chain (a 400 KB file) read 100,000
  // nodes, well inside the budget, and ran for half a minute (200,000 levels: minutes).
  let chain: unknown = [];
  for (let i = 0; i < 100_000; i++) chain = [chain];
  const doc = { openapi: "3.1.0", info: { title: "deep", version: "1" }, paths: {}, x: chain };
  const started = performance.now();
  const e = refusal(() => applyOverlays(doc, [overlay([{ target: "$..nothing", update: { x: 1 } }])], "3.1"));
  assert.equal(e.code, "overlay_too_complex");
  assert.match(e.message, /the query needs more work than allowed \(2000000 steps for one target\)/);
  assert.ok(performance.now() - started < 5_000, `stopped after ${Math.round(performance.now() - started)} ms`);
  // the same search over a document of ordinary depth is not charged more than before
  assert.deepEqual(
    applyOverlays(bigDocument(40), [
      overlay([{ target: "$..[?@.operationId == 'getResource7']", update: { "x-a": 1 } }]),
    ], "3.1")
      .filter((w) => !/matches nothing/.test(w)),
    [],
  );
});

Deno.test("hostile overlay: cheap actions add up to the upstream's total step budget", () => {
  const doc = bigDocument(50);
  const walk = { target: "$..[?@.operationId == 'none']", update: { x: 1 } };
  const limits = { ...OVERLAY_LIMITS, maxStepsPerAction: 200_000, maxSteps: 1_000_000 };
  const e = refusal(() => applyOverlays(doc, [overlay(Array(100).fill(walk))], "3.1", limits));
  assert.equal(e.code, "overlay_too_complex");
  assert.match(e.message, /actions\[\d+\] .*\(1000000 steps for all the overlays of an upstream\)/);
});

Deno.test("hostile overlay: an update multiplied by its matches stops at the added-nodes budget", () => {
  const doc = bigDocument(300);
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`x-k${i}`, i]));
  const e = refusal(() => applyOverlays(doc, [overlay([{ target: "$.paths.*.get", update: wide }])], "3.1"));
  assert.equal(e.code, "overlay_too_complex");
  assert.match(e.message, /would add more than 2000000 nodes to the document; select fewer nodes/);
});

Deno.test("hostile overlay: a file over the size cap is refused before it is read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-overlay-hostile-" });
  try {
    const file = join(dir, "huge.overlay.yaml");
    await Deno.writeTextFile(file, "#".repeat(OVERLAY_LIMITS.maxBytes + 1));
    await assert.rejects(
      () => loadOverlayFile(file, 0),
      (e: unknown) =>
        e instanceof OverlayError && e.code === "overlay_too_large" &&
        e.message === `overlays[0] ${file}: 4194305 bytes exceeds the overlay limit (4194304 bytes)`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile overlay: a YAML alias bomb and a target nested thousands deep are refused", () => {
  const bomb = ['overlay: 1.0.0\ninfo: {title: t, version: "1"}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 12; i++) {
    bomb.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
  }
  bomb.push("actions: [{target: $, update: *a11}]");
  const e = refusal(() => parseOverlay(bomb.join("\n"), "bomb"));
  assert.equal(e.code, "overlay_parse_failed");
  // the text is valid YAML: the message says what was refused, not "syntax error"
  assert.equal(
    e.message,
    "bomb: invalid YAML (its aliases expand too much: more than the 1000 alias expansions ptc allows)",
  );
  const deep = `$[?${"(".repeat(2000)}@.a${")".repeat(2000)}]`;
  const nested = refusal(() => overlay([{ target: deep, update: {} }]));
  assert.equal(nested.code, "overlay_invalid");
  assert.match(
    nested.message,
    /actions\[0\] \(target .*\): (is not an RFC 9535 JSONPath query|is \d+ characters long)/,
  );
});
