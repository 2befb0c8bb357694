/**
 * End to end: PTC-Lisp programs in the sandbox call MCP upstreams (our fixtures and real third-party servers from
 * npm) and the OpenAPI Observatory fixture through one `(tool/call …)` surface, from one mixed config.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { startMcpHttpFixture } from "../../fixtures/mcp/http.ts";
import { SandboxPool } from "../../src/sandbox/mod.ts";
import { loadConfigOrThrow } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { type Runtime, startRuntime } from "../../src/upstream/runtime.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { ROOT, STDIO_FIXTURE } from "../transports/mcp_common/helpers.ts";
import { runDeno } from "../cli/run_deno.ts";

const NM = `${ROOT}/node_modules`;

function hasNode(): boolean {
  try {
    return new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

interface World {
  dir: string;
  configPath: string;
  runtime: Runtime;
  pool: SandboxPool;
  run(program: string): Promise<unknown>;
  close(): Promise<void>;
}

async function startWorld(): Promise<World> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-mixed-" }));
  await Deno.mkdir(join(dir, "files"));
  await Deno.writeTextFile(join(dir, "files", "notes.txt"), "alpha\nbeta\ngamma\n");
  await Deno.mkdir(join(dir, "obs"), { mode: 0o700 });
  const tokens = await createTokenDir(join(dir, "obs"));
  const observatory = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none" });
  const http = await startMcpHttpFixture({ era: "both" });
  const config = {
    credentials: { observatory: { source: "file", path: tokens.tokenFile, scheme_hint: "bearer" } },
    upstreams: {
      observatory: {
        transport: "openapi",
        description: "Observatory traces",
        base_url: observatory.url,
        schema_url: `${observatory.url}/api/openapi.json`,
        allow_insecure_http: true,
        allow_insecure_auth: true,
        auth: [{ scheme: "bearer", binding: "observatory" }],
        include_operations: ["list_traces", "get_trace"],
      },
      fixture: {
        transport: "mcp_stdio",
        description: "our stdio fixture",
        command: Deno.execPath(),
        args: ["run", "--frozen", "--cached-only", "--allow-env", STDIO_FIXTURE],
      },
      remote: { transport: "mcp_http", description: "our HTTP fixture", url: http.url, allow_insecure_loopback: true },
      everything: {
        transport: "mcp_stdio",
        command: "node",
        args: [`${NM}/@modelcontextprotocol/server-everything/dist/index.js`, "stdio"],
      },
      fs_legacy: {
        transport: "mcp_stdio",
        command: "node",
        args: [`${NM}/@modelcontextprotocol/server-filesystem/dist/index.js`, join(dir, "files")],
      },
      fs_modern: {
        transport: "mcp_stdio",
        command: "node",
        args: [`${NM}/server-filesystem-modern/dist/index.js`, join(dir, "files")],
        protocol: "2026-07-28",
      },
    },
  };
  // Under a loaded full-suite run, a node server's start can pass the 10 s default; this test is not about that bound.
  for (const up of Object.values(config.upstreams) as Record<string, unknown>[]) {
    if (up.transport === "mcp_stdio") up.start_timeout_ms = 60_000;
  }
  const configPath = join(dir, "upstreams.json");
  await Deno.writeTextFile(configPath, JSON.stringify(config, null, 2));
  const registry = registerBuiltins();
  const runtime = await startRuntime(await loadConfigOrThrow(configPath, { registry }), { registry, log: () => {} });
  const pool = new SandboxPool({ size: 1 });
  await pool.warm();
  return {
    dir,
    configPath,
    runtime,
    pool,
    async run(program: string) {
      const report = await withRunContext(runtime, (ctx) => pool.evaluate(program, { host: ctx.callbacks() }));
      const result = report.value;
      if (!result.ok) throw new Error(`program failed: ${result.reason}: ${result.message}`);
      return result.json;
    },
    async close() {
      await pool.close();
      await runtime.stop();
      await http.close();
      await observatory.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test({
  name: "PTC-Lisp → MCP upstreams (fixtures, server-everything, server-filesystem legacy + modern) and OpenAPI",
  ignore: !hasNode(),
  fn: async () => {
    const w = await startWorld();
    try {
      // our fixtures, both transports, in one program
      const fx = await w.run(`
        (let [a (tool/call 'fixture/echo {:n 1 :tags ["x" "y"]})
              b (tool/call 'remote/get-user {:user-id "u1"})
              c (tool/call 'fixture/fail {:reason "nope"})]
          {:a (:value a) :b (:name (:value b)) :c [(:ok c) (:reason c) (:message c)]})`);
      assert.deepEqual(fx, {
        a: { n: 1, tags: ["x", "y"] },
        b: "Ada Lovelace",
        c: [
          false,
          "tool_error",
          'upstream fixture, tool fail: the tool reported an error; untrusted server text follows: "fixture failure: nope"',
        ],
      });

      // server-everything (2025-11-25 over stdio)
      const echo = await w.run(`(:value (tool/call 'everything/echo {:message "hi from lisp"}))`);
      assert.equal(echo, "Echo: hi from lisp");

      // server-filesystem: legacy (2026.8.31) and modern-only pinned (2.0.1), filtered locally
      for (const srv of ["fs_legacy", "fs_modern"]) {
        const lines = await w.run(`
          (let [r (tool/call '${srv}/read-text-file {:path "${join(w.dir, "files", "notes.txt")}"})]
            ;; server-filesystem publishes an outputSchema for read_text_file: the value is {:content "…"}
            (->> (let [v (:value r)] (if (map? v) (:content v) v))
                 (clojure.string/split-lines) (filter #(clojure.string/includes? % "a")) (count)))`);
        assert.equal(lines, 3, srv);
      }

      // the OpenAPI upstream in the same program as an MCP one (pmap runs the calls concurrently)
      const mixed = await w.run(`
        (let [[t e] (pmap (fn [f] (f))
                          [#(tool/call 'observatory/list-traces {:org-id "acme" :limit 2})
                           #(tool/call 'remote/echo {:ok true})])]
          [(:ok t) (:value e)])`);
      assert.deepEqual(mixed, [true, { ok: true }]);
    } finally {
      await w.close();
    }
  },
});

Deno.test({
  name: "one mixed config: discovery does not reveal the transport; ptc catalog lists both side by side",
  ignore: !hasNode(),
  fn: async () => {
    const w = await startWorld();
    try {
      const servers = await w.run(`(tool/servers)`) as { name: string }[];
      const names = servers.map((s) => (s as Record<string, unknown>).name).sort();
      assert.deepEqual(names, ["everything", "fixture", "fs_legacy", "fs_modern", "observatory", "remote"]);
      const keysOf = (v: unknown) => Object.keys(v as Record<string, unknown>).sort().join(",");
      const serverShapes = new Set(servers.map(keysOf));
      assert.equal(serverShapes.size, 1, "every server entry has the same keys, whatever the transport");
      const dirObs = await w.run(`(first (dir 'observatory))`) as string;
      const dirMcp = await w.run(`(first (dir 'fixture))`) as string;
      assert.match(dirObs, /^observatory\/[a-z0-9-]+ - /);
      assert.match(dirMcp, /^fixture\/[a-z0-9-]+ - /, "dir entries look the same for OpenAPI and MCP tools");
      const results = await w.run(`[(tool/call 'observatory/list-traces {:org-id "acme" :limit 1})
                                    (tool/call 'remote/echo {:a 1})]`) as Record<string, unknown>[];
      assert.equal(keysOf(results[0]), keysOf(results[1]), "results have the same shape");
      assert.ok(!JSON.stringify(results).includes("mcp"), "call results do not name the transport");

      // ptc catalog: the same config, both kinds of upstream side by side
      const out = await runDeno(
        [`${ROOT}/main.ts`, "catalog", "--upstreams-config", w.configPath, "--format", "json"],
        {
          permissions: ["--frozen", "--cached-only", "-A"],
        },
      );
      const text = out.stdout;
      assert.equal(out.code, 0, out.stderr);
      for (const n of ["observatory", "fixture", "remote", "everything", "fs_legacy", "fs_modern"]) {
        assert.ok(text.includes(`"${n}"`), `catalog lists ${n}`);
      }
      assert.ok(text.includes("list-traces") && text.includes("get-user") && text.includes("read-text-file"));
    } finally {
      await w.close();
    }
  },
});
