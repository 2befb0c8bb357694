/**
 * Whole MCP content and resources, end to end: PTC-Lisp programs in the sandbox call `server-everything` (a real
 * third-party MCP server from npm, over stdio) and see every content block of a multi-block result (text, an image
 * summarized without its data, resource links, embedded resources), list its resources and read them — under the
 * same budgets, caps and records as `tool/call`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SandboxPool } from "../../src/sandbox/mod.ts";
import { loadConfigOrThrow } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { type Runtime, startRuntime } from "../../src/upstream/runtime.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { EVERYTHING, hasNode } from "./everything_server.ts";
import { launchConfined } from "./launcher_helpers.ts";
import { MCP_TINY_IMAGE } from "../../node_modules/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js";

const ignore = !hasNode();

interface World {
  runtime: Runtime;
  run(program: string, limits?: Record<string, number>): Promise<{ json: unknown; calls: unknown[] }>;
  close(): Promise<void>;
}

async function startWorld(extra: Record<string, unknown> = {}): Promise<World> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-content-" }));
  const config = {
    upstreams: {
      everything: {
        transport: "mcp_stdio",
        command: "node",
        args: [EVERYTHING, "stdio"],
        start_timeout_ms: 60_000,
        ...extra,
      },
    },
  };
  const configPath = join(dir, "upstreams.json");
  await Deno.writeTextFile(configPath, JSON.stringify(config));
  const registry = registerBuiltins();
  const runtime = await loadConfigOrThrow(configPath, { registry })
    .then((config) => startRuntime(config, { registry, log: () => {} }))
    .catch(async (e) => {
      await Deno.remove(dir, { recursive: true });
      throw e;
    });
  const pool = new SandboxPool({ size: 1 });
  await pool.warm();
  return {
    runtime,
    async run(program: string, limits?: Record<string, number>) {
      const report = await withRunContext(
        runtime,
        (ctx) => pool.evaluate(program, { host: ctx.callbacks() }),
        limits ? { limits } : undefined,
      );
      const result = report.value;
      if (!result.ok) throw new Error(`program failed: ${result.reason}: ${result.message}`);
      return { json: result.json, calls: report.calls };
    },
    async close() {
      await pool.close();
      await runtime.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test({
  name: "MCP content, whole: multi-block results, image summaries, resource links and embedded resources",
  ignore,
  fn: async () => {
    const w = await startWorld();
    try {
      // one text block: the shape programs always had
      const echo = await w.run(`(:value (tool/call 'everything/echo {:message "hi"}))`);
      assert.equal(echo.json, "Echo: hi");
      // text, image, text: every block, in order; the image as a summary of its decoded size, never its data
      const image = await w.run(`(:value (tool/call 'everything/get-tiny-image {}))`);
      const bytes = atob(MCP_TINY_IMAGE).length;
      assert.deepEqual(image.json, [
        { type: "text", text: "Here's the image you requested:" },
        { type: "image", mime_type: "image/png", bytes },
        { type: "text", text: "The image above is the MCP logo." },
      ]);
      assert.doesNotMatch(JSON.stringify(image), new RegExp(MCP_TINY_IMAGE.slice(0, 40)));
      // kebab-case keyword access reaches the snake_case keys
      const mime = await w.run(
        `(->> (:value (tool/call 'everything/get-tiny-image {})) (map :mime-type) (remove nil?))`,
      );
      assert.deepEqual(mime.json, ["image/png"]);
      // resource links
      const links = await w.run(
        `(->> (:value (tool/call 'everything/get-resource-links {:count 2})) (filter #(= "resource_link" (:type %))))`,
      );
      assert.equal((links.json as unknown[]).length, 2);
      const first = (links.json as Record<string, unknown>[])[0];
      assert.match(String(first.uri), /^demo:\/\/resource\/dynamic\//);
      assert.ok(first.name && first.mime_type, JSON.stringify(first));
      // an embedded resource: text inline
      const embedded = await w.run(
        `(->> (:value (tool/call 'everything/get-resource-reference {:resourceType "Text" :resourceId 2}))
              (filter #(= "resource" (:type %))) first)`,
      );
      const e = embedded.json as Record<string, unknown>;
      assert.equal(e.uri, "demo://resource/dynamic/text/2");
      assert.equal(typeof e.text, "string");
      // an embedded blob: summarized
      const blob = await w.run(
        `(->> (:value (tool/call 'everything/get-resource-reference {:resourceType "Blob" :resourceId 1}))
              (filter #(= "resource" (:type %))) first)`,
      );
      const b = blob.json as Record<string, unknown>;
      assert.equal(typeof b.bytes, "number");
      assert.ok((b.bytes as number) > 0 && b.text === undefined, JSON.stringify(b));
    } finally {
      await w.close();
    }
  },
});

Deno.test({
  name: 'MCP content: binary_content "include" passes image and blob data on (base64, as sent); a bad value is named',
  ignore,
  fn: async () => {
    const w = await startWorld({ binary_content: "include" });
    try {
      const image = await w.run(`(->> (:value (tool/call 'everything/get-tiny-image {})) (filter :data) first)`);
      const img = image.json as Record<string, unknown>;
      assert.deepEqual([img.type, img.data, img.bytes], ["image", MCP_TINY_IMAGE, atob(MCP_TINY_IMAGE).length]);
      const blob = await w.run(`(:value (tool/read-resource 'everything "demo://resource/dynamic/blob/1"))`);
      const [content] = blob.json as Record<string, unknown>[];
      assert.equal(typeof content.data, "string");
      assert.equal(atob(content.data as string).length, content.bytes);
    } finally {
      await w.close();
    }
    const bad = await startWorld({ binary_content: "all" }).catch((e) => e);
    assert.match(
      String(bad?.message ?? bad),
      /upstreams\.everything\.binary_content: must be one of "summary", "include"/,
    );
  },
});

Deno.test({
  name: "MCP resources: tool/resources lists them, tool/read-resource reads text and summarizes blobs, as calls",
  ignore,
  fn: async () => {
    const w = await startWorld();
    try {
      const list = await w.run(`(let [r (tool/resources 'everything)] [(:ok r) (map :uri (:value r))])`);
      const [ok, uris] = list.json as [boolean, string[]];
      assert.equal(ok, true);
      assert.ok(uris.includes("demo://resource/static/document/architecture.md"), uris.join(" "));
      assert.equal(list.calls.length, 1, "recorded like a call");
      assert.equal((list.calls[0] as Record<string, unknown>).tool, "resources/list");
      const doc = await w.run(
        `(let [r (tool/read-resource 'everything "demo://resource/static/document/architecture.md")]
           [(:ok r) (:value_kind r) (subs (:value r) 0 1)])`,
      );
      assert.deepEqual(doc.json, [true, "text", "#"]);
      const blob = await w.run(`(:value (tool/read-resource 'everything "demo://resource/dynamic/blob/1"))`);
      const [content] = blob.json as Record<string, unknown>[];
      assert.equal(content.uri, "demo://resource/dynamic/blob/1");
      assert.ok((content.bytes as number) > 0 && content.text === undefined, JSON.stringify(content));
      // a URI the server does not know: a world fault, as data
      const missing = await w.run(`(tool/read-resource 'everything "demo://resource/dynamic/nothing/9")`);
      assert.equal((missing.json as Record<string, unknown>).ok, false);
      // a program fault: no such upstream, a bad URI argument
      await assert.rejects(w.run(`(tool/resources 'nowhere)`), /no upstream 'nowhere'/);
      await assert.rejects(w.run(`(tool/read-resource 'everything 42)`), /URI must be a non-empty string/);
    } finally {
      await w.close();
    }
  },
});

Deno.test({
  name: "MCP resources: the run's response cap and tool-call budget apply; the connection survives",
  ignore,
  fn: async () => {
    const w = await startWorld();
    try {
      const doc = `(tool/read-resource 'everything "demo://resource/static/document/architecture.md")`;
      const big = await w.run(doc, { maxResponseBytes: 500 });
      const r = big.json as Record<string, unknown>;
      assert.deepEqual([r.ok, r.reason], [false, "response_too_large"]);
      const spent = await w.run(`[${doc} (tool/resources 'everything)]`, { maxToolCalls: 1 });
      const [, second] = spent.json as Record<string, unknown>[];
      assert.deepEqual([second.ok, second.reason], [false, "cap_exhausted"]);
      const after = await w.run(`(:value (tool/call 'everything/echo {:message "still here"}))`);
      assert.equal(after.json, "Echo: still here");
    } finally {
      await w.close();
    }
  },
});

Deno.test({
  name: "bin/ptc eval: multi-block results and resources under the computed flags, recorded and replayed",
  ignore,
  fn: async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-content-cli-" }));
    try {
      const config = join(dir, "upstreams.json");
      await Deno.writeTextFile(
        config,
        JSON.stringify({
          upstreams: { everything: { transport: "mcp_stdio", command: "node", args: [EVERYTHING, "stdio"] } },
        }),
      );
      const program = `[(count (:value (tool/resources 'everything)))
        (subs (:value (tool/read-resource 'everything "demo://resource/static/document/architecture.md")) 0 8)
        (mapv :type (:value (tool/call 'everything/get-tiny-image {})))]`;
      const live = await launchConfined(["eval", "--upstreams-config", config, "--record", "rec", program], {
        cwd: dir,
      });
      assert.equal(live.code, 0, live.stderr);
      const expected = /^\[\d+ "# Everyt" \["text" "image" "text"\]\]$/;
      assert.match(live.stdout.trim(), expected);
      const replayed = await launchConfined(["eval", "--upstreams-config", config, "--replay", "rec", program], {
        cwd: dir,
      });
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.equal(replayed.stdout.trim(), live.stdout.trim(), "the replay answers resources from the recording");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
