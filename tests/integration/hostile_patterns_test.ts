/**
 * An upstream's schema patterns never run on ptc's thread with a backtracking engine. `ptc mcp --http` under
 * `bin/ptc` (the flags `ptc permissions` prints, from another working directory) with a real MCP fixture server as
 * upstream `hm` whose schemas carry catastrophic patterns; a `/health` probe runs alongside every call and must be
 * answered within a second each time (a liveness bound, not a timing):
 *
 * 1. `(tool/call 'hm/status {})` — the server answers `structuredContent {"s": "aaaa…a!"}` (40 a's) for an
 *    `outputSchema` pattern `^(a+)+$` (2^40 backtracking steps): the MCP SDK client's result validation goes through
 *    ptc's RE2 path and answers at once;
 * 2. `(tool/call 'hm/find {:q "aaa…"})` — 80 a's against the input pattern `^a*a*a*a*a*a*a*a*a*b$` (n⁹);
 * 3. `(tool/call 'hm/link {})` — `structuredContent` `http://aaa…a!` for `format: "url"`, whose usual regex
 *    backtracks exponentially: ptc checks it with a linear test of its own;
 * 4. a lookahead pattern RE2 cannot express is named in a start warning (upstream, tool, field) and left to the server.
 *
 * Then ptc's CPU is idle, one SIGTERM ends the server, and the upstream's process group is gone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  assertConfined,
  elsewhere,
  freePort,
  launchedFlags,
  printedFlags,
  spawnLaunched,
  waitForListening,
} from "./launcher_helpers.ts";
import { evalLisp, newClient, textOf } from "./mcp_server_helpers.ts";
import { ROOT, stdioFixture } from "../transports/mcp_common/helpers.ts";
import { groupMembers, pidsWithArg, processGroup, waitUntil } from "./proc_groups.ts";

/** Fetches `/health` back to back until stopped; counts answers and the probes that took longer than a second. */
function healthProbe(origin: string) {
  let running = true;
  const result = { answered: 0, late: [] as string[] };
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        const res = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(1000) });
        await res.body?.cancel();
        if (res.status === 200) result.answered++;
        else result.late.push(`HTTP ${res.status}`);
      } catch (e) {
        result.late.push(`${(e as Error).name} after ${Date.now() - started} ms`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return result;
    },
  };
}

Deno.test("hostile patterns: catastrophic upstream schema patterns never stall ptc mcp --http", async (t) => {
  const cwd = await elsewhere();
  const marker = `hm-${crypto.randomUUID()}`; // names the upstream's process in /proc
  await Deno.writeTextFile(
    join(cwd, "upstreams.json"),
    JSON.stringify({ upstreams: { hm: { ...stdioFixture(["--hostile-patterns", "--name", marker]), cwd: ROOT } } }),
  );
  const args = ["mcp", "--http", `127.0.0.1:${freePort()}`, "--upstreams-config", "upstreams.json"];
  const printed = await printedFlags(args, cwd);
  const child = spawnLaunched(args, cwd);
  let stderr = () => "";
  let upstreamGroup = 0;
  try {
    const listening = await waitForListening(child);
    stderr = listening.stderr;
    assertConfined(launchedFlags(stderr()));
    assert.deepEqual(launchedFlags(stderr()), printed);
    const client = newClient("modern");
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    const origin = new URL(listening.url).origin;
    try {
      const [server] = pidsWithArg(marker);
      assert.ok(server, "the upstream server runs");
      upstreamGroup = processGroup(server);
      assert.notEqual(upstreamGroup, processGroup(child.pid), "the upstream leads a process group of its own");

      await t.step("an outputSchema pattern ^(a+)+$ against 40 a's and a '!'", async () => {
        const probe = healthProbe(origin);
        const r = await client.callTool({ name: "lisp_eval", arguments: { program: "(tool/call 'hm/status {})" } }, {
          timeout: 30_000,
        });
        const health = await probe.stop();
        assert.deepEqual(health.late, [], "every /health probe answered within a second");
        assert.ok(health.answered > 0);
        // the structured result does not match the schema: the call fails, at once, naming the tool
        assert.match(textOf(r), /:ok false/, textOf(r));
        assert.match(textOf(r), /status/, textOf(r));
      });

      await t.step("an input pattern ^a*a*a*a*a*a*a*a*a*b$ against 80 a's", async () => {
        const probe = healthProbe(origin);
        const program = `(tool/call 'hm/find {:q "${"a".repeat(80)}"})`;
        const r = await client.callTool({ name: "lisp_eval", arguments: { program } }, { timeout: 30_000 });
        const health = await probe.stop();
        assert.deepEqual(health.late, [], "every /health probe answered within a second");
        assert.match(textOf(r), /q: must match the pattern \^a\*a\*/, textOf(r));
        const ok = await evalLisp(client, `(:value (tool/call 'hm/find {:q "aaab"}))`);
        assert.match(textOf(ok), /aaab/, "a matching argument reaches the server");
      });

      await t.step("an outputSchema format url against http:// and 40 a's and a '!'", async () => {
        const probe = healthProbe(origin);
        const program = "(:ok (tool/call 'hm/link {}))";
        const r = await client.callTool({ name: "lisp_eval", arguments: { program } }, { timeout: 30_000 });
        const health = await probe.stop();
        assert.deepEqual(health.late, [], "every /health probe answered within a second");
        assert.equal(textOf(r), "true", "ptc's linear url test accepts it; the server stands by its own value");
      });

      await t.step("the host's CPU returns to idle", async () => {
        // clock ticks (1/100 s) ptc used over two quiet seconds: a match still running would use nearly all of them
        const ticks = () => {
          const f = Deno.readTextFileSync(`/proc/${child.pid}/stat`).split(") ")[1].split(" ");
          return Number(f[11]) + Number(f[12]);
        };
        const before = ticks();
        await new Promise((r) => setTimeout(r, 2000));
        assert.ok(ticks() - before < 60, `ptc used ${ticks() - before} ticks in 2 s`);
      });

      await t.step("a lookahead is named in a start warning and left to the server", async () => {
        assert.match(
          stderr(),
          /upstream hm: warning: tool peek: inputSchema \/properties\/q\/pattern "\^\(\?=x\)x\+\$" is not checked by ptc \(it uses a lookahead/,
        );
        const r = await evalLisp(client, `(:value (tool/call 'hm/peek {:q "y"}))`);
        assert.match(textOf(r), /"peek":"y"|peek/, textOf(r));
      });
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGTERM");
    const exited = await Promise.race([
      child.status.then((s) => s.code),
      new Promise<string>((r) => setTimeout(() => r("still running 20 s after SIGTERM"), 20_000)),
    ]);
    if (typeof exited === "string") child.kill("SIGKILL");
    await child.status;
    assert.equal(exited, 0, stderr());
  }
  assert.ok(await waitUntil(() => groupMembers(upstreamGroup).length === 0), "the upstream's group is gone");
  await Deno.remove(cwd, { recursive: true });
});
