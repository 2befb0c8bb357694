/**
 * Sandbox benchmark: what process isolation costs. Measured for the process pool of this tree and, with
 * `--worker-baseline DIR` (a plain export of a tree whose sandbox still used Web Workers, e.g.
 * `git archive <commit> src | tar -x -C DIR`), for that Worker pool in the same run:
 * - bridge round trip: `(tool/call 'bench/echo {:i i})` in a loop minus the same loop without the call, per call
 *   (median of `--trials` trials of `--calls` calls); also ten calls per `pmap` round, per call; and a direct
 *   host call as the floor;
 * - warm `ptc eval` start: a trivial program on a warm pool, submit to answer (median of 200);
 * - refill after a kill: a program that ignores its deadline is killed; time from its answer until the replacement
 *   has loaded the language (median of `--kills`);
 * - RSS per idle sandbox: processes from /proc/<pid>/status (VmRSS); workers as the host's RSS growth per worker.
 *
 * Usage: `deno task bench sandbox [--calls N] [--trials N] [--payload BYTES] [--worker-baseline DIR]`
 * @module
 */
import { parseArgs } from "node:util";
import type { ToolOutcome, ToolRequest } from "../../src/core/tool_seam.ts";
import type { JsonValue } from "../../src/core/json.ts";
import { type SandboxHost, SandboxPool, type SandboxResult } from "../../src/sandbox/mod.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function fakeHost(payloadBytes: number): SandboxHost {
  const filler = "x".repeat(payloadBytes);
  return {
    toolNames: ["call"],
    callTool(request: ToolRequest): Promise<ToolOutcome> {
      const value: JsonValue = payloadBytes > 0
        ? { args: request.args.args ?? null, filler }
        : request.args.args ?? null;
      return Promise.resolve({ kind: "tagged", ok: true, value, valueKind: "json" });
    },
  };
}

function elapsed(r: SandboxResult, what: string): number {
  if (!r.ok) throw new Error(`${what} failed: ${r.reason}: ${r.message}`);
  return r.elapsedMs;
}

/** The slice of a pool API both implementations share. */
interface AnyPool {
  warm(): Promise<void>;
  evaluate(source: string, options?: Record<string, unknown>): Promise<SandboxResult>;
  close(): Promise<void>;
  pids?(): number[];
}
type PoolCtor = new (options: Record<string, unknown>) => AnyPool;

interface Row {
  roundTripUs: number;
  batchedUs: number;
  warmEvalMs: number;
  refillMs: number;
  rssMb: number;
}

function vmRssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function measure(Pool: PoolCtor, opts: { calls: number; trials: number; kills: number; payload: number }) {
  const host = fakeHost(opts.payload);
  const row: Partial<Row> = {};
  // RSS per idle sandbox: four idle ones.
  const rssBefore = Deno.memoryUsage().rss;
  const idle = new Pool({ size: 4 });
  await idle.warm();
  await new Promise((r) => setTimeout(r, 500));
  row.rssMb = idle.pids
    ? idle.pids().reduce((s, p) => s + vmRssMb(p), 0) / 4
    : (Deno.memoryUsage().rss - rssBefore) / 4 / 1024 / 1024;
  await idle.close();

  const pool = new Pool({ size: 1, limits: { timeoutMs: 120_000 } });
  try {
    await pool.warm();
    const { calls } = opts;
    const withCall = `(loop [i 0] (if (< i ${calls}) (do (tool/call 'bench/echo {:i i}) (recur (inc i))) i))`;
    const without = `(loop [i 0] (if (< i ${calls}) (do {:i i} (recur (inc i))) i))`;
    const batched = `(loop [i 0] (if (< i ${
      calls / 10
    }) (do (pmap (fn [j] (tool/call 'bench/echo {:i j})) (range 10)) (recur (inc i))) i))`;
    const perCall: number[] = [];
    const perBatchedCall: number[] = [];
    for (let t = 0; t < opts.trials + 1; t++) {
      const a = elapsed(await pool.evaluate(withCall, { host }), "tool loop");
      const b = elapsed(await pool.evaluate(without, { host }), "empty loop");
      const c = elapsed(await pool.evaluate(batched, { host }), "pmap loop");
      if (t === 0) continue; // warm-up
      perCall.push((a - b) / calls);
      perBatchedCall.push((c - b) / calls);
    }
    row.roundTripUs = median(perCall) * 1000;
    row.batchedUs = median(perBatchedCall) * 1000;
    const starts: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      elapsed(await pool.evaluate("(+ 1 2)"), "trivial");
      starts.push(performance.now() - t0);
    }
    row.warmEvalMs = median(starts);
  } finally {
    await pool.close();
  }

  // Refill after a kill: a regex the interpreter cannot interrupt, short deadline.
  const killPool = new Pool({ size: 1, limits: { timeoutMs: 100, graceMs: 100 } });
  try {
    await killPool.warm();
    const refills: number[] = [];
    for (let i = 0; i < opts.kills; i++) {
      const r = await killPool.evaluate(`(re-find #"(a|a)*b" "${"a".repeat(32)}")`);
      if (r.ok) throw new Error("the hostile regex finished");
      const t0 = performance.now();
      await killPool.warm();
      refills.push(performance.now() - t0);
    }
    row.refillMs = median(refills);
  } finally {
    await killPool.close();
  }
  return row as Row;
}

/** A child that echoes 4-byte-length frames from stdin to stdout with blocking reads and writes, as a sandbox does. */
const ECHO_CHILD = `
const head = new Uint8Array(4);
function readFull(buf) {
  let off = 0;
  while (off < buf.length) { const n = Deno.stdin.readSync(buf.subarray(off)); if (n === null) Deno.exit(0); off += n; }
}
function writeFull(buf) { let off = 0; while (off < buf.length) off += Deno.stdout.writeSync(buf.subarray(off)); }
for (;;) {
  readFull(head);
  const body = new Uint8Array(new DataView(head.buffer).getUint32(0));
  readFull(body);
  const out = new Uint8Array(4 + body.length);
  out.set(head);
  out.set(body, 4);
  writeFull(out);
}
`;

/**
 * The floor of a bridge round trip: a raw pipe ping-pong with a Deno child that echoes frames (JSON of the size of a
 * tool request), µs per round trip (median of `trials` trials of `calls` round trips).
 */
async function pipePingPongUs(calls: number, trials: number): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-bench-pipe-" });
  const file = `${dir}/echo.js`;
  await Deno.writeTextFile(file, ECHO_CHILD);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", file],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  let pending = new Uint8Array(0);
  const readFrame = async (): Promise<Uint8Array> => {
    for (;;) {
      if (pending.length >= 4) {
        const n = new DataView(pending.buffer, pending.byteOffset).getUint32(0);
        if (pending.length >= 4 + n) {
          const body = pending.subarray(4, 4 + n);
          pending = pending.subarray(4 + n);
          return body;
        }
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("echo child ended");
      const merged = new Uint8Array(pending.length + value.length);
      merged.set(pending);
      merged.set(value, pending.length);
      pending = merged;
    }
  };
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const per: number[] = [];
  try {
    for (let t = 0; t < trials + 1; t++) {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) {
        const body = enc.encode(JSON.stringify({ type: "request", id: i, name: "bench/echo", args: { i } }));
        const frame = new Uint8Array(4 + body.length);
        new DataView(frame.buffer).setUint32(0, body.length);
        frame.set(body, 4);
        await writer.write(frame);
        JSON.parse(dec.decode(await readFrame()));
      }
      if (t > 0) per.push((performance.now() - t0) / calls);
    }
  } finally {
    await writer.close();
    await child.status;
    await reader.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  return median(per) * 1000;
}

/** Run the benchmark and print its table. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      calls: { type: "string" },
      trials: { type: "string" },
      payload: { type: "string" },
      kills: { type: "string" },
      "worker-baseline": { type: "string" },
    },
    strict: false,
  });
  const opts = {
    calls: Number(values.calls ?? 2000),
    trials: Number(values.trials ?? 7),
    payload: Number(values.payload ?? 0),
    kills: Number(values.kills ?? 5),
  };
  const host = fakeHost(opts.payload);
  const direct: number[] = [];
  for (let t = 0; t < opts.trials + 1; t++) {
    const t0 = performance.now();
    for (let i = 0; i < opts.calls; i++) {
      const outcome = await host.callTool({ name: "call", args: { server: "bench", tool: "echo", args: { i } } });
      JSON.stringify(outcome);
    }
    if (t > 0) direct.push((performance.now() - t0) / opts.calls);
  }
  const pipeBefore = await pipePingPongUs(opts.calls, opts.trials);
  const rows: [string, Row][] = [["process pool (this tree)", await measure(SandboxPool as unknown as PoolCtor, opts)]];
  const pipeAfter = await pipePingPongUs(opts.calls, opts.trials);
  const baseline = values["worker-baseline"];
  if (typeof baseline === "string") {
    const mod = await import(`${baseline.replace(/\/$/, "")}/src/sandbox/mod.ts`);
    // A Worker busy in a regex cannot be stopped: each "kill" leaves a spinning thread behind, so only one.
    rows.push(["Worker pool (baseline tree)", await measure(mod.SandboxPool as PoolCtor, { ...opts, kills: 1 })]);
  }
  const load = Deno.loadavg().map((l) => l.toFixed(1)).join(" ");
  console.log(
    `## sandbox: isolation cost (${opts.calls} calls x ${opts.trials} trials, payload ${opts.payload} B, ` +
      `load ${load}, ${navigator.hardwareConcurrency} cores)`,
  );
  console.log("");
  console.log(
    "| sandbox                      | round trip µs | pmap µs/call | warm eval ms | refill after kill ms | RSS/idle MB |",
  );
  console.log(
    "| ---------------------------- | ------------: | -----------: | -----------: | -------------------: | ----------: |",
  );
  for (const [name, r] of rows) {
    console.log(
      `| ${name.padEnd(28)} | ${r.roundTripUs.toFixed(1).padStart(13)} | ${r.batchedUs.toFixed(1).padStart(12)} | ` +
        `${r.warmEvalMs.toFixed(2).padStart(12)} | ${r.refillMs.toFixed(0).padStart(20)} | ` +
        `${r.rssMb.toFixed(1).padStart(11)} |`,
    );
  }
  console.log("");
  console.log(`direct host call (floor): ${(median(direct) * 1000).toFixed(2)} µs/call`);
  const pipe = (pipeBefore + pipeAfter) / 2;
  console.log(
    `raw pipe ping-pong with a Deno child (same run, before/after the pools): ${pipeBefore.toFixed(1)} / ` +
      `${pipeAfter.toFixed(1)} µs; bridge round trip / pipe: ${(rows[0][1].roundTripUs / pipe).toFixed(2)}`,
  );
}

if (import.meta.main) await run(Deno.args);
