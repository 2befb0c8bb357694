/**
 * A sandboxed CI job: `ptc eval` under nothing but `--allow-net=127.0.0.1:<fixture port>`, the reads of its config
 * and token file and what the sandbox needs (from src/sandbox/permissions.ts) answers an Observatory question from a
 * working directory outside the checkout. The same program against a host the flags do not name stops with one line
 * naming the permission — never a stack trace or an engine message.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { codeNeeds, sandboxNeeds } from "../../src/cli/face_needs.ts";
import { elsewhere, MAIN, printedFlags, runDeno } from "./launcher_helpers.ts";

const PROGRAM = `(->> (tool/call 'observatory/list-traces {:org_id "acme" :status "error" :limit 100})
                      :value :traces (map :error_class) frequencies (sort-by val >) first key)`;

function ciJob(flags: string[], config: string, cwd: string) {
  return runDeno(["run", "--quiet", "--no-prompt", ...flags, MAIN, "eval", "--upstreams-config", config, PROGRAM], cwd);
}

Deno.test("sandboxed CI job: ptc eval under only the fixture's host:port and the token read", async (t) => {
  const dir = await elsewhere();
  await Deno.mkdir(join(dir, ".observatory"));
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const server = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 400 });
  const other = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 400 });
  try {
    const config = await writeConcreteConfig(dir, server.url);
    const hostPort = new URL(server.url).host;
    const sandbox = sandboxNeeds("source");
    assert.deepEqual(sandbox.net, [], "the sandbox needs no network");
    const flags = [
      `--allow-net=${hostPort}`,
      // ptc's own module folders: bin/ptc loads each module on first use
      `--allow-read=${[config, tokens.tokenFile, ...sandbox.read, ...codeNeeds("source").read].sort().join(",")}`,
      ...(sandbox.run.length ? [`--allow-run=${sandbox.run.join(",")}`] : []),
      ...(sandbox.env.length ? [`--allow-env=${sandbox.env.join(",")}`] : []),
    ];

    await t.step("`ptc permissions eval` prints exactly these flags", async () => {
      assert.deepEqual(await printedFlags(["eval", "--upstreams-config", config, PROGRAM], dir), flags);
    });

    await t.step("the job answers an Observatory question", async () => {
      const r = await ciJob(flags, config, dir);
      assert.equal(r.code, 0, r.stderr);
      const expected = new Map<string, number>();
      for (const tr of server.dataset.traces) {
        if (tr.org_id === "acme" && tr.status === "error" && tr.error_class) {
          expected.set(tr.error_class, (expected.get(tr.error_class) ?? 0) + 1);
        }
      }
      // the fixture's list is newest first and capped at 100: the answer is one of the error classes it holds
      assert.ok(expected.has(JSON.parse(r.stdout)), `unexpected answer ${r.stdout}`);
      assert.equal(r.stderr, "");
    });

    await t.step("the same program against a host not in the flags: one line naming the permission", async () => {
      const elsewhereConfig = await writeConcreteConfig(await Deno.makeTempDir({ dir }), other.url);
      const widened = flags.map((f) => f.startsWith("--allow-read=") ? `${f},${elsewhereConfig}` : f);
      const r = await ciJob(widened, elsewhereConfig, dir);
      assert.equal(r.code, 2, r.stderr);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(
        lines[0],
        new RegExp(`^ptc eval: missing Deno permissions: --allow-net=${new URL(other.url).host} `),
      );
      assert.doesNotMatch(r.stderr, /NotCapable|Uncaught|\n\s+at |PermissionDenied/);
      assert.ok(!r.stderr.includes(tokens.token), "the token never appears");
      assert.equal(r.stdout, "");
    });

    await t.step("without the token-file read: one line naming it", async () => {
      const narrowed = flags.map((f) =>
        f.startsWith("--allow-read=") ? `--allow-read=${[config, ...sandbox.read].sort().join(",")}` : f
      );
      const r = await ciJob(narrowed, config, dir);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr.trim(),
        new RegExp(`^ptc eval: missing Deno permissions: --allow-read=${tokens.tokenFile} \\(`),
      );
      assert.equal(r.stderr.trim().split("\n").length, 1);
    });
  } finally {
    await server.stop();
    await other.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
