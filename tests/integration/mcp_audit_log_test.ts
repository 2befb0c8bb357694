/**
 * `ptc mcp --audit-log FILE` end to end, against the redaction canary (a loopback upstream reflecting the token into
 * results and errors):
 * - over HTTP through `bin/ptc`, from another working directory, under exactly the flags `ptc permissions` prints:
 *   the token never appears in the log; lines of concurrent `lisp_eval` / `lisp_session_eval` calls from several
 *   clients are whole and each evaluation's call lines are contiguous; a 401 is a `denied` line; `mv` + SIGHUP
 *   rotates (the old file keeps its lines, the next evaluation writes a fresh FILE);
 * - over stdio: the `stdio` face and `local` owner, rotation on SIGHUP;
 * - a log that cannot be written (FILE is now a symlink, which is refused): evaluations are refused with
 *   `audit_unavailable`, the server keeps serving, and admits again once FILE is writable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { connectHttp, evalLisp, ptcMcpArgs, spawnHttpServer, spawnStdioServer, textOf } from "./mcp_server_helpers.ts";
import {
  assertConfined,
  elsewhere,
  freePort,
  launchedFlags,
  printedFlags,
  spawnLaunched,
  waitForListening,
} from "./launcher_helpers.ts";
import { startReflector, writeReflectorConfig } from "./reflector.ts";

const TOKEN = `canary-${crypto.randomUUID()}-${crypto.randomUUID()}`;

/** The canary reversed: a transformation the redactor cannot recognise, so only the log's own policy keeps it out. */
const REVERSED = [...TOKEN].reverse().join("");
/** Every way the canary could be spelled in the log. */
const SPELLINGS = [TOKEN, REVERSED, btoa(TOKEN), encodeURIComponent(TOKEN), TOKEN.slice(0, 30), TOKEN.slice(-30)];

/**
 * Gets the token — whole, and reversed past the redactor — into a print, an argument, an upstream error, a server and
 * tool name (refused for the budget with `--max-tool-calls 4`, so it is recorded) and a `(fail v)`.
 */
const CANARY = `(let [r (:value (tool/call 'reflect/whoami {}))
      t (str (:head r) (:tail r))
      v (apply str (reverse t))]
  (println t v)
  (tool/call 'reflect/echo {:q "fail"})
  (tool/call 'reflect/echo {:q t})
  (tool/call {:server "reflect" :tool "echo" :args {:q v}})
  (tool/call {:server v :tool v :args {:q v}})
  (fail v))`;
/** The token in a runtime error's message (an unknown upstream named by it). */
const CANARY_ERROR = `(let [r (:value (tool/call 'reflect/whoami {}))]
  (tool/call {:server (str (:head r) (:tail r)) :tool "x" :args {}}))`;

type Line = Record<string, unknown>;

async function readLog(path: string): Promise<Line[]> {
  const text = await Deno.readTextFile(path);
  assert.ok(text === "" || text.endsWith("\n"), "the log ends with a whole line");
  return text.split("\n").filter(Boolean).map((l, i) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new Error(`line ${i + 1} of ${path} is not JSON: ${l.slice(0, 200)}`);
    }
  });
}

/** Poll until `check` holds (each try 20 ms apart, at most 15 s, then fail naming `what`). */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 750; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Every `eval` line is preceded, contiguously, by its own call lines numbered 1…n. */
function assertGrouped(lines: Line[]): void {
  let pending: Line[] = [];
  for (const line of lines) {
    if (line.kind === "call") pending.push(line);
    else if (line.kind === "eval") {
      assert.equal(pending.length, line.upstream_calls, `calls of ${line.eval_id}`);
      pending.forEach((c, i) => {
        assert.equal(c.eval_id, line.eval_id);
        assert.equal(c.seq, i + 1);
      });
      pending = [];
    } else assert.equal(pending.length, 0, `a ${line.kind} line inside an evaluation's lines`);
  }
  assert.equal(pending.length, 0);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A temporary folder with the canary upstream running and its config written; both removed after `fn`. */
async function withCanary(fn: (config: string, log: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-audit-" });
  const reflector = startReflector();
  try {
    await fn(await writeReflectorConfig(dir, reflector.addr.port, TOKEN), join(dir, "audit.jsonl"));
  } finally {
    await reflector.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("audit log over HTTP, confined from another directory: canary, concurrency, denied, rotation", async (t) => {
  const cwd = await elsewhere();
  const reflector = startReflector();
  try {
    await writeReflectorConfig(cwd, reflector.addr.port, TOKEN);
    const httpToken = crypto.randomUUID() + crypto.randomUUID();
    await Deno.writeTextFile(join(cwd, "http.token"), httpToken);
    const log = join(cwd, "audit.jsonl");
    const args = [
      "mcp",
      "--http",
      `127.0.0.1:${freePort()}`,
      "--http-auth-token-file",
      "http.token",
      "--upstreams-config",
      "upstreams.json",
      "--audit-log",
      "audit.jsonl",
      "--sessions",
      "--max-tool-calls",
      "4",
    ];
    const printed = await printedFlags(args, cwd);
    assertConfined(printed);
    assert.ok(printed.includes(`--allow-write=${log}`), `${printed}`);
    const child = spawnLaunched(args, cwd);
    const clients: Client[] = [];
    try {
      const { url, stderr } = await waitForListening(child);
      assert.deepEqual(launchedFlags(stderr()), printed);
      const connect = async (name: string) => {
        const c = await connectHttp("modern", url, httpToken, name);
        clients.push(c);
        return c;
      };
      const owner = `token:${(await sha256Hex(httpToken)).slice(0, 12)}`;

      await t.step("the canary token never reaches the log", async () => {
        const client = await connect("canary");
        const failed = await evalLisp(client, CANARY);
        assert.equal(failed.isError, true, textOf(failed));
        const raised = await evalLisp(client, CANARY_ERROR);
        assert.equal(raised.isError, true, textOf(raised));
        const text = await Deno.readTextFile(log);
        for (const s of SPELLINGS) assert.ok(!text.includes(s), `the log holds ${s.slice(0, 12)}…:\n${text}`);
        assert.ok(!text.includes(httpToken), "nor the HTTP bearer token");
        const lines = await readLog(log);
        assertGrouped(lines);
        assert.equal(lines[0].event, "opened");
        const evals = lines.filter((l) => l.kind === "eval");
        assert.equal(evals.length, 2);
        assert.deepEqual(
          [evals[0].outcome, evals[0].reason, evals[0].upstream_calls, evals[0].owner, evals[0].face],
          ["error", "fail", 5, owner, "http"],
        );
        assert.equal(evals[0].program_sha256, await sha256Hex(CANARY));
        assert.equal(evals[1].reason, "runtime_error");
        const calls = lines.filter((l) => l.eval_id === evals[0].eval_id && l.kind === "call");
        assert.deepEqual(calls.map((c) => [c.server, c.tool, c.effect, c.status, c.reason]), [
          ["reflect", "whoami", "read", "ok", null],
          ["reflect", "echo", "read", "error", "upstream_error"],
          ["reflect", "echo", "read", "ok", null],
          ["reflect", "echo", "read", "ok", null],
          [null, null, null, "error", "cap_exhausted"],
        ]);
        assert.ok(calls.slice(0, 4).every((c) => typeof c.bytes_in === "number" && (c.bytes_in as number) > 0));
        assert.notEqual(calls[2].args_sha256, calls[3].args_sha256, "different arguments, different digests");
      });

      await t.step("a request with a wrong token is a denied line", async () => {
        const res = await fetch(url, { method: "POST", headers: { authorization: "Bearer nope" }, body: "{}" });
        await res.body?.cancel();
        assert.equal(res.status, 401);
        await until("the denied line", async () => (await readLog(log)).some((l) => l.kind === "denied"));
        const denied = (await readLog(log)).find((l) => l.kind === "denied")!;
        assert.deepEqual([denied.status, denied.reason, denied.client], [401, "unauthorized", "127.0.0.1"]);
      });

      await t.step("concurrent evaluations from several clients and sessions: whole, grouped lines", async () => {
        const before = (await readLog(log)).filter((l) => l.kind === "eval").length;
        const group = await Promise.all([1, 2, 3].map((i) => connect(`client-${i}`)));
        const sessions = await Promise.all(group.map(async (c) => {
          const r = await c.callTool({ name: "lisp_session_start", arguments: {} });
          return (r.structuredContent as { session_id: string }).session_id;
        }));
        const program = (i: number) =>
          `(count (map #(:ok (tool/call 'reflect/echo {:q (str "c" ${i} "-" %)})) (range ${1 + (i % 3)})))`;
        const results = await Promise.all(group.flatMap((c, i) => [
          evalLisp(c, program(i)),
          evalLisp(c, program(i + 1)),
          c.callTool({ name: "lisp_session_eval", arguments: { session_id: sessions[i], program: program(i + 2) } }),
        ]));
        assert.ok(results.every((r) => !r.isError || /^busy:/.test(textOf(r))), results.map(textOf).join("\n"));
        const lines = await readLog(log);
        assertGrouped(lines);
        const evals = lines.filter((l) => l.kind === "eval");
        assert.equal(evals.length, before + 9);
        const sessionEvals = evals.filter((l) => l.tool === "lisp_session_eval");
        assert.deepEqual(sessionEvals.map((l) => l.session_id).sort(), [...sessions].sort());
        assert.ok(evals.every((l) => l.owner === owner));
        assert.equal(lines.filter((l) => l.kind === "denied").length, 1, "admitted requests are not denied lines");
      });

      await t.step("mv + SIGHUP: the old file keeps its lines, the next evaluation writes a fresh FILE", async () => {
        const earlier = await Deno.readTextFile(log);
        await Deno.rename(log, `${log}.1`);
        Deno.kill(child.pid, "SIGHUP");
        await until("FILE reopened", () => exists(log));
        const client = clients[0];
        const r = await evalLisp(client, `(:ok (tool/call 'reflect/echo {:q "after"}))`);
        assert.equal(textOf(r), "true");
        assert.equal(await Deno.readTextFile(`${log}.1`), earlier, "the rotated file is intact");
        const fresh = await readLog(log);
        assert.deepEqual(fresh.map((l) => l.event ?? l.kind), ["reopened", "call", "eval"]);
      });
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      child.kill("SIGTERM");
      assert.equal((await child.status).code, 0);
    }
  } finally {
    await reflector.shutdown();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("audit log over stdio: the stdio face, the local owner, rotation on SIGHUP", () =>
  withCanary(async (config, log) => {
    const server = spawnStdioServer(["--upstreams-config", config, "--audit-log", log, "--max-tool-calls", "4"]);
    try {
      await server.initialize({ wait: true });
      await server.call(2, CANARY);
      assert.equal((await server.answer(2)).result?.isError, true);
      await Deno.rename(log, `${log}.1`);
      server.child.kill("SIGHUP");
      await until("FILE reopened", () => exists(log));
      await server.call(3, "(+ 1 2)");
      assert.equal((await server.answer(3)).result?.content[0].text, "3");
      const old = await readLog(`${log}.1`);
      assert.ok(!JSON.stringify(old).includes(TOKEN));
      const first = old.find((l) => l.kind === "eval")!;
      assert.deepEqual([first.face, first.owner, first.reason], ["stdio", "local", "fail"]);
      const fresh = await readLog(log);
      assert.deepEqual(fresh.map((l) => l.event ?? l.outcome), ["reopened", "ok"]);
      await server.closeInput();
      const { code, stderr } = await server.finished();
      assert.equal(code, 0, stderr);
      assert.ok(!stderr.includes(TOKEN));
    } finally {
      await server.dispose();
    }
  }));

Deno.test("an unwritable audit log: evaluations refused (audit_unavailable), the server serves on and resumes", () =>
  withCanary(async (config, log) => {
    const server = await spawnHttpServer(["--upstreams-config", config, "--audit-log", log]);
    const client = await connectHttp("modern", server.url);
    try {
      assert.equal(textOf(await evalLisp(client, "(+ 1 2)")), "3");
      await Deno.rename(log, `${log}.1`);
      // The rotation's new FILE is a symlink (to a file outside the granted path): refused, never followed.
      const outside = `${log}.outside`;
      await Deno.writeTextFile(outside, "");
      await Deno.symlink(outside, log);
      server.child.kill("SIGHUP");
      await until(
        "the failure reported",
        () => /cannot reopen the file \(.*it is a symbolic link/.test(server.stderr()),
      );
      assert.match(server.stderr(), /evaluations are refused \(audit_unavailable\)/);

      const refused = await evalLisp(client, `(tool/call 'reflect/whoami {})`);
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /^audit_unavailable: /);
      const health = await fetch(`${server.origin}/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();

      await Deno.remove(log); // writable again
      assert.equal(textOf(await evalLisp(client, "(+ 2 3)")), "5");
      const lines = await readLog(log);
      assert.deepEqual(lines.map((l) => l.event ?? l.kind), ["resumed", "eval"]);
      assert.equal(lines[0].lines_on_stderr, 0, "the refused reopen wrote no line anywhere");
      assert.match(server.stderr(), /writable again/);
      assert.equal((await readLog(`${log}.1`)).filter((l) => l.kind === "eval").length, 1);
      assert.equal(await Deno.readTextFile(outside), "", "nothing was written through the link");
    } finally {
      await client.close();
      assert.equal(await server.stop(), 0);
    }
  }));

Deno.test("an audit log that cannot be opened stops ptc mcp at start, naming the flag (exit 2)", () =>
  withCanary(async (config, log) => {
    const missing = join(log, "..", "no-such-folder", "audit.jsonl");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ptcMcpArgs(["--upstreams-config", config, "--audit-log", missing]),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, /^ptc mcp: --audit-log .*no-such-folder\/audit\.jsonl: cannot open the file for appending/);
    assert.equal(out.stdout.length, 0);
  }));
