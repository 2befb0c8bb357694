/**
 * The tool-result path: a real sandbox pool whose host answers `tool/call` with the whole trace dataset (decoded once
 * on the host, as a transport holds a decoded response), timed as whole evaluations — the answer crossing the bridge,
 * its decoding into program values and the program. Run for this tree and, with `--baseline DIR`, another checkout's
 * pool module in the same process (its sandbox processes start from that checkout).
 * @module
 */
import type { JsonValue } from "../../src/core/json.ts";

/** The programs timed on this path: decoding alone, and program (f) over the answer. */
export const TOOL_PATH_PROGRAMS: { id: string; lisp: string }[] = [
  { id: "count", lisp: "(count (tool/call 'bench/traces {}))" },
  {
    id: "f",
    lisp: `(->> (tool/call 'bench/traces {})
       (filter (fn [t] (some #(includes? (:payload %) "deadline exceeded") (:steps t)))) (mapv :id) count)`,
  },
];

interface PoolLike {
  warm(): Promise<void>;
  evaluate(source: string, options: unknown): Promise<{ ok: boolean; reason?: string; message?: string }>;
  close(): Promise<void>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall ms per program over `runs` evaluations through the pool of the checkout at `root` (ends with `/`). */
export async function timeToolPath(root: string, data: JsonValue, runs: number): Promise<Record<string, number>> {
  const { SandboxPool } = await import(`${root}src/sandbox/pool.ts`) as {
    SandboxPool: new (o: unknown) => PoolLike;
  };
  const host = {
    toolNames: ["call"],
    callTool: () => Promise.resolve({ kind: "tagged", ok: true, value: data, valueKind: "json" }),
  };
  const pool = new SandboxPool({ size: 1, limits: { maxToolResultBytes: 256 * 1024 * 1024, timeoutMs: 120_000 } });
  const out: Record<string, number> = {};
  try {
    await pool.warm();
    for (const p of TOOL_PATH_PROGRAMS) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const r = await pool.evaluate(p.lisp, { host });
        times.push(performance.now() - t0);
        if (!r.ok) throw new Error(`tool path ${p.id} failed: ${r.reason}: ${r.message}`);
      }
      out[p.id] = median(times);
    }
  } finally {
    await pool.close();
  }
  return out;
}
