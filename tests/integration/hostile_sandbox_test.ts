/**
 * The process boundary under hostile programs: `ptc mcp --http` on 127.0.0.1 with well-behaved clients running
 * alongside. Each hostile request gets its own reason, `/health` answers throughout, the next normal program is
 * answered, the server's CPU and RSS (read from /proc) come back near their baseline, and no sandbox process
 * outlives the server.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { connectHttp, type HttpServer, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";

const TIMEOUT_MS = 1500;
const HEAP_MB = 256;
const CLK_TCK = 100;

/** Direct children of `pid` (its sandbox processes), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = procStat(Number(entry.name));
    if (stat && stat.ppid === pid && stat.state !== "Z") out.push(Number(entry.name));
  }
  return out;
}

/** State, parent and CPU ticks of a process (null once it is gone). */
function procStat(pid: number): { state: string; ppid: number; ticks: number } | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Whether `pid` is (still) a sandbox process (pids may be reused). */
function isSandbox(pid: number): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).includes("sandbox/child.ts");
  } catch {
    return false;
  }
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU (in cores) the server and its sandbox processes use over a one-second window. */
async function treeCpu(pid: number): Promise<number> {
  const pids = [pid, ...childrenOf(pid)];
  const before = new Map(pids.map((p) => [p, procStat(p)?.ticks ?? 0]));
  await new Promise((r) => setTimeout(r, 1000));
  let ticks = 0;
  for (const [p, t0] of before) {
    const now = procStat(p);
    if (now) ticks += now.ticks - t0;
  }
  return ticks / CLK_TCK;
}

/** Wait (up to `withinMs`) until `check` holds; returns the last value seen. */
async function settle<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, withinMs: number): Promise<T> {
  const until = Date.now() + withinMs;
  let value = await read();
  while (!ok(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

/** Reason of a tool result (`status: error` envelopes carry it), or "ok". */
function reasonOf(result: unknown): string {
  const structured = (result as { structuredContent?: { status?: string; reason?: string } }).structuredContent;
  if (structured?.status === "error") return structured.reason ?? "?";
  if ((result as { isError?: boolean }).isError) return textOf(result).split(":")[0];
  return "ok";
}

function call(client: Client, name: string, args: Record<string, unknown>) {
  return client.callTool({ name, arguments: args }, { timeout: 60_000 });
}

/** Background traffic: a polite client evaluating small programs and a /health poller, with their failures. */
function politeTraffic(server: HttpServer, client: Client) {
  let stop = false;
  const failures: string[] = [];
  let evals = 0;
  let health = 0;
  const evaluating = (async () => {
    while (!stop) {
      const r = await call(client, "lisp_eval", { program: "(reduce + (range 100))" });
      if (textOf(r) === "4950") evals++;
      else if (reasonOf(r) !== "busy") failures.push(`eval: ${textOf(r)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const polling = (async () => {
    while (!stop) {
      const started = Date.now();
      const res = await fetch(`${server.origin}/health`, { signal: AbortSignal.timeout(5_000) }).catch((e) => e);
      if (res instanceof Response && res.ok) health++;
      else failures.push(`/health: ${res instanceof Response ? res.status : String(res)}`);
      if (res instanceof Response) await res.body?.cancel();
      const took = Date.now() - started;
      if (took > 2_000) failures.push(`/health took ${took} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    counts: () => ({ evals, health }),
    failures,
    async stop() {
      stop = true;
      await Promise.all([evaluating, polling]);
    },
  };
}

Deno.test("hostile programs cost only their own sandbox process; the server and other clients never notice", async (t) => {
  const server = await spawnHttpServer([
    "--sessions",
    "--max-concurrent-calls",
    "4",
    "--program-timeout-ms",
    String(TIMEOUT_MS),
    "--sandbox-heap-mb",
    String(HEAP_MB),
  ]);
  const pid = server.child.pid;
  const seen = new Set<number>();
  const noteChildren = () => childrenOf(pid).forEach((p) => seen.add(p));
  const clients: Client[] = [];
  const open = async (name: string) => {
    const c = await connectHttp("modern", server.url, undefined, name);
    clients.push(c);
    return c;
  };
  let traffic: ReturnType<typeof politeTraffic> | undefined;
  try {
    const hostile = await open("hostile");
    const polite = await open("polite");
    const checker = await open("checker");
    // warm up, then take the baseline
    assert.equal(textOf(await call(checker, "lisp_eval", { program: "(+ 1 2)" })), "3");
    noteChildren();
    const baselineRss = rssMb(pid);
    traffic = politeTraffic(server, polite);

    /** After each case: the next normal program is answered; CPU and RSS settle near the baseline. */
    const recovered = async (label: string) => {
      const next = await call(checker, "lisp_eval", { program: "(count (filter even? (range 1000)))" });
      assert.equal(textOf(next), "500", `${label}: the next program`);
      noteChildren();
      const cpu = await settle(() => treeCpu(pid), (c) => c < 0.5, 10_000);
      assert.ok(cpu < 0.5, `${label}: server + sandbox CPU back near idle (${cpu} cores)`);
      const rss = await settle(() => rssMb(pid), (r) => r < baselineRss + 150, 10_000);
      assert.ok(
        rss < baselineRss + 150,
        `${label}: host RSS ${rss.toFixed(0)} MB vs baseline ${baselineRss.toFixed(0)}`,
      );
    };

    const cases: [string, Record<string, unknown>, string[]][] = [
      ["combinations blow-up", { program: "(count (combinations (range 100) 5))" }, [
        "memory_limit",
        "step_limit_exceeded",
        "timeout",
      ]],
      ["regex (a|a)*b on 40 a's", { program: `(re-find #"(a|a)*b" "${"a".repeat(40)}")` }, ["timeout"]],
      ["non-ASCII count loop", {
        program: '(let [s (apply str (map (fn [_] "é") (range 4000000)))] (loop [i 0] (if (< i 1000000) ' +
          "(do (count s) (recur (inc i))) i)))",
      }, ["timeout", "step_limit_exceeded", "memory_limit"]],
      ["20,000-deep context", {
        program: "(count (str data/deep))",
        context: { deep: JSON.parse("[".repeat(20_000) + "]".repeat(20_000)) },
      }, ["ok", "stack_overflow", "args_error", "memory_limit"]],
      ["catastrophic output_schema", {
        program: `(str "${"a".repeat(40)}" "b")`,
        output_schema: { type: "string", pattern: "^(a|a)*$" },
      }, ["timeout"]],
    ];
    for (const [label, args, reasons] of cases) {
      await t.step(label, async () => {
        const r = await call(hostile, "lisp_eval", args);
        const reason = reasonOf(r);
        assert.ok(reasons.includes(reason), `${label}: got ${reason}: ${textOf(r).slice(0, 300)}`);
        await recovered(label);
      });
    }

    await t.step("session def accumulation ends that session with a clear reason", async () => {
      const started = await call(hostile, "lisp_session_start", {});
      const id = (started.structuredContent as { session_id: string }).session_id;
      let last: unknown;
      for (let i = 0; i < 40; i++) {
        last = await call(hostile, "lisp_session_eval", {
          session_id: id,
          program: `(def a${i} (vec (range 6000000))) nil`,
        });
        if (reasonOf(last) !== "ok") break;
      }
      assert.equal(reasonOf(last), "memory_limit", textOf(last));
      assert.match(textOf(last), /session (has )?ended/);
      const again = await call(hostile, "lisp_session_eval", { session_id: id, program: "1" });
      assert.equal(reasonOf(again), "unknown_session", textOf(again));
      await recovered("session accumulation");
    });

    await t.step("two long programs from one client leave the others served", async () => {
      // in budget (few steps, little memory) but seconds of work: it finishes or meets its deadline
      const long = "(count (sort (map (fn [i] (mod (* i 7919) 1000003)) (range 3000000))))";
      const held = [call(hostile, "lisp_eval", { program: long }), call(hostile, "lisp_eval", { program: long })];
      await new Promise((r) => setTimeout(r, 300));
      const third = await call(hostile, "lisp_eval", { program: "(+ 1 1)" });
      assert.equal(reasonOf(third), "busy", textOf(third));
      assert.match(textOf(third), /^busy: this client already runs 2 programs/, "one 'busy:', not two");
      for (let i = 0; i < 5; i++) {
        assert.equal(textOf(await call(checker, "lisp_eval", { program: "(* 6 7)" })), "42", "others are served");
      }
      for (const r of await Promise.all(held)) assert.ok(["ok", "timeout"].includes(reasonOf(r)), textOf(r));
      await recovered("two long programs");
    });

    await traffic.stop();
    const { evals, health } = traffic.counts();
    assert.deepEqual(traffic.failures, [], "the polite client and /health never failed");
    assert.ok(evals > 0 && health > 0, `polite traffic ran (${evals} evals, ${health} health checks)`);
  } finally {
    await traffic?.stop();
    for (const c of clients) await c.close().catch(() => {});
    noteChildren();
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
  // No sandbox process outlives the server (they are killed, not orphaned to PID 1).
  const alive = await settle(
    () => [...seen].filter((p) => (procStat(p)?.state ?? "Z") !== "Z" && isSandbox(p)),
    (l) => l.length === 0,
    5_000,
  );
  assert.deepEqual(alive, [], "orphaned sandbox processes");
  assert.ok(seen.size >= 4, `sandbox processes were seen (${seen.size})`);
});
