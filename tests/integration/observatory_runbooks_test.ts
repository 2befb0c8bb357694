/**
 * The MCP half of upstreams.example.jsonc: the `runbooks` upstream (`@modelcontextprotocol/server-filesystem` over
 * stdio, started with `node` from the repository's node_modules) next to the `observatory` OpenAPI upstream. Checks
 * the read-only tool surface, reads through the run context exactly as a program's `tool/call` would, the folder
 * confinement, the config copy's pinned working directory and the Deno flags `ptc permissions` prints for the file.
 */
import assert from "node:assert/strict";
import { parse as parseJsonc } from "jsonc-parser";
import { dirname, join } from "node:path";
import {
  type ConcreteConfigOptions,
  EXAMPLE_CONFIG,
  pinStdioWorkingDirs,
  writeConcreteConfig,
} from "../../src/cli/demo_session.ts";
import { type RuntimeSession, withDemoRuntime } from "./demo_runtime.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { JsonObject } from "../../src/core/json.ts";
import { runPtc } from "./ptc_process.ts";

const ROOT = dirname(EXAMPLE_CONFIG);
const ERROR_CLASSES = [
  "content_filter",
  "context_length_exceeded",
  "invalid_json",
  "rate_limit",
  "timeout",
  "tool_error",
  "upstream_5xx",
];

type Outcome = { kind: string; ok?: boolean; value?: unknown; reason?: string; message?: string };

async function call(session: RuntimeSession, server: string, tool: string, args: JsonObject): Promise<Outcome> {
  const report = await withRunContext(
    session.runtime,
    (ctx) => ctx.callTool({ name: "call", args: { server, tool, args } }),
  );
  return report.value as Outcome;
}

function withSession(fn: (s: RuntimeSession) => Promise<void>): Promise<void> {
  return withDemoRuntime({ seed: "runbooks", traces: 300 }, fn);
}

Deno.test("runbooks: one page per error class the fixture produces, each with the four sections", async () => {
  const pages = [];
  for await (const e of Deno.readDir(join(ROOT, "fixtures/observatory/runbooks"))) pages.push(e.name);
  assert.deepEqual(pages.sort(), ERROR_CLASSES.map((c) => `${c}.md`));
  const { ERROR_CLASSES: produced } = await import("../../fixtures/observatory/world.ts");
  assert.deepEqual([...produced].sort(), ERROR_CLASSES, "every class the fixture produces has a runbook");
  for (const c of ERROR_CLASSES) {
    const text = await Deno.readTextFile(join(ROOT, "fixtures/observatory/runbooks", `${c}.md`));
    assert.ok(text.startsWith(`# Runbook: ${c}\n`), c);
    const headings = text.split("\n").filter((l) => l.startsWith("## "));
    assert.deepEqual(headings, ["## Symptoms", "## Likely causes", "## What to check", "## Mitigation"], c);
    const mitigation = text.split("\n## Mitigation\n")[1].split("\n").filter((l) => l.startsWith("- "));
    assert.ok(mitigation.length >= 3, `${c}: mitigation has bullet items`);
    // The demo programs read items line by line: an item wrapped onto a second line would be cut short.
    assert.ok(!text.split("\n").some((l) => l.startsWith("  ")), `${c}: every bullet item fits on one line`);
  }
});

Deno.test("runbooks: the example config serves both upstreams, the MCP one with read tools only", async () => {
  await withSession((s) => {
    const catalog = s.runtime.catalog();
    assert.deepEqual(catalog.map((c) => c.name).sort(), ["observatory", "runbooks"]);
    const tools = catalog.find((c) => c.name === "runbooks")!.tools.map((t) => t.name);
    for (const t of ["read-text-file", "list-directory", "search-files"]) assert.ok(tools.includes(t), t);
    for (const t of ["write-file", "edit-file", "create-directory", "move-file"]) {
      assert.ok(!tools.includes(t), `read-only mode hides ${t}`);
    }
    return Promise.resolve();
  });
});

Deno.test("runbooks: reads inside the folder; other paths and write tools are refused", async () => {
  await withSession(async (s) => {
    const page = await call(s, "runbooks", "read-text-file", { path: "timeout.md" });
    assert.equal(page.ok, true, JSON.stringify(page));
    const expected = await Deno.readTextFile(join(ROOT, "fixtures/observatory/runbooks/timeout.md"));
    assert.deepEqual(page.value, { content: expected });

    const head = await call(s, "runbooks", "read-text-file", { path: "rate_limit.md", head: 1 });
    assert.deepEqual(head.value, { content: "# Runbook: rate_limit" });

    const listing = await call(s, "runbooks", "list-directory", { path: "." });
    assert.equal(listing.ok, true, JSON.stringify(listing));
    assert.match(String((listing.value as { content: string }).content), /\[FILE\] upstream_5xx\.md/);

    for (const path of ["../../../upstreams.example.jsonc", join(ROOT, "deno.json"), "/etc/hostname"]) {
      const outside = await call(s, "runbooks", "read-text-file", { path });
      assert.equal(outside.ok, false, path);
      assert.equal(outside.reason, "tool_error", path);
    }
    const missing = await call(s, "runbooks", "read-text-file", { path: "no_such_class.md" });
    assert.equal(missing.reason, "tool_error");

    const write = await call(s, "runbooks", "write-file", { path: "timeout.md", content: "gone" });
    // The MCP server lists write-file; the runtime withholds it in read-only mode and says why.
    assert.equal(write.kind, "raise", JSON.stringify(write));
    assert.match(
      String(write.message),
      /tool 'runbooks\/write-file' is a write tool \(it is not annotated read-only\) and ptc runs in read-only mode/,
    );
    assert.equal(await Deno.readTextFile(join(ROOT, "fixtures/observatory/runbooks/timeout.md")), expected);
  });
});

Deno.test("runbooks: the config copy pins the stdio server's working directory to the repository root", async () => {
  await withSession(async (s) => {
    const copy = await Deno.readTextFile(s.configPath);
    const doc = parseJsonc(copy) as { upstreams: Record<string, Record<string, unknown>> };
    assert.equal(doc.upstreams.runbooks.cwd, ROOT);
    assert.equal(doc.upstreams.observatory.cwd, undefined, "only mcp_stdio upstreams get a cwd");
    assert.ok(copy.includes("// Both paths above are relative"), "comments survive");
  });
  const dir = await Deno.makeTempDir({ prefix: "ptc-runbooks-copy-" });
  try {
    const names = async (options?: ConcreteConfigOptions) => {
      const path = await writeConcreteConfig(dir, "http://127.0.0.1:1", options);
      const copy = parseJsonc(await Deno.readTextFile(path)) as { upstreams: Record<string, unknown> };
      return Object.keys(copy.upstreams).sort();
    };
    assert.deepEqual(await names(), ["observatory"], "default: the OpenAPI upstream alone, as before");
    assert.deepEqual(await names({ upstreams: "all" }), ["observatory", "runbooks"]);
    assert.deepEqual(await names({ upstreams: ["runbooks"] }), ["runbooks"]);
    await assert.rejects(names({ upstreams: ["runbook"] }), /has no upstream runbook \(it has observatory, runbooks\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const text = `{
  // c
  "upstreams": {
    "a": {"transport": "mcp_stdio", "command": "node", "cwd": "sub/dir"},
    "b": {"transport": "mcp_stdio", "command": "node"},
    "c": {"transport": "mcp_http", "url": "http://127.0.0.1:1/mcp"},
  }
}`;
  const pinned = pinStdioWorkingDirs(text, "/srv/app");
  const doc = parseJsonc(pinned) as { upstreams: Record<string, Record<string, unknown>> };
  assert.equal(doc.upstreams.a.cwd, "/srv/app/sub/dir");
  assert.equal(doc.upstreams.b.cwd, "/srv/app");
  assert.equal(doc.upstreams.c.cwd, undefined);
  assert.ok(pinned.startsWith("{\n  // c\n"));
  assert.equal(pinStdioWorkingDirs('{"upstreams": {}}', "/x"), '{"upstreams": {}}');
});

Deno.test("runbooks: ptc permissions for upstreams.example.jsonc names node and PATH next to the fixture's port", async () => {
  const out = await runPtc(["permissions", "--upstreams-config", EXAMPLE_CONFIG]);
  const stdout = out.stdout;
  assert.equal(out.code, 0, out.stderr);
  assert.match(stdout, /--allow-run=([^ ]*,)?node(,|\s|$)/);
  assert.match(stdout, /--allow-env=[^ ]*\bPATH\b/);
  assert.match(stdout, /--allow-net=127\.0\.0\.1:8765\b/);
  assert.ok(!/--allow-(run|env|net|read)(\s|$)/.test(stdout), `no blanket flags: ${stdout}`);
});
