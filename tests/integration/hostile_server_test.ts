/**
 * `ptc mcp --http` (127.0.0.1, OS-assigned port) under hostile requests, with a well-behaved client alongside: each
 * hostile request gets its own answer, `/health` answers throughout, the next normal program is answered, and the
 * server's RSS (read from /proc) stays bounded and comes back near its baseline.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectHttp, evalLisp, spawnHttpServer, spawnStdioServer, textOf } from "./mcp_server_helpers.ts";
import { printedFlags } from "./launcher_helpers.ts";
import { runPtc } from "./ptc_process.ts";
import { startReflector, writeReflectorConfig } from "./reflector.ts";
import { bigDocument, exponentialRefsDoc } from "../transports/openapi/helpers.ts";
import { shellLauncher } from "../transports/mcp_stdio/launchers.ts";
import { pidAlive } from "../transports/mcp_common/helpers.ts";
import { groupMembers, processGroup } from "./proc_groups.ts";

const MiB = 1024 * 1024;

/** Resident set size of a process in bytes, from /proc. */
function rss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

function mb(bytes: number): number {
  return Math.round(bytes / MiB);
}

async function health(origin: string): Promise<string> {
  const res = await fetch(`${origin}/health`);
  return JSON.stringify(await res.json());
}

/** Poll until `cond` holds (bounded); returns whether it did. */
async function eventually(cond: () => boolean, timeoutMs = 8000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

/** Open a raw HTTP/1.1 POST declaring `declared` bytes, send `sent` of them and stall. */
async function slowUpload(url: string, declared: number, sent: number): Promise<Deno.TcpConn> {
  const u = new URL(url);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  const head = [
    `POST ${u.pathname} HTTP/1.1`,
    `Host: ${u.host}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Content-Length: ${declared}`,
  ].join("\r\n") + "\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  for (let done = 0; done < sent; done += chunk.byteLength) {
    try {
      await conn.write(chunk);
    } catch {
      break; // the server refused this one and closed the connection
    }
  }
  return conn;
}

/** The status line of whatever the server answered on `conn` (0 when it closed without an answer). */
async function statusOf(conn: Deno.TcpConn): Promise<number> {
  const buf = new Uint8Array(4096);
  try {
    const n = await conn.read(buf);
    if (n === null) return 0;
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buf.subarray(0, n)))?.[1] ?? 0);
  } catch {
    return 0;
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

Deno.test("hostile server: slow uploads and budget-escaping programs leave the server serving", async (t) => {
  const server = await spawnHttpServer(["--body-timeout-ms", "2000"]);
  const pid = server.child.pid;
  const client = await connectHttp("modern", server.url);
  try {
    assert.equal(textOf(await evalLisp(client, "(+ 1 2)")), "3");
    const baseline = rss(pid);

    await t.step("64 stalled 7 MiB uploads: refused or timed out, memory bounded, others served", async () => {
      const conns = await Promise.all(
        Array.from({ length: 64 }, () => slowUpload(server.url, 7 * MiB, 2 * MiB)),
      );
      assert.equal(await health(server.origin), '{"status":"ok"}');
      assert.equal(textOf(await evalLisp(client, "(* 6 7)")), "42", "a normal program is answered meanwhile");
      const during = rss(pid);
      const statuses = await Promise.all(conns.map(statusOf));
      const counts: Record<number, number> = {};
      for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
      // At most --max-concurrent-calls (4) bodies were read at all; they time out (408), the rest are refused (503).
      assert.ok((counts[503] ?? 0) >= 60, `refused unread: ${JSON.stringify(counts)}`);
      assert.equal((counts[503] ?? 0) + (counts[408] ?? 0), 64, JSON.stringify(counts));
      console.log(`slow uploads: RSS ${mb(baseline)} → ${mb(during)} MiB, answers ${JSON.stringify(counts)}`);
      assert.ok(during - baseline < 64 * MiB, `RSS grew ${Math.round((during - baseline) / MiB)} MiB`);
      assert.equal(textOf(await evalLisp(client, '(str "still" " " "here")')), '"still here"');
    });

    const hostile: [string, string][] = [
      ["(count (combinations (range 100) 5))", "memory_limit"],
      [
        '(let [s (str/join (map (fn [_] "abcdefghij") (range 200000)))] (loop [i 0 t s] (if (< i 100000) ' +
        "(recur (inc i) (if (even? i) (upper-case t) (lower-case t))) (count t))))",
        "memory_limit",
      ],
      [
        "(let [a (vec (range 1000)) b (mapv (fn [_] a) (range 1000))] (mapv (fn [_] b) (range 1000)))",
        "memory_limit",
      ],
    ];
    for (const [program, reason] of hostile) {
      await t.step(`${program.slice(0, 40)}… → ${reason}`, async () => {
        const r = await evalLisp(client, program);
        assert.match(JSON.stringify(r), new RegExp(reason), JSON.stringify(r).slice(0, 400));
        assert.equal(await health(server.origin), '{"status":"ok"}');
        assert.equal(textOf(await evalLisp(client, "(inc 41)")), "42");
      });
    }

    await t.step("RSS comes back near the baseline", async () => {
      const ok = await eventually(() => rss(pid) - baseline < 96 * MiB);
      console.log(`after the hostile requests: RSS ${mb(rss(pid))} MiB (baseline ${mb(baseline)} MiB)`);
      assert.ok(ok, `RSS ${Math.round(rss(pid) / MiB)} MiB vs baseline ${Math.round(baseline / MiB)} MiB`);
    });
  } finally {
    await client.close();
    await server.stop();
  }
});

Deno.test("hostile server: a stdio frame over 10 MiB is answered with an error and the next request is served", async () => {
  const server = spawnStdioServer([]);
  try {
    await server.initialize({ wait: true });
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "lisp_eval", arguments: { program: `"${"x".repeat(11 * MiB)}"` } },
    });
    await server.send(huge);
    const refused = await server.answer(7);
    assert.match(JSON.stringify(refused), /request too large/);
    await server.call(8, "(+ 40 2)");
    assert.match(JSON.stringify(await server.answer(8)), /42/);
    await server.closeInput();
    assert.equal((await server.finished()).code, 0);
  } finally {
    await server.dispose();
  }
});

/**
 * Start `ptc mcp --http` on a config of one openapi upstream `entry` (its files written first into a temporary
 * folder) and return its stderr once it exits with 2 (refused at start).
 */
/**
 * Serve `ptc mcp --http` with one hostile OpenAPI upstream: it is refused (its problem on stderr) while the server
 * starts and keeps serving, and a call to it answers `upstream_unavailable` with the same code. Returns the stderr.
 */
async function refusedAtStart(files: Record<string, unknown>, entry: Record<string, unknown>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-hostile-start-" });
  try {
    for (const [name, content] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), JSON.stringify(content));
    }
    const config = join(dir, "upstreams.json");
    const upstream = { transport: "openapi", base_url: "http://127.0.0.1:9", allow_insecure_http: true, ...entry };
    await Deno.writeTextFile(config, JSON.stringify({ upstreams: { hostile: upstream } }));
    const server = await spawnHttpServer(["--upstreams-config", config]);
    try {
      const client = await connectHttp("auto", server.url);
      try {
        const reason = textOf(await evalLisp(client, "(let [r (tool/call 'hostile/x {})] [(:reason r) (:message r)])"));
        assert.match(reason, /^\[:upstream_unavailable "upstream hostile is unavailable: /);
        assert.equal(await health(server.origin), '{"status":"ok"}', "the server serves on");
      } finally {
        await client.close();
      }
    } finally {
      assert.equal(await server.stop(), 0);
    }
    return server.stderr();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("hostile server: an exponential $ref document is refused (ptc serves on), naming the schema", async () => {
  const stderr = await refusedAtStart({ "doc.json": exponentialRefsDoc(14, 6) }, {
    description: "schemas sharing $refs 14 levels deep",
    schema_file: "doc.json",
    include_operations: ["boom"],
  });
  assert.match(stderr, /schema_too_complex/);
  assert.match(stderr, /#\/components\/schemas\/L0/);
});

Deno.test("hostile server: an overlay whose query would take n² work is refused (ptc serves on), naming it", async () => {
  const slow = {
    overlay: "1.0.0",
    info: { title: "every node counts every node", version: "1" },
    actions: [{ target: "$..[?count($..*) == 0]", update: { "x-never": true } }],
  };
  const stderr = await refusedAtStart({ "doc.json": bigDocument(40), "slow.overlay.json": slow }, {
    schema_file: "doc.json",
    overlays: ["slow.overlay.json"],
    include_operations: ["getResource1"],
  });
  assert.match(stderr, /overlay_too_complex/);
  assert.match(
    stderr,
    /overlays\[0\] \S+slow\.overlay\.json: actions\[0\] \(target "\$\.\.\[\?count\(\$\.\.\*\) == 0\]"\)/,
  );
});

Deno.test("hostile server: a stdio upstream's grandchildren end with ptc mcp", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-hostile-group-" });
  const pidFile = join(dir, "pids");
  const config = join(dir, "upstreams.json");
  await Deno.writeTextFile(config, JSON.stringify({ upstreams: { local: shellLauncher(pidFile) } }));
  const server = await spawnHttpServer(["--upstreams-config", config]);
  let sleeper = 0;
  let upstreamGroup = 0;
  try {
    const client = await connectHttp("modern", server.url);
    try {
      assert.equal(textOf(await evalLisp(client, "(:ok (tool/call 'local/echo {:x 1}))")), "true");
      sleeper = Number((await Deno.readTextFile(pidFile)).trim().split(/\s+/)[0]);
      upstreamGroup = processGroup(sleeper);
      assert.ok(pidAlive(sleeper), "the upstream's grandchild runs");
      assert.notEqual(upstreamGroup, processGroup(server.child.pid), "the upstream has a group of its own");
      assert.equal(await health(server.origin), '{"status":"ok"}');
    } finally {
      await client.close();
    }
  } finally {
    assert.equal(await server.stop(), 0);
  }
  assert.ok(await eventually(() => !pidAlive(sleeper)), "the grandchild is gone");
  assert.ok(await eventually(() => groupMembers(upstreamGroup).length === 0), "no process of the group remains");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("hostile server: --audit-log at a FIFO, a symlink or a directory is refused at start naming the flag, confined too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-hostile-audit-" });
  try {
    const fifo = join(dir, "audit.fifo");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    // A link to a file outside the granted path: following it would write where the operator did not say.
    const outside = join(dir, "outside.txt");
    await Deno.writeTextFile(outside, "");
    const link = join(dir, "audit.jsonl");
    await Deno.symlink(outside, link);
    const start = async (file: string, permissions: string[]) => {
      const out = await runPtc(["mcp", "--audit-log", file], permissions);
      assert.equal(out.code, 2, out.stderr);
      assert.equal(out.stdout, "");
      return out.stderr;
    };
    for (const confined of [false, true]) {
      const flags = (file: string) => confined ? printedFlags(["mcp", "--audit-log", file], dir) : ["-A"];
      assert.match(
        await start(fifo, await flags(fifo)),
        /^ptc mcp: --audit-log .*audit\.fifo: .*it is a FIFO \(named pipe\)/,
      );
      assert.match(
        await start(link, await flags(link)),
        /^ptc mcp: --audit-log .*audit\.jsonl: .*it is a symbolic link/,
      );
      assert.match(await start(dir, await flags(dir)), /^ptc mcp: --audit-log .*: .*it is a directory/);
    }
    assert.equal(await Deno.readTextFile(outside), "", "nothing was written through the link");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile server: a stdio line that is not JSON is answered -32700 and the next request is served", async () => {
  const server = spawnStdioServer([]);
  try {
    await server.initialize({ wait: true });
    await server.send("{not json");
    await server.send('{"jsonrpc":"2.0","id":3,"method":');
    await server.call(4, "(+ 40 2)");
    assert.match(JSON.stringify(await server.answer(4)), /42/);
    const errors = server.frames().filter((f) => f.error?.code === -32700);
    assert.equal(errors.length, 2, server.lines.join("\n"));
    assert.ok(errors.every((f) => f.id === null && /parse error/.test(f.error!.message)));
    await server.closeInput();
    assert.equal((await server.finished()).code, 0);
  } finally {
    await server.dispose();
  }
});

Deno.test("hostile server: a SIGHUP storm while --record and --audit-log evaluations run loses no line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-hostile-hup-" });
  const reflector = startReflector();
  const log = join(dir, "audit.jsonl");
  const rec = join(dir, "rec");
  const calls = 2_000;
  const server = spawnStdioServer([
    "--upstreams-config",
    await writeReflectorConfig(dir, reflector.addr.port, "hup-token"),
    "--audit-log",
    log,
    "--record",
    rec,
    "--max-tool-calls",
    String(calls),
    "--program-timeout-ms",
    "120000",
  ]);
  try {
    await server.initialize({ wait: true });
    const many = `(count (mapv (fn [i] (:ok (tool/call 'reflect/echo {:q (str i)}))) (range ${calls})))`;
    await server.call(2, many);
    for (let i = 0; i < 200; i++) {
      server.child.kill("SIGHUP");
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal((await server.answer(2)).result?.content[0].text, String(calls));
    await server.call(3, "(+ 1 2)");
    assert.equal((await server.answer(3)).result?.content[0].text, "3", "the server serves the next caller");
    await server.closeInput();
    const { code, stderr } = await server.finished();
    assert.equal(code, 0, stderr);
    assert.ok(!stderr.includes("hup-token"));

    const text = await Deno.readTextFile(log);
    assert.ok(text.endsWith("\n"));
    const lines = text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const evals = lines.filter((l) => l.kind === "eval");
    assert.deepEqual(evals.map((l) => [l.outcome, l.upstream_calls]), [["ok", calls], ["ok", 0]]);
    // An evaluation's call lines are one write: no reopened line lands among them.
    const first = lines.findIndex((l) => l.kind === "call");
    assert.ok(lines.slice(first, first + calls).every((l) => l.kind === "call" && l.eval_id === evals[0].eval_id));
    const reopened = lines.filter((l) => l.event === "reopened").length;
    assert.ok(reopened >= 1 && reopened <= 200, `${reopened} reopened lines`);
    // The recording holds the same evaluations, every call.
    const files = (await Array.fromAsync(Deno.readDir(rec))).map((e) => e.name).filter((n) => n !== "manifest.json");
    assert.equal(files.length, 2);
    const recorded = JSON.parse(await Deno.readTextFile(join(rec, files.sort()[0])));
    assert.equal(recorded.calls.length, calls);
  } finally {
    await server.dispose();
    await reflector.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile server: a recording's tool schema with a catastrophic pattern does not freeze the replay", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-hostile-replay-" });
  try {
    const rec = join(dir, "rec");
    await Deno.mkdir(rec);
    const tool = {
      name: "find",
      description: "finds",
      inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^(a+)+$" } } },
      annotations: { readOnlyHint: true },
      effect: "read",
      _ptc: { transport: "mcp_stdio", upstreamName: "find" },
    };
    const manifest = {
      format: "ptc-recording",
      version: 1,
      ptc_version: "test",
      created: new Date().toISOString(),
      limits: {},
      servers: [{ name: "hostile", transport: "mcp_stdio", description: "d", tools: [tool], withheld: {} }],
    };
    await Deno.writeTextFile(join(rec, "manifest.json"), JSON.stringify(manifest));
    const q = "a".repeat(64) + "!"; // 2^64 backtracking steps against ^(a+)+$
    const program = `(:value (tool/call 'hostile/find {:q "${q}"}))`;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(program));
    const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const evaluation = {
      format: "ptc-recording-evaluation",
      version: 1,
      sequence: 1,
      program_sha256: hash,
      program,
      started: new Date().toISOString(),
      outcome: { ok: true },
      calls: [{
        server: "hostile",
        tool: "find",
        args: { q },
        effect: "read",
        result: { ok: true, value: "found", value_kind: "text" },
      }],
    };
    await Deno.writeTextFile(join(rec, `000001-${hash.slice(0, 12)}.json`), JSON.stringify(evaluation));
    const out = await runPtc(["eval", "--replay", rec, program]);
    // RE2 answers at once (src/upstream/linear_pattern.ts): the argument does not match, nothing is replayed
    assert.match(out.stdout + out.stderr, /q: must match the pattern \^\(a\+\)\+\$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
