/**
 * `mcp_http` against a server that speaks only the legacy HTTP+SSE transport (`server-everything sse`): the MCP
 * spec's fallback from Streamable HTTP, the `protocol: "sse"` pin, the `"streamable"` pin refusing it, and the error
 * for a wrong URL naming both endpoints tried.
 * @module
 */
import assert from "node:assert/strict";
import http from "../../transports/mcp_http/mod.ts";
import { clearVerdictCache } from "../../transports/mcp_common/session.ts";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { callCtx, startUpstream, waitFor } from "../transports/mcp_common/helpers.ts";
import { hasNode, startEverything } from "./everything_server.ts";
import { launchConfined } from "./launcher_helpers.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { parseConfigText } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import { startSettled } from "../upstream/settled.ts";

const ignore = !hasNode();

Deno.test({
  name: "mcp_http: a legacy HTTP+SSE server is reached by falling back from Streamable HTTP, or by pinning sse",
  ignore,
  fn: async () => {
    const server = await startEverything("sse");
    try {
      for (const protocol of [undefined, "sse", "legacy"]) {
        clearVerdictCache();
        const u = await startUpstream(http, {
          transport: "mcp_http",
          url: `${server.origin}/sse`,
          allow_insecure_loopback: true,
          ...(protocol ? { protocol } : {}),
        });
        try {
          const d = u.diagnostics();
          assert.equal(d.wire, "sse", `protocol ${protocol}`);
          assert.equal(d.era, "legacy");
          const echo = await u.call("echo", { message: "over sse" }, callCtx());
          assert.deepEqual(echo.ok && echo.value, "Echo: over sse");
          const sum = await u.call("get-sum", { a: 2, b: 40 }, callCtx());
          assert.match(JSON.stringify(sum.ok && sum.value), /42/);
        } finally {
          await u.stop();
        }
      }
      // pinned to Streamable HTTP: no fallback, and the error says what was tried
      const pinned = await startUpstream(http, {
        transport: "mcp_http",
        url: `${server.origin}/sse`,
        allow_insecure_loopback: true,
        protocol: "streamable",
      }).catch((e) => e);
      assert.ok(pinned instanceof UpstreamStartError);
      assert.equal(pinned.code, "handshake_failed");
      assert.match(pinned.message, /Streamable HTTP \(POST\) answered HTTP 404/);
      assert.doesNotMatch(pinned.message, /HTTP\+SSE/);
      // a wrong path: both endpoints tried, both named, the query (a place secrets live) never shown
      const wrong = await startUpstream(http, {
        transport: "mcp_http",
        url: `${server.origin}/nowhere?token=s3cr3t-canary`,
        allow_insecure_loopback: true,
      }).catch((e) => e);
      assert.ok(wrong instanceof UpstreamStartError);
      assert.equal(wrong.code, "handshake_failed");
      assert.match(wrong.message, /Streamable HTTP \(POST\) answered HTTP 404; HTTP\+SSE \(GET\) answered HTTP 404/);
      assert.match(wrong.message, new RegExp(`${server.origin}/nowhere`));
      assert.doesNotMatch(wrong.message + (wrong.hint ?? ""), /s3cr3t-canary/);
      assert.match(wrong.hint ?? "", /\/sse/);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "mcp_http: an HTTP+SSE stream that closes (server restart) is reconnected; calls meanwhile fail fast",
  ignore,
  fn: async () => {
    let server = await startEverything("sse");
    clearVerdictCache();
    const registry = registerBuiltins();
    const config = parseConfigText(
      JSON.stringify({
        upstreams: {
          ev: {
            transport: "mcp_http",
            url: `${server.origin}/sse`,
            allow_insecure_loopback: true,
            protocol: "sse",
            reconnect_backoff_ms: 100,
            reconnect_max_backoff_ms: 400,
          },
        },
      }),
      Deno.cwd(),
      { registry },
    );
    assert.ok(!Array.isArray(config), JSON.stringify(config));
    const rt = await startSettled(config, { registry, log: () => {} });
    const echo = async (message: string) =>
      (await withRunContext(
        rt,
        (ctx) => ctx.callTool({ name: "call", args: { server: "ev", tool: "echo", args: { message } } }),
      )).value;
    const phase = () => rt.upstreams.get("ev")!.phase as string;
    try {
      assert.equal(phase(), "ready");
      await server.stop();
      // the closed stream is noticed: the connection ends and the supervisor tries again (and fails meanwhile)
      assert.ok(await waitFor(() => phase() !== "ready", 5000), "the closed stream is noticed");
      const down = await echo("x");
      assert.ok(down.kind === "tagged" && !down.ok && down.reason === "upstream_unavailable", JSON.stringify(down));
      // which request notices the stopped server first is a race: the stream's end, a refused reconnect, or the
      // in-flight request cut off — each names the cause
      assert.match(rt.catalog()[0].cause?.message ?? "", /event stream closed|refused|connection was closed/);
      server = await startEverything("sse", server.port);
      assert.ok(await waitFor(() => phase() === "ready", 15_000), "reconnected");
      const again = await echo("again");
      assert.deepEqual(again.kind === "tagged" && again.ok && again.value, "Echo: again");
    } finally {
      await rt.stop();
      await server.stop();
    }
  },
});

Deno.test({
  name: "bin/ptc eval and doctor: a legacy HTTP+SSE server through mcp_http, under the computed flags",
  ignore,
  fn: async () => {
    const server = await startEverything("sse");
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ptc-sse-cli-" }));
    try {
      const config = `${dir}/upstreams.json`;
      await Deno.writeTextFile(
        config,
        JSON.stringify({
          upstreams: { legacy: { transport: "mcp_http", url: `${server.origin}/sse`, allow_insecure_loopback: true } },
        }),
      );
      const r = await launchConfined(
        ["eval", "--upstreams-config", config, `(:value (tool/call 'legacy/echo {:message "via sse"}))`],
        { cwd: dir },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), '"Echo: via sse"');
      const doctor = await launchConfined(["doctor", "--upstreams-config", config, "--connect"], { cwd: dir });
      assert.match(doctor.stdout, /legacy \(mcp_http\): ready, \d+ tool\(s\).*, legacy era \([\d-]+\) over HTTP\+SSE/);
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
