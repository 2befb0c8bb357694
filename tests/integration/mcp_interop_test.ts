/**
 * Interoperability with real third-party MCP servers installed from npm (package.json devDependencies):
 * `@modelcontextprotocol/server-everything@2026.8.31` (SDK v1, 2025-11-25, stdio and Streamable HTTP),
 * `@modelcontextprotocol/server-filesystem@2026.8.31` (legacy era) and `server-filesystem-modern`
 * (= server-filesystem@2.0.1, 2026-07-28). Needs `node` on PATH; skipped (ignored) when it is not there.
 * @module
 */
import assert from "node:assert/strict";
import stdio from "../../transports/mcp_stdio/mod.ts";
import http from "../../transports/mcp_http/mod.ts";
import { clearVerdictCache } from "../../transports/mcp_common/session.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { installTools } from "../../src/upstream/install.ts";
import { callCtx, ROOT, startUpstream } from "../transports/mcp_common/helpers.ts";
import { EVERYTHING, hasNode, startEverything } from "./everything_server.ts";

const NM = `${ROOT}/node_modules`;
const FS_LEGACY = `${NM}/@modelcontextprotocol/server-filesystem/dist/index.js`;
const FS_MODERN = `${NM}/server-filesystem-modern/dist/index.js`;

const ignore = !hasNode();

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-fs-" }));
  await Deno.writeTextFile(`${dir}/hello.txt`, "hello from ptc\n");
  await Deno.mkdir(`${dir}/sub`);
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "interop: server-everything over stdio (legacy era via auto)",
  ignore,
  fn: async () => {
    clearVerdictCache();
    const u = await startUpstream(stdio, { transport: "mcp_stdio", command: "node", args: [EVERYTHING, "stdio"] });
    try {
      assert.equal(u.diagnostics().era, "legacy");
      const names = u.listTools().map((t) => t.name);
      for (const n of ["echo", "get-sum", "get-structured-content"]) assert.ok(names.includes(n), n);
      const echo = await u.call("echo", { message: "hi" }, callCtx());
      assert.deepEqual(echo.ok && [echo.value, echo.valueKind], ["Echo: hi", "text"]);
      const sum = await u.call("get-sum", { a: 2, b: 40 }, callCtx());
      assert.ok(sum.ok);
      assert.match(JSON.stringify(sum.value), /42/);
      const bad = await u.call("get-sum", { a: "x" }, callCtx());
      assert.equal(!bad.ok && bad.reason, "tool_error", "input validation errors are tool errors");
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name: "interop: server-everything pinned to 2026-07-28 is refused with a closed diagnostic",
  ignore,
  fn: async () => {
    const err = await startUpstream(stdio, {
      transport: "mcp_stdio",
      command: "node",
      args: [EVERYTHING, "stdio"],
      protocol: "2026-07-28",
    }).catch((e) => e);
    assert.ok(err instanceof UpstreamStartError);
    assert.equal(err.code, "protocol_method_not_found");
  },
});

Deno.test({
  name: "interop: server-filesystem legacy (2026.8.31) and modern (2.0.1) over stdio",
  ignore,
  fn: async () => {
    await withDir(async (dir) => {
      for (const [bin, era] of [[FS_LEGACY, "legacy"], [FS_MODERN, "modern"]] as const) {
        clearVerdictCache();
        const u = await startUpstream(stdio, { transport: "mcp_stdio", command: "node", args: [bin, dir] });
        try {
          assert.equal(u.diagnostics().era, era);
          const read = await u.call("read-text-file", { path: `${dir}/hello.txt` }, callCtx());
          assert.ok(read.ok, JSON.stringify(read));
          assert.match(JSON.stringify(read.value), /hello from ptc/);
          const list = await u.call("list-directory", { path: dir }, callCtx());
          assert.ok(list.ok);
          assert.match(JSON.stringify(list.value), /hello\.txt/);
          const outside = await u.call("read-text-file", { path: "/etc/hostname" }, callCtx());
          assert.equal(!outside.ok && outside.reason, "tool_error");
        } finally {
          await u.stop();
        }
      }
      // modern-only pin works against 2.0.1
      const pinned = await startUpstream(stdio, {
        transport: "mcp_stdio",
        command: "node",
        args: [FS_MODERN, dir],
        protocol: "2026-07-28",
      });
      try {
        assert.equal(pinned.diagnostics().protocolVersion, "2026-07-28");
        const names = installTools(pinned.listTools(), { readOnly: true }).installed.map((t) => t.name);
        assert.ok(names.includes("read-text-file") && !names.includes("write-file"), "read-only hides write-file");
      } finally {
        await pinned.stop();
      }
    });
  },
});

Deno.test({
  name: "interop: server-everything over Streamable HTTP (sessionful 2025 server)",
  ignore,
  fn: async () => {
    const server = await startEverything("streamableHttp");
    try {
      clearVerdictCache();
      const u = await startUpstream(http, {
        transport: "mcp_http",
        url: `${server.origin}/mcp`,
        allow_insecure_loopback: true,
      });
      try {
        assert.equal(u.diagnostics().era, "legacy");
        const echo = await u.call("echo", { message: "over http" }, callCtx());
        assert.deepEqual(echo.ok && echo.value, "Echo: over http");
      } finally {
        await u.stop();
      }
    } finally {
      await server.stop();
    }
  },
});
