/**
 * Tool-bridge micro-benchmark: the cost of one `tool/call` round trip from a sandboxed program to an in-process fake
 * tool that answers immediately, against calling the same fake directly on the host.
 *
 * Measured per round trip (median of `--trials` trials of `--calls` calls each):
 * - direct: `await host.callTool(req)` on the host thread (the baseline);
 * - program: `(tool/call 'bench/echo {:i i})` in a PTC-Lisp loop, minus the same loop without the call;
 * - batch: ten calls per `pmap` round, per call.
 *
 * Usage: `deno run --unstable-worker-options -A bench/sandbox/main.ts [--calls N] [--trials N] [--payload BYTES]`
 * @module
 */
import { parseArgs } from "node:util";
import type { JsonValue, ToolOutcome, ToolRequest } from "../../src/lisp/api.ts";
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

/** Run the benchmark and print its table. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { calls: { type: "string" }, trials: { type: "string" }, payload: { type: "string" } },
    strict: false,
  });
  const calls = Number(values.calls ?? 2000);
  const trials = Number(values.trials ?? 7);
  const payload = Number(values.payload ?? 0);
  const host = fakeHost(payload);

  // Direct baseline.
  const direct: number[] = [];
  for (let t = 0; t < trials + 1; t++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) {
      const outcome = await host.callTool({ name: "call", args: { server: "bench", tool: "echo", args: { i } } });
      JSON.stringify(outcome);
    }
    if (t > 0) direct.push((performance.now() - t0) / calls);
  }

  const pool = new SandboxPool({ size: 1, limits: { timeoutMs: 120_000 } });
  try {
    await pool.warm();
    const withCall = `(loop [i 0] (if (< i ${calls}) (do (tool/call 'bench/echo {:i i}) (recur (inc i))) i))`;
    const without = `(loop [i 0] (if (< i ${calls}) (do {:i i} (recur (inc i))) i))`;
    const batched = `(loop [i 0] (if (< i ${
      calls / 10
    }) (do (pmap (fn [j] (tool/call 'bench/echo {:i j})) (range 10)) (recur (inc i))) i))`;
    const perCall: number[] = [];
    const perBatchedCall: number[] = [];
    for (let t = 0; t < trials + 1; t++) {
      const a = elapsed(await pool.evaluate(withCall, { host }), "tool loop");
      const b = elapsed(await pool.evaluate(without, { host }), "empty loop");
      const c = elapsed(await pool.evaluate(batched, { host }), "pmap loop");
      if (t === 0) continue; // warm-up
      perCall.push((a - b) / calls);
      perBatchedCall.push((c - b) / calls);
    }
    const us = (ms: number) => (ms * 1000).toFixed(1).padStart(8);
    const d = median(direct);
    const p = median(perCall);
    const q = median(perBatchedCall);
    console.log(`## sandbox: tool-bridge round trip (${calls} calls x ${trials} trials, payload ${payload} B)`);
    console.log("");
    console.log("| path                                   | median µs/call |");
    console.log("| -------------------------------------- | -------------: |");
    console.log(`| direct host call (baseline)            | ${us(d)}       |`);
    console.log(`| tool/call from a program (bridge)      | ${us(p)}       |`);
    console.log(`| tool/call inside pmap, 10 per batch    | ${us(q)}       |`);
    console.log("");
    console.log(`bridge overhead per round trip: ${us(p - d).trim()} µs (program minus direct)`);
  } finally {
    await pool.close();
  }
}

if (import.meta.main) await run(Deno.args);
